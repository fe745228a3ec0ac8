package wpimport

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/richtext"
)

const oldSite = "https://riverside.example.org"

// testConvert maps small.xml's old site: its pages' addresses to new paths, its uploads to
// /media/acme/… when the export has them. calls counts Image's calls by URL.
func testConvert(calls map[string]int) Convert {
	site := Site{Link: oldSite}
	pages := map[string]string{
		"/about-us/": "/about-us", "/?page_id=2": "/about-us", "/about-us/history/": "/about-us-history",
		"/admissions/": "/admissions", "/?p=11": "/notices/N11",
	}
	media := map[string]bool{"2008/06/canola2.jpg": true, "2019/03/school-front.jpg": true, "2024/03/concert-hall.jpg": true}
	attachments := map[int][3]string{
		20: {oldSite + "/wp-content/uploads/2008/06/canola2.jpg", "Children running the relay", "The Year 6 relay team"},
		21: {oldSite + "/wp-content/uploads/2019/03/school-front.jpg", "The school building in 1900", ""},
		22: {oldSite + "/wp-content/uploads/2024/03/concert-hall-scaled.jpg", "The town hall stage", "A <b>stage</b>"},
	}
	return Convert{
		Link: func(u string) (string, bool) {
			if p, ok := UploadPath(u); ok && media[p] {
				return "/media/acme/" + p, true
			}
			if p, ok := site.Local(u); ok {
				to, found := pages[p]
				return to, found
			}
			return "", false
		},
		Image: func(u string) (string, bool) {
			if calls != nil {
				calls[u]++
			}
			if p, ok := UploadPath(u); ok && media[p] {
				return "/media/acme/" + p, true
			}
			return "", false
		},
		Attachment: func(id int) (string, string, string, bool) {
			a, ok := attachments[id]
			return a[0], a[1], a[2], ok
		},
	}
}

var reBetweenTags = regexp.MustCompile(`>\s+<`)

// squash removes the whitespace between tags and around the whole, which the conversion keeps
// from the source and which means nothing to the editor.
func squash(s string) string { return strings.TrimSpace(reBetweenTags.ReplaceAllString(s, "><")) }

// kinds lists findings as "kind name ×count", sorted.
func kinds(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		s := f.Kind + " " + f.Name
		if f.Count > 1 {
			s += " ×" + strconv.Itoa(f.Count)
		}
		out = append(out, strings.TrimSpace(s))
	}
	sort.Strings(out)
	return out
}

func TestHTML(t *testing.T) {
	const up = oldSite + "/wp-content/uploads/"
	cases := []struct {
		name, in, want string
		findings       []string
	}{
		// classic content: the paragraph rule first
		{"classic paragraphs", "a\n\nb", "<p>a</p><p>b</p>", nil},
		{"classic line break", "a\nb", "<p>a<br/>\nb</p>", nil},
		{"classic block elements not wrapped", "Intro\n<h2>Title</h2>\n<ul>\n<li>x</li>\n</ul>", "<p>Intro</p><h2>Title</h2><ul><li>x</li></ul>", nil},

		// block content: the comments go, the HTML stays, no paragraph rule
		{"block comments removed", "<!-- wp:paragraph -->\n<p>Hi</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:heading {\"level\":3} -->\n<h3 class=\"wp-block-heading\">T</h3>\n<!-- /wp:heading -->",
			`<p>Hi</p><h3 class="wp-block-heading">T</h3>`, nil},
		{"block content gets no paragraph rule", "<!-- wp:paragraph -->\n<p>a\nb</p>\n<!-- /wp:paragraph -->", "<p>a\nb</p>", nil},
		{"nested blocks", "<!-- wp:group {\"layout\":{\"type\":\"constrained\"}} -->\n<div class=\"wp-block-group\"><!-- wp:paragraph -->\n<p>In</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:group -->",
			`<div class="wp-block-group"><p>In</p></div>`, nil},
		{"ordinary comments stay for the sanitiser", "<!-- wp:paragraph --><p>a</p><!-- /wp:paragraph --><!--more--><p>b</p>", "<p>a</p><!--more--><p>b</p>", nil},
		{"a void dynamic block gives nothing", "<!-- wp:paragraph --><p>News:</p><!-- /wp:paragraph -->\n<!-- wp:latest-posts {\"postsToShow\":3} /-->", "<p>News:</p>", []string{"block latest-posts"}},
		{"core/ prefix and other namespaces", "<!-- wp:core/archives /--><!-- wp:jetpack/contact-form /--><p>x</p><!-- wp:paragraph --><!-- /wp:paragraph -->", "<p>x</p>",
			[]string{"block archives", "block jetpack/contact-form", "block paragraph"}},
		{"an empty dynamic block", "<!-- wp:latest-comments -->\n<!-- /wp:latest-comments --><p>x</p>", "<p>x</p>", []string{"block latest-comments"}},
		{"a reusable block", `<p>x</p><!-- wp:block {"ref":123} /-->`, "<p>x</p>", []string{"block block"}},
		{"social links keep their URLs", `<!-- wp:social-links --><ul class="wp-block-social-links"><!-- wp:social-link {"url":"https://twitter.com/school","service":"twitter"} /--><!-- wp:social-link {"service":"facebook"} /--></ul><!-- /wp:social-links -->`,
			`<ul class="wp-block-social-links"><li><a href="https://twitter.com/school">twitter</a></li></ul>`, []string{"block social-link"}},
		{"a block comment with a closer missing its opener", "<p>a</p><!-- /wp:paragraph --><!-- wp:paragraph --><p>b</p>", "<p>a</p><p>b</p>", nil},

		// embeds
		{"an embed block", "<!-- wp:embed {\"url\":\"https://www.youtube.com/watch?v=abc\",\"type\":\"video\",\"providerNameSlug\":\"youtube\"} -->\n<figure class=\"wp-block-embed is-type-video\"><div class=\"wp-block-embed__wrapper\">\nhttps://www.youtube.com/watch?v=abc\n</div><figcaption class=\"wp-element-caption\">Our <em>song</em></figcaption></figure>\n<!-- /wp:embed -->",
			`<figure><p><a href="https://www.youtube.com/watch?v=abc">https://www.youtube.com/watch?v=abc</a></p><figcaption>Our <em>song</em></figcaption></figure>`, []string{"embed https://www.youtube.com/watch?v=abc"}},
		{"an old core-embed block without url attribute", "<!-- wp:core-embed/vimeo -->\n<figure class=\"wp-block-embed-vimeo\"><div class=\"wp-block-embed__wrapper\">\nhttps://vimeo.com/123\n</div></figure>\n<!-- /wp:core-embed/vimeo -->",
			`<p><a href="https://vimeo.com/123">https://vimeo.com/123</a></p>`, []string{"embed https://vimeo.com/123"}},
		{"a URL on its own line", "Watch this:\n\nhttps://www.youtube.com/watch?v=abc\n\nGreat!",
			`<p>Watch this:</p><p><a href="https://www.youtube.com/watch?v=abc">https://www.youtube.com/watch?v=abc</a></p><p>Great!</p>`, []string{"embed https://www.youtube.com/watch?v=abc"}},
		{"a URL on its own line inside a paragraph", "Watch:\nhttps://vimeo.com/1\nthen stay",
			`<p>Watch:</p><p><a href="https://vimeo.com/1">https://vimeo.com/1</a></p><p>then stay</p>`, []string{"embed https://vimeo.com/1"}},
		{"a URL alone in a block paragraph", "<!-- wp:paragraph -->\n<p> https://vimeo.com/123 </p>\n<!-- /wp:paragraph -->",
			`<p><a href="https://vimeo.com/123">https://vimeo.com/123</a></p>`, []string{"embed https://vimeo.com/123"}},
		{"a URL in a code sample is text", "<pre>curl\nhttps://x.example/api\n</pre>\n\nhttps://vimeo.com/9",
			`<pre>curl
https://x.example/api
</pre><p><a href="https://vimeo.com/9">https://vimeo.com/9</a></p>`, []string{"embed https://vimeo.com/9"}},
		{"a URL inside a sentence is text", "See https://example.com/x for more", "<p>See https://example.com/x for more</p>", nil},
		{"[embed]", "[embed width=\"640\"]https://www.youtube.com/watch?v=xyz[/embed]",
			`<p><a href="https://www.youtube.com/watch?v=xyz">https://www.youtube.com/watch?v=xyz</a></p>`, []string{"embed https://www.youtube.com/watch?v=xyz"}},
		{"[embed] without a URL", "[embed]not a url[/embed]", "<p>not a url</p>", []string{"shortcode embed"}},
		{"an iframe", `<p>Map: <iframe src="https://maps.example.com/embed?x=1" width="600"></iframe></p>`,
			`<p>Map: <a href="https://maps.example.com/embed?x=1">https://maps.example.com/embed?x=1</a></p>`, []string{"embed https://maps.example.com/embed?x=1"}},
		{"a video element", `<!-- wp:video --><figure class="wp-block-video"><video controls src="` + up + `2024/03/choir.mp4"></video></figure><!-- /wp:video -->`,
			`<figure class="wp-block-video"><a href="` + up + `2024/03/choir.mp4">choir.mp4</a></figure>`, []string{"embed " + up + "2024/03/choir.mp4"}},
		{"an audio element's source", `<audio controls><source src="/a/song.mp3" type="audio/mpeg"></audio>`,
			`<p><a href="/a/song.mp3">song.mp3</a></p>`, []string{"embed /a/song.mp3"}},

		// shortcodes
		{"caption", `[caption id="attachment_20" align="aligncenter" width="300"]<a href="` + up + `2008/06/canola2.jpg"><img class="size-medium wp-image-20" src="` + up + `2008/06/canola2-300x200.jpg" alt="Relay" width="300" height="200" /></a> The Year 6 relay team[/caption]`,
			`<figure><a href="/media/acme/2008/06/canola2.jpg"><img class="size-medium wp-image-20" src="/media/acme/2008/06/canola2.jpg" alt="Relay" width="300" height="200"/></a><figcaption>The Year 6 relay team</figcaption></figure>`, nil},
		{"caption on its own lines", "Before\n\n[caption width=\"300\"]<img src=\"" + up + "2019/03/school-front.jpg\" alt=\"\" />\nThe front[/caption]\n\nAfter",
			`<p>Before</p><figure><img src="/media/acme/2019/03/school-front.jpg" alt=""/><figcaption>The front</figcaption></figure><p>After</p>`, nil},
		{"caption in the attribute (WordPress before 3.4)", `[caption caption="Old style" width="300"]<img src="` + up + `2019/03/school-front.jpg" />[/caption]`,
			`<figure><img src="/media/acme/2019/03/school-front.jpg"/><figcaption>Old style</figcaption></figure>`, nil},
		{"caption without an image", `[caption]Just words[/caption]`, `<figure>Just words</figure>`, nil},
		{"unclosed caption", `[caption id="x"]<img src="` + up + `2019/03/school-front.jpg">`, `<p><img src="/media/acme/2019/03/school-front.jpg"/></p>`, nil},
		{"gallery with ids", `[gallery ids="20, 21,99" columns="2"]`,
			`<figure><img src="/media/acme/2008/06/canola2.jpg" alt="Children running the relay"/><figcaption>The Year 6 relay team</figcaption></figure><figure><img src="/media/acme/2019/03/school-front.jpg" alt="The school building in 1900"/></figure>`,
			[]string{"gallery gallery", "missing-media attachment 99"}},
		{"gallery with include and an escaped caption", `[gallery include="22"]`,
			`<figure><img src="/media/acme/2024/03/concert-hall.jpg" alt="The town hall stage"/><figcaption>A &lt;b&gt;stage&lt;/b&gt;</figcaption></figure>`, []string{"gallery gallery"}},
		{"gallery of attached images", "Photos:\n\n[gallery columns=\"3\"]", "<p>Photos:</p>", []string{"gallery gallery"}},
		{"audio", `[audio mp3="` + up + `2024/03/song.mp3"][/audio]`, `<p><a href="` + up + `2024/03/song.mp3">song.mp3</a></p>`, []string{"embed " + up + "2024/03/song.mp3"}},
		{"video with src", `[video width="640" src="https://cdn.example.com/v/clip.mp4?x=1"]`, `<p><a href="https://cdn.example.com/v/clip.mp4?x=1">clip.mp4</a></p>`, []string{"embed https://cdn.example.com/v/clip.mp4?x=1"}},
		{"video without a file", `Text [video width="640"]`, "<p>Text </p>", []string{"shortcode video"}},
		{"playlist", `[playlist ids="20,21"]`,
			`<ul><li><a href="/media/acme/2008/06/canola2.jpg">The Year 6 relay team</a></li><li><a href="/media/acme/2019/03/school-front.jpg">school-front.jpg</a></li></ul>`, []string{"embed playlist"}},
		{"an unknown shortcode is left out and reported", "We welcome applications.\n\n[contact-form-7 id=\"5\" title=\"Admissions enquiry\"]\n\nCall us.",
			"<p>We welcome applications.</p><p>Call us.</p>", []string{"shortcode contact-form-7"}},
		{"an unknown enclosing shortcode keeps its content", `[box color="red"]Inside <em>text</em>[/box] after`, "<p>Inside <em>text</em> after</p>", []string{"shortcode box"}},
		{"nested shortcodes", `[row][column]A [caption]<img src="` + up + `2019/03/school-front.jpg"> B[/caption][/column][/row]`,
			`<p>A </p><figure><img src="/media/acme/2019/03/school-front.jpg"/><figcaption>B</figcaption></figure>`, []string{"shortcode column", "shortcode row"}},
		{"the same name nested: the first closer ends it", "[box]a[box]b[/box]c[/box]", "<p>abc</p>", []string{"shortcode box ×3"}},
		{"escaped shortcodes are literal", "Type [[gallery]] or [[box]x[/box]] to add one.", "<p>Type [gallery] or [box]x[/box] to add one.</p>", nil},
		{"brackets that are no shortcode", "Footnote [1], [ ] and a[b and [/ x] or [sic [2]]", "<p>Footnote [1], [ ] and a[b and [/ x] or [sic [2]]</p>", nil},
		{"self-closing shortcode", `Before [hr_line style="x" /] after [/hr_line]`, "<p>Before  after </p>", []string{"shortcode hr_line ×2"}},

		// links and images
		{"links to the old site are rewritten", `Our <a href="https://riverside.example.org/about-us/history/">history</a>, <a href="http://www.riverside.example.org/admissions/">admissions</a>, <a href="/?page_id=2">about</a>, <a href="https://other.example/">elsewhere</a>, <a href="#top">top</a>, <a href="` + up + `2008/06/canola2.jpg">photo</a>.`,
			`<p>Our <a href="/about-us-history">history</a>, <a href="/admissions">admissions</a>, <a href="/about-us">about</a>, <a href="https://other.example/">elsewhere</a>, <a href="#top">top</a>, <a href="/media/acme/2008/06/canola2.jpg">photo</a>.</p>`, nil},
		{"images are rewritten, srcset and sizes dropped", `<img class="wp-image-21" src="` + up + `2019/03/school-front-300x200.jpg" alt="Front" srcset="` + up + `2019/03/school-front-300x200.jpg 300w, ` + up + `2019/03/school-front-1024x683.jpg 1024w" sizes="(max-width: 300px) 100vw, 300px" width="300">`,
			`<p><img class="wp-image-21" src="/media/acme/2019/03/school-front.jpg" alt="Front" width="300"/></p>`, nil},
		{"a missing image keeps its URL and is reported once", `<img src="` + up + `2015/01/old-badge.gif"> and again <img src="` + up + `2015/01/old-badge.gif" alt="x">`,
			`<p><img src="` + up + `2015/01/old-badge.gif"/> and again <img src="` + up + `2015/01/old-badge.gif" alt="x"/></p>`, []string{"missing-media " + up + "2015/01/old-badge.gif"}},
		{"a lazy-loaded image", `<img src="data:image/gif;base64,R0lGOD" data-src="` + up + `2019/03/school-front.jpg">`, `<p><img src="/media/acme/2019/03/school-front.jpg" data-src="` + up + `2019/03/school-front.jpg"/></p>`, nil},

		// hostile content passes to the sanitiser, which the caller runs
		{"script and handlers are the sanitiser's", `Hi<script>alert(1)</script><img src="` + up + `2008/06/canola2.jpg" onerror="alert(1)">`,
			`<p>Hi<script>alert(1)</script><img src="/media/acme/2008/06/canola2.jpg" onerror="alert(1)"/></p>`, nil},

		// empty content
		{"empty", "", "", []string{"empty"}},
		{"only spaces and a spacer paragraph", "  \n<p>&nbsp;</p>\n ", "", []string{"empty"}},
		{"only a script", "<script>alert(1)</script>", "<p><script>alert(1)</script></p>", []string{"empty"}},
		{"only a dynamic block", "<!-- wp:latest-posts /-->", "", []string{"block latest-posts", "empty"}},
		{"only an image is not empty", `<img src="` + up + `2008/06/canola2.jpg">`, `<p><img src="/media/acme/2008/06/canola2.jpg"/></p>`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, fs := testConvert(nil).HTML(tc.in)
			if squash(got) != tc.want {
				t.Errorf("HTML(%q)\n got %s\nwant %s", tc.in, squash(got), tc.want)
			}
			if k := kinds(fs); !reflect.DeepEqual(k, tc.findings) {
				t.Errorf("findings = %q, want %q (%+v)", k, tc.findings, fs)
			}
		})
	}
}

func TestHTMLAsksImageOncePerURL(t *testing.T) {
	calls := map[string]int{}
	u := oldSite + "/wp-content/uploads/2008/06/canola2.jpg"
	_, _ = testConvert(calls).HTML(`<img src="` + u + `"><img src="` + u + `"><img src="/x.png">`)
	if !reflect.DeepEqual(calls, map[string]int{u: 1, "/x.png": 1}) {
		t.Errorf("Image calls = %v", calls)
	}
}

func TestHTMLNilFunctions(t *testing.T) {
	got, fs := Convert{}.HTML(`<a href="https://riverside.example.org/x">x</a> <img src="https://riverside.example.org/y.jpg"> [gallery ids="1"]`)
	want := `<p><a href="https://riverside.example.org/x">x</a><img src="https://riverside.example.org/y.jpg"/></p>`
	if squash(got) != want {
		t.Errorf("got %s, want %s", squash(got), want)
	}
	if k := kinds(fs); !reflect.DeepEqual(k, []string{"gallery gallery", "missing-media attachment 1"}) {
		t.Errorf("findings = %q", k)
	}
}

func TestFindingDetails(t *testing.T) {
	_, fs := testConvert(nil).HTML(`[contact-form-7 id="5" title="Admissions enquiry"] and [contact-form-7 id="6"] <!-- wp:block {"ref":42} /-->`)
	if len(fs) != 2 {
		t.Fatalf("findings = %+v", fs)
	}
	if fs[0].Kind == KindBlock {
		fs[0], fs[1] = fs[1], fs[0]
	}
	if f := fs[0]; f.Kind != KindShortcode || f.Name != "contact-form-7" || f.Count != 2 || f.Detail != `[contact-form-7 id="5" title="Admissions enquiry"]` {
		t.Errorf("shortcode finding = %+v", f)
	}
	if f := fs[1]; f.Kind != KindBlock || !strings.Contains(f.Detail, "42") {
		t.Errorf("block finding = %+v", f)
	}
}

// TestConvertSmall converts every published page and post of small.xml and sanitises it as the
// writer does: what each reports, and that nothing hostile survives the two.
func TestConvertSmall(t *testing.T) {
	f, err := os.Open("testdata/small.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[int][]string{}
	html := map[int]string{}
	err = Read(f, func(Site) error { return nil }, func(it Item) error {
		if (it.Type == "page" || it.Type == "post") && it.Status == "publish" && it.Password == "" {
			out, fs := testConvert(nil).HTML(it.Content)
			html[it.ID] = richtext.Sanitize(out)
			got[it.ID] = kinds(fs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{
		2:  nil,
		3:  {"missing-media " + oldSite + "/wp-content/uploads/2015/01/old-badge.gif"},
		4:  {"shortcode contact-form-7"},
		10: nil,
		11: {"block latest-posts", "embed https://www.youtube.com/watch?v=dQw4w9WgXcQ"},
		12: nil,
		13: {"empty"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings by post = %v, want %v", got, want)
	}
	for id, h := range html {
		for _, bad := range []string{"<script", "onerror", "alert(", "<iframe", "srcset", "wp:", "[caption", "[contact-form-7"} {
			if strings.Contains(h, bad) {
				t.Errorf("post %d has %q after conversion and sanitising: %s", id, bad, h)
			}
		}
	}
	for _, want := range []struct {
		id   int
		part string
	}{
		{2, `<a href="/about-us-history" rel="nofollow noopener noreferrer">history</a>`},
		{2, `<h2>Our values</h2>`},
		{3, `<img src="/media/acme/2019/03/school-front.jpg" alt="The school building in 1900" width="300" height="200"/>`},
		{3, `<a href="/about-us" rel="nofollow noopener noreferrer">About us</a>`},
		{10, `<figcaption>The Year 6 relay team</figcaption>`},
		{10, "Results by house:<br/>\nKingfisher 112<br/>\nHeron 98"},
		{10, `<a href="/notices/N11" rel="nofollow noopener noreferrer">spring concert</a>`},
		{11, `<figcaption>The choir&#39;s second song</figcaption>`},
		{11, `<img src="/media/acme/2024/03/concert-hall.jpg" alt="The town hall stage"/>`},
		{12, `<p>Reminder: school closes at 1pm on Friday.<br/>`},
	} {
		if !strings.Contains(html[want.id], want.part) {
			t.Errorf("post %d lacks %s:\n%s", want.id, want.part, html[want.id])
		}
	}
}

// TestHTMLHostileInput: pathological inputs convert without a panic and keep their text.
func TestHTMLHostileInput(t *testing.T) {
	cases := []struct {
		name string
		in   string
		keep string // a part the output must have
	}{
		{"a megabyte of opening brackets", strings.Repeat("[", 1<<20), strings.Repeat("[", 1000)},
		{"a megabyte of escaped-looking brackets", strings.Repeat("[[a]]", 200000), "[a][a]"},
		{"unclosed tags", strings.Repeat("[a ", 100000) + "tail", "tail"},
		{"unclosed shortcodes", strings.Repeat("[box]x", 100000), "xxxx"},
		{"deep nesting", nest(20000) + "core" + unnest(20000), "core"},
		{"many closers", strings.Repeat("[/box]", 100000) + "end", "end"},
		{"block comments without end", strings.Repeat("<!-- wp:paragraph ", 50000) + "<p>text</p>", "text"},
		{"unbalanced blocks", strings.Repeat("<!-- wp:group --><div>", 20000) + "deep" + strings.Repeat("<!-- /wp:paragraph -->", 20000), "deep"},
		{"brackets in attributes", `[caption caption="a [b] c"]<img src="/x.jpg">[/caption] ok`, "ok"},
		{"a tag left open", "<a href=\"/x\n" + strings.Repeat("y", 100000), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := testConvert(nil).HTML(tc.in)
			if !strings.Contains(out, tc.keep) {
				t.Errorf("output (%d bytes) lacks %q", len(out), tc.keep)
			}
		})
	}
}

func nest(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("[n" + strconv.Itoa(i) + "]")
	}
	return b.String()
}

func unnest(n int) string {
	var b strings.Builder
	for i := n - 1; i >= 0; i-- {
		b.WriteString("[/n" + strconv.Itoa(i) + "]")
	}
	return b.String()
}

// FuzzHTML: no input makes the conversion panic.
func FuzzHTML(f *testing.F) {
	for _, s := range []string{"a\n\nb", "[caption]<img src=x> c[/caption]", "<!-- wp:embed {\"url\":\"https://x\"} --><figure>https://x</figure><!-- /wp:embed -->",
		"[[x]]", "[gallery ids=\"1,2\"]", "<pre>a\n\nb</pre>", "https://x.example/\n", "<!-- wp:x /-->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = testConvert(nil).HTML(s)
	})
}
