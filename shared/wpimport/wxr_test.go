package wpimport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// readAll reads an export into its site and items, failing the test on an error.
func readAll(t *testing.T, r io.Reader) (Site, []Item) {
	t.Helper()
	site, items, err := tryRead(r)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return site, items
}

func tryRead(r io.Reader) (Site, []Item, error) {
	var site Site
	var items []Item
	sites := 0
	err := Read(r, func(s Site) error {
		sites++
		if len(items) > 0 {
			return errors.New("site called after an item")
		}
		site = s
		return nil
	}, func(it Item) error {
		if sites != 1 {
			return fmt.Errorf("item before site (site called %d times)", sites)
		}
		items = append(items, it)
		return nil
	})
	if err == nil && sites != 1 {
		err = fmt.Errorf("site called %d times", sites)
	}
	return site, items, err
}

func openFixture(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func byID(items []Item) map[int]Item {
	m := map[int]Item{}
	for _, it := range items {
		m[it.ID] = it
	}
	return m
}

// TestReadSmall checks the fixture's contents as its header comment documents them.
func TestReadSmall(t *testing.T) {
	site, items := readAll(t, openFixture(t, "small.xml"))
	want := Site{
		Title: "Riverside Primary School", Link: "https://riverside.example.org",
		BaseSiteURL: "https://riverside.example.org", BaseBlogURL: "https://riverside.example.org",
		Language: "en-GB", WXRVersion: "1.2",
		Menus:   map[string]string{"main-menu": "Main menu", "footer-menu": "Footer"},
		Authors: 1,
	}
	if !reflect.DeepEqual(site, want) {
		t.Errorf("site = %+v, want %+v", site, want)
	}
	if len(items) != 22 {
		t.Fatalf("%d items, want 22", len(items))
	}
	counts := map[string]int{}
	comments := 0
	for _, it := range items {
		counts[it.Type+" "+it.Status]++
		comments += it.Comments
	}
	wantCounts := map[string]int{
		"page publish": 4, "page draft": 1, "page private": 1, "page trash": 1,
		"post publish": 4, "attachment inherit": 3, "nav_menu_item publish": 8,
	}
	if !reflect.DeepEqual(counts, wantCounts) {
		t.Errorf("counts = %v, want %v", counts, wantCounts)
	}
	if comments != 1 {
		t.Errorf("%d comments, want 1", comments)
	}
	var ids []int
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	wantIDs := []int{2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 20, 21, 22, 30, 31, 32, 33, 34, 35, 36, 37}
	if !reflect.DeepEqual(ids, wantIDs) {
		t.Errorf("ids in file order = %v, want %v", ids, wantIDs)
	}
}

func TestReadItemFields(t *testing.T) {
	_, items := readAll(t, openFixture(t, "small.xml"))
	m := byID(items)
	utc := func(s string) time.Time {
		d, err := time.Parse(time.DateTime, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	t.Run("page with Yoast", func(t *testing.T) {
		p := m[2]
		if p.Type != "page" || p.Status != "publish" || p.Title != "About us" || p.Slug != "about-us" ||
			p.Link != "https://riverside.example.org/about-us/" || p.Parent != 0 || p.MenuOrder != 1 {
			t.Errorf("page 2 = %+v", p)
		}
		if p.Excerpt != "A community school for children aged 4 to 11." {
			t.Errorf("excerpt = %q", p.Excerpt)
		}
		if !strings.HasPrefix(p.Content, "Riverside Primary is a community school") || !strings.Contains(p.Content, "\n\nWe have <strong>") {
			t.Errorf("content = %q", p.Content)
		}
		if p.Meta["_yoast_wpseo_title"] != "About Riverside Primary School" || p.Meta["_thumbnail_id"] != "21" ||
			p.Meta["_yoast_wpseo_metadesc"] == "" {
			t.Errorf("meta = %v", p.Meta)
		}
		if !p.Date.Equal(utc("2023-09-01 09:00:00")) {
			t.Errorf("date = %v, want the GMT date", p.Date)
		}
	})
	t.Run("child page", func(t *testing.T) {
		if p := m[3]; p.Parent != 2 || p.Slug != "history" {
			t.Errorf("page 3 = %+v", p)
		}
	})
	t.Run("page with Rank Math", func(t *testing.T) {
		p := m[4]
		if p.Meta["rank_math_title"] != "Admissions %sep% %sitename%" || p.Meta["rank_math_description"] == "" {
			t.Errorf("meta = %v", p.Meta)
		}
	})
	t.Run("draft dates from post_date", func(t *testing.T) {
		p := m[5]
		if p.Status != "draft" || !p.Date.Equal(utc("2024-09-01 09:00:00")) || p.Date.Location() != time.UTC {
			t.Errorf("draft = %+v", p)
		}
	})
	t.Run("password", func(t *testing.T) {
		if p := m[7]; p.Password != "governors2024" || p.Status != "publish" {
			t.Errorf("page 7 = %+v", p)
		}
		if p := m[2]; p.Password != "" {
			t.Errorf("page 2 password = %q", p.Password)
		}
	})
	t.Run("post terms, comment, featured image", func(t *testing.T) {
		p := m[10]
		wantTerms := []Term{{"category", "news", "News"}, {"post_tag", "sports", "Sports"}}
		if !reflect.DeepEqual(p.Terms, wantTerms) {
			t.Errorf("terms = %v, want %v", p.Terms, wantTerms)
		}
		if p.Comments != 1 || p.Meta["_thumbnail_id"] != "20" {
			t.Errorf("post 10 = %+v", p)
		}
		if _, ok := p.Meta["akismet_result"]; ok {
			t.Errorf("a comment's meta was read as the post's: %v", p.Meta)
		}
		if !p.Date.Equal(utc("2024-06-14 15:30:00")) {
			t.Errorf("date = %v", p.Date)
		}
	})
	t.Run("no title, no content", func(t *testing.T) {
		if p := m[12]; p.Title != "" || p.Slug != "12" || !strings.Contains(p.Content, "<script>alert(1)</script>") {
			t.Errorf("post 12 = %+v", p)
		}
		if p := m[13]; p.Content != "" || p.Title != "Term dates" {
			t.Errorf("post 13 = %+v", p)
		}
	})
	t.Run("attachment", func(t *testing.T) {
		a := m[20]
		if a.AttachmentURL != "https://riverside.example.org/wp-content/uploads/2008/06/canola2.jpg" || a.Parent != 10 ||
			a.Meta["_wp_attached_file"] != "2008/06/canola2.jpg" || a.Meta["_wp_attachment_image_alt"] != "Children running the relay" ||
			a.Excerpt != "The Year 6 relay team" {
			t.Errorf("attachment 20 = %+v", a)
		}
	})
	t.Run("menu item", func(t *testing.T) {
		it := m[33]
		if it.Title != "School archive" || it.MenuOrder != 4 || it.Meta["_menu_item_menu_item_parent"] != "32" ||
			it.Meta["_menu_item_url"] != "https://archive.example.com/riverside" || it.Meta["_menu_item_type"] != "custom" {
			t.Errorf("menu item 33 = %+v", it)
		}
		if want := []Term{{"nav_menu", "main-menu", "Main menu"}}; !reflect.DeepEqual(it.Terms, want) {
			t.Errorf("terms = %v", it.Terms)
		}
	})
}

// TestReadOlderVersions reads WXR 1.0 (its own namespace URIs) and an export whose prefixes were
// never declared.
func TestReadOlderVersions(t *testing.T) {
	for _, tc := range []struct{ name, rss string }{
		{"wxr 1.0", `<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.0/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.0/">`},
		{"wxr 1.1", `<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.1/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.1/">`},
		{"undeclared prefixes", `<rss version="2.0">`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.rss + `<channel><title>Old</title><wp:wxr_version>1.0</wp:wxr_version>
<item><title>Hello</title><content:encoded><![CDATA[<p>Body</p>]]></content:encoded><excerpt:encoded>Short</excerpt:encoded>
<wp:post_id>7</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_date>2009-01-02 03:04:05</wp:post_date></item>
</channel></rss>`
			site, items := readAll(t, strings.NewReader(doc))
			if site.WXRVersion != "1.0" || site.Title != "Old" {
				t.Errorf("site = %+v", site)
			}
			if len(items) != 1 {
				t.Fatalf("items = %+v", items)
			}
			it := items[0]
			if it.ID != 7 || it.Content != "<p>Body</p>" || it.Excerpt != "Short" || it.Type != "post" ||
				!it.Date.Equal(time.Date(2009, 1, 2, 3, 4, 5, 0, time.UTC)) {
				t.Errorf("item = %+v", it)
			}
		})
	}
}

// TestReadHandEdited reads an export whose one-word elements were spread over lines.
func TestReadHandEdited(t *testing.T) {
	site, items := readAll(t, strings.NewReader(`<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel>
<link>
  https://example.org
</link>
<wp:wxr_version> 1.2 </wp:wxr_version>
<item><title> Spaced title </title>
  <wp:post_id>
    5
  </wp:post_id>
  <wp:post_type>
    page
  </wp:post_type>
  <wp:status> publish </wp:status>
  <wp:post_name> about </wp:post_name>
  <wp:postmeta><wp:meta_key> _thumbnail_id </wp:meta_key><wp:meta_value> 7 </wp:meta_value></wp:postmeta>
</item></channel></rss>`))
	if site.Link != "https://example.org" || site.WXRVersion != "1.2" {
		t.Errorf("site = %+v", site)
	}
	it := items[0]
	if it.ID != 5 || it.Type != "page" || it.Status != "publish" || it.Slug != "about" || it.Meta["_thumbnail_id"] != " 7 " {
		t.Errorf("item = %+v", it)
	}
	if it.Title != " Spaced title " {
		t.Errorf("title = %q, want it as written (text is the writer's to trim)", it.Title)
	}
}

func TestReadNoItems(t *testing.T) {
	site, items := readAll(t, strings.NewReader(`<?xml version="1.0"?>
<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Empty</title><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_login>a</wp:author_login></wp:author><wp:author><wp:author_login>b</wp:author_login></wp:author></channel></rss>`))
	if site.Title != "Empty" || site.Authors != 2 || len(items) != 0 {
		t.Errorf("site = %+v, items = %v", site, items)
	}
}

func TestReadCallbackErrorStops(t *testing.T) {
	stop := errors.New("stop here")
	n := 0
	err := Read(openFixture(t, "small.xml"), func(Site) error { return nil }, func(Item) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("err = %v after %d items, want the callback's error after 3", err, n)
	}
	siteErr := errors.New("not this site")
	err = Read(openFixture(t, "small.xml"), func(Site) error { return siteErr }, func(Item) error {
		t.Error("item called after site failed")
		return nil
	})
	if err != siteErr {
		t.Errorf("err = %v, want the site callback's", err)
	}
}

// TestReadStreams feeds the export through a pipe that holds back the second item until the
// first has reached the callback: a reader that loaded the whole file first would never get it.
func TestReadStreams(t *testing.T) {
	head := `<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
<item><wp:post_id>1</wp:post_id></item>`
	tail := `<item><wp:post_id>2</wp:post_id></item></channel></rss>`
	pr, pw := io.Pipe()
	first := make(chan struct{})
	go func() {
		_, _ = io.WriteString(pw, head+strings.Repeat(" ", 8192)) // more than the decoder's buffer
		select {
		case <-first:
			_, _ = io.WriteString(pw, tail)
			pw.Close()
		case <-time.After(20 * time.Second):
			pw.CloseWithError(errors.New("the first item never reached the callback before the file's end"))
		}
	}()
	var got []int
	err := Read(pr, func(Site) error { return nil }, func(it Item) error {
		got = append(got, it.ID)
		if it.ID == 1 {
			close(first)
		}
		return nil
	})
	if err != nil || !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("err = %v, items = %v", err, got)
	}
}

func TestReadLatin1(t *testing.T) {
	doc := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rss xmlns:wp=\"http://wordpress.org/export/1.2/\"><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>Caf\xe9 na\xefve</title></item></channel></rss>")
	_, items := readAll(t, bytes.NewReader(doc))
	if len(items) != 1 || items[0].Title != "Café naïve" {
		t.Errorf("items = %+v", items)
	}
}

// TestReadManyComments reads an item whose comments add up to more than any one element may
// hold: the limits are per element and per item's kept text, not per item's bytes.
func TestReadManyComments(t *testing.T) {
	comment := "<wp:comment><wp:comment_content><![CDATA[" + strings.Repeat("Lovely! ", 250) + "]]></wp:comment_content></wp:comment>\n"
	doc := `<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version><item><wp:post_id>1</wp:post_id>` +
		strings.Repeat(comment, 5000) + `</item></channel></rss>`
	if len(doc) < 2*maxText {
		t.Fatalf("the export is only %d bytes", len(doc))
	}
	_, items := readAll(t, strings.NewReader(doc))
	if len(items) != 1 || items[0].Comments != 5000 {
		t.Errorf("items = %d, comments = %d", len(items), items[0].Comments)
	}
}

func TestReadErrors(t *testing.T) {
	small, err := os.ReadFile("testdata/small.xml")
	if err != nil {
		t.Fatal(err)
	}
	notWXR, err := os.ReadFile("testdata/notwxr.html")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	const open = `<rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><wp:wxr_version>1.2</wp:wxr_version>`
	meta := func(n int) string {
		return "<wp:postmeta><wp:meta_key>k" + fmt.Sprint(n) + "</wp:meta_key><wp:meta_value><![CDATA[" + strings.Repeat("x", 3<<20) + "]]></wp:meta_value></wp:postmeta>"
	}
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"a web page", notWXR, "this file is not a WordPress export (WXR): it is a web page (HTML)"},
		{"html without a doctype", []byte("<html><body><p>Hello</p></body></html>"), "it is a web page (HTML)"},
		{"json", []byte(`{"posts": [{"title": "Hello"}]}`), "it does not start with XML"},
		{"csv", []byte("id,title\n1,Hello\n"), "it does not start with XML"},
		{"random bytes", random, "this file is not a WordPress export (WXR): "},
		{"empty file", nil, "it has no <rss> element"},
		{"another XML document", []byte(`<?xml version="1.0"?><urlset><url/></urlset>`), "it starts with <urlset>"},
		{"rss without channel", []byte(`<rss></rss>`), "has no <channel>"},
		{"truncated in an item", small[:len(small)/2], "is the file complete?"},
		{"truncated after the channel opens", small[:bytes.Index(small, []byte("<item>"))], "is the file complete?"},
		{"an RSS feed", []byte(`<rss><channel><title>Blog</title><item><title>Post</title></item></channel></rss>`), "it is an RSS feed without WordPress's export data"},
		{"an RSS feed without items", []byte(`<rss><channel><title>Blog</title></channel></rss>`), "it is an RSS feed"},
		{"entity expansion", []byte(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><rss><channel>&lol2;</channel></rss>`), "line 1: it declares a DOCTYPE"},
		{"an undeclared entity", []byte(open + "\n<item><title>&lol;</title></item></channel></rss>"), "the XML is broken at line 2: invalid character entity &lol;"},
		{"broken XML names its line", []byte(open + "\n<item>\n<title>A</titel>\n</item></channel></rss>"), "the XML is broken at line 3"},
		{"an element too large", []byte(open + "<item><content:encoded><![CDATA[" + strings.Repeat("<p>x</p>", (maxText/8)+1) + "]]></content:encoded></item></channel></rss>"), "an element's text is larger than 4 MB"},
		{"an element beyond the read guard", []byte(open + "<item><content:encoded><![CDATA[" + strings.Repeat("x", 3*maxText) + "]]></content:encoded></item></channel></rss>"), "an element's text is larger than 4 MB"},
		{"an item too large", []byte(open + "<item><wp:post_id>9</wp:post_id>" + meta(1) + meta(2) + meta(3) + meta(4) + meta(5) + meta(6) + "</item></channel></rss>"), "item 1 (post id 9): it holds more than 16 MB of text"},
		{"another character set", []byte(`<?xml version="1.0" encoding="windows-1250"?><rss></rss>`), `it is written in the character set "windows-1250"`},
		{"a post id that is no number", []byte(open + "<item><wp:post_id>12</wp:post_id></item><item><wp:post_id>abc</wp:post_id></item></channel></rss>"), `item 2: line 1: "abc" is not a number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := tryRead(bytes.NewReader(tc.in))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !errors.Is(err, ErrNotWXR) {
				t.Errorf("error %q does not wrap ErrNotWXR", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// FuzzRead: no input makes the reader panic, and every failure it reports is ErrNotWXR's.
func FuzzRead(f *testing.F) {
	small, err := os.ReadFile("testdata/small.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	f.Add(small[:len(small)/3])
	f.Add([]byte(`<rss><channel><wp:wxr_version>1.2</wp:wxr_version><item><wp:post_id>1</wp:post_id></item></channel></rss>`))
	f.Add([]byte(`<!DOCTYPE x [<!ENTITY a "b">]><rss/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, err := tryRead(bytes.NewReader(data))
		if err != nil && !errors.Is(err, ErrNotWXR) && !strings.Contains(err.Error(), "site called") {
			t.Errorf("error %q does not wrap ErrNotWXR", err)
		}
	})
}
