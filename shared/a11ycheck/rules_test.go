package a11ycheck_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/collections"
)

// fakeResolver answers lookups from maps, counting the calls.
type fakeResolver struct {
	media       map[string]a11ycheck.Media
	pages       map[string]bool
	mediaCalls  int
	pagesCalls  int
	askedSlugs  []string
	askedImages []string
}

func (f *fakeResolver) Media(_ context.Context, refs []string) (map[string]a11ycheck.Media, error) {
	f.mediaCalls++
	f.askedImages = append(f.askedImages, refs...)
	out := map[string]a11ycheck.Media{}
	for _, r := range refs {
		if m, ok := f.media[r]; ok {
			out[r] = m
		}
	}
	return out, nil
}

func (f *fakeResolver) Pages(_ context.Context, slugs []string) (map[string]bool, error) {
	f.pagesCalls++
	f.askedSlugs = append(f.askedSlugs, slugs...)
	out := map[string]bool{}
	for _, s := range slugs {
		if p, ok := f.pages[s]; ok {
			out[s] = p
		}
	}
	return out, nil
}

const (
	imgNoAlt  = "01HZZZZZZZZZZZZZZZZZZZZZZ1/photo.jpg"
	imgAlt    = "01HZZZZZZZZZZZZZZZZZZZZZZ2/campus.jpg"
	imgDecor  = "01HZZZZZZZZZZZZZZZZZZZZZZ3/swirl.png"
	imgAbsent = "01HZZZZZZZZZZZZZZZZZZZZZZ4/gone.jpg"
)

func resolver() *fakeResolver {
	return &fakeResolver{
		media: map[string]a11ycheck.Media{imgNoAlt: {}, imgAlt: {AltText: "Students on the lawn"}, imgDecor: {Decorative: true}},
		pages: map[string]bool{"admissions": true, "draft-page": false},
	}
}

func reg(t testing.TB) collections.Registry {
	t.Helper()
	r, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func check(t testing.TB, kind string, values map[string]any) []a11ycheck.Finding {
	t.Helper()
	fs, err := a11ycheck.Check(context.Background(), a11ycheck.FromValues(reg(t)[kind], values), resolver())
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func rules(fs []a11ycheck.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

// TestRules: each rule, with content that passes it and content that fails it, in a page's
// rich text, its sections (nested: a section's items) and other kinds' fields.
func TestRules(t *testing.T) {
	t.Parallel()
	section := func(s map[string]any) map[string]any {
		out := map[string]any{"title": "Section", "pageSectionTypeId": "2", "status": true}
		for k, v := range s {
			out[k] = v
		}
		return out
	}
	cases := []struct {
		name   string
		kind   string
		values map[string]any
		want   []string
		field  string // the first finding's field, when want is not empty
	}{
		{"image with alt text in the library", "pages", map[string]any{"image": imgAlt}, nil, ""},
		{"decorative image", "pages", map[string]any{"image": imgDecor}, nil, ""},
		{"image without alt text", "pages", map[string]any{"image": imgNoAlt}, []string{"img-alt"}, "image"},
		{"image no longer in the library", "pages", map[string]any{"image": imgAbsent}, nil, ""},
		{"sharing image is not shown", "pages", map[string]any{"ogImage": imgNoAlt}, nil, ""},
		{"photo with its own caption", "photos", map[string]any{"image": imgNoAlt, "caption": "The new library"}, nil, ""},
		{"photo without caption", "photos", map[string]any{"image": imgNoAlt}, []string{"img-alt"}, "image"},
		{"rich-text image with alt", "pages", map[string]any{"content": `<p><img src="/x.png" alt="A map"></p>`}, nil, ""},
		{"rich-text image with empty alt (decorative)", "pages", map[string]any{"content": `<p><img src="/x.png" alt=""></p>`}, nil, ""},
		{"rich-text image without alt", "pages", map[string]any{"content": `<p>Look: <img src="/x.png"></p>`}, []string{"img-alt"}, "content"},
		{"headings in order", "pages", map[string]any{"content": "<h2>A</h2><h3>B</h3><h2>C</h2><h3>D</h3><h4>E</h4>"}, nil, ""},
		{"heading skips a level", "pages", map[string]any{"content": "<h2>A</h2><h5>B</h5>"}, []string{"heading-order"}, "content"},
		{"content starts at heading 3", "pages", map[string]any{"content": "<h3>A</h3>"}, []string{"heading-order"}, "content"},
		{"h1 in content", "pages", map[string]any{"content": "<h1>Title again</h1><h2>B</h2>"}, []string{"heading-h1"}, "content"},
		{"descriptive link", "pages", map[string]any{"content": `<a href="https://example.org/cal">Admissions calendar</a>`}, nil, ""},
		{"click here", "pages", map[string]any{"content": `<p>For dates <a href="https://example.org/cal">click here</a>.</p>`}, []string{"link-text"}, "content"},
		{"read more, any case and punctuation", "notices", map[string]any{"content": `<a href="https://example.org/x">Read more…</a>`}, []string{"link-text"}, "content"},
		{"french ici", "pages", map[string]any{"content": `<a href="https://example.org/x">ici</a>`}, []string{"link-text"}, "content"},
		{"spanish aquí", "pages", map[string]any{"content": `<a href="https://example.org/x">Aquí</a>`}, []string{"link-text"}, "content"},
		{"bare url", "pages", map[string]any{"content": `<a href="https://example.org/x">https://example.org/x</a>`}, []string{"link-text"}, "content"},
		{"empty link", "pages", map[string]any{"content": `<a href="https://example.org/x"></a>`}, []string{"empty-link"}, "content"},
		{"link holding an image with alt", "pages", map[string]any{"content": `<a href="https://example.org/x"><img src="/i.png" alt="Our prospectus"></a>`}, nil, ""},
		{"link holding an image without alt", "pages", map[string]any{"content": `<a href="https://example.org/x"><img src="/i.png"></a>`}, []string{"img-alt", "empty-link"}, "content"},
		{"empty button", "pages", map[string]any{"content": `<button></button>`}, []string{"empty-link"}, "content"},
		{"table with header", "pages", map[string]any{"content": "<table><tr><th>Day</th></tr><tr><td>Mon</td></tr></table>"}, nil, ""},
		{"table without header", "pages", map[string]any{"content": "<table><tr><td>Day</td></tr><tr><td>Mon</td></tr></table>"}, []string{"table-header"}, "content"},
		{"document with a note", "pages", map[string]any{"content": `<p><a href="/media/t/x/guide.pdf">Parent guide (PDF)</a>. This PDF may not be fully accessible: ask us for another format.</p>`}, nil, ""},
		{"document without a note", "pages", map[string]any{"content": `<p><a href="https://example.org/guide.docx?v=2">Parent guide</a></p>`}, []string{"document-link"}, "content"},
		{"link to a published page", "pages", map[string]any{"content": `<a href="/admissions">Admissions</a>`}, nil, ""},
		{"link to a missing page", "pages", map[string]any{"content": `<a href="/no-such-page#x">Old page</a>`}, []string{"broken-link"}, "content"},
		{"link to an unpublished page", "pages", map[string]any{"content": `<a href="/draft-page">Draft</a>`}, []string{"broken-link"}, "content"},
		{"link to the website's own lists", "pages", map[string]any{"content": `<a href="/events">Events</a> <a href="/">Home</a>`}, nil, ""},
		{"section colours readable", "pages", map[string]any{"pageSections": []any{section(map[string]any{"backgroundColor": "#003366", "fontColor": "#ffffff", "subTitle": "Hi"})}}, nil, ""},
		{"section colours unreadable", "pages", map[string]any{"pageSections": []any{section(map[string]any{"backgroundColor": "#eeeeee", "fontColor": "#ffffff", "subTitle": "Hi"})}}, []string{"contrast"}, "sections[0].fontColor"},
		{"large title only passes at 3:1", "pages", map[string]any{"pageSections": []any{section(map[string]any{"backgroundColor": "#ffffff", "fontColor": "#888888"})}}, nil, ""},
		{"body text fails at 3.5:1", "pages", map[string]any{"pageSections": []any{section(map[string]any{"backgroundColor": "#ffffff", "fontColor": "#888888", "subTitle": "Small text"})}}, []string{"contrast"}, "sections[0].fontColor"},
		{"footer colours", "footer", map[string]any{"textColor": "#ffff00", "backgroundColor": "#ffffff"}, []string{"contrast"}, "textColor"},
		{"nested: a section item's image", "pages", map[string]any{"pageSections": []any{section(nil), section(map[string]any{"config": []any{map[string]any{"image": imgAlt}, map[string]any{"image": imgNoAlt, "title": "Card"}}})}}, []string{"img-alt"}, "sections[1].config[1].image"},
		{"nested: config as JSON text", "pages", map[string]any{"pageSections": []any{section(map[string]any{"config": `[{"image":"` + imgNoAlt + `"}]`})}}, []string{"img-alt"}, "sections[0].config[0].image"},
		{"nested: a section button's text", "pages", map[string]any{"pageSections": []any{section(map[string]any{"config": []any{map[string]any{"ctaText": "Click here", "ctaUrl": "https://example.org"}}})}}, []string{"link-text"}, "sections[0].config[0].ctaText"},
		{"nested: a section button to a missing page", "pages", map[string]any{"pageSections": []any{section(map[string]any{"config": []any{map[string]any{"ctaText": "Apply now", "ctaUrl": "/apply"}}})}}, []string{"broken-link"}, "sections[0].config[0].ctaUrl"},
		{"a section turned off is not shown", "pages", map[string]any{"pageSections": []any{section(map[string]any{"status": false, "config": []any{map[string]any{"image": imgNoAlt}}})}}, nil, ""},
		{"slider link to a document", "sliders", map[string]any{"ctaUrl": "https://example.org/prospectus.pdf"}, []string{"document-link"}, "ctaUrl"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := check(t, tc.kind, tc.values)
			if got := rules(fs); fmt.Sprint(got) != fmt.Sprint(append([]string{}, tc.want...)) {
				t.Fatalf("rules %v, want %v (%+v)", got, tc.want, fs)
			}
			if len(fs) > 0 {
				f := fs[0]
				if f.Field != tc.field {
					t.Fatalf("field %q, want %q", f.Field, tc.field)
				}
				if f.Message == "" || f.Severity != a11ycheck.Severity(f.Rule) {
					t.Fatalf("finding %+v: no message or the wrong severity", f)
				}
				if strings.HasPrefix(f.Field, "sections[") && (f.Section == nil || !strings.HasPrefix(f.Field, fmt.Sprintf("sections[%d]", *f.Section))) {
					t.Fatalf("finding %+v: its section index does not match its field", f)
				}
			}
		})
	}
}

// TestFindingsSayWhere: a finding in rich text quotes the text around it.
func TestFindingsSayWhere(t *testing.T) {
	t.Parallel()
	fs := check(t, "pages", map[string]any{"content": `<p>Term dates are out. For the full list <a href="https://example.org">click here</a> and plan ahead.</p>`})
	if len(fs) != 1 || !strings.Contains(fs[0].Context, "For the full list") || !strings.Contains(fs[0].Context, "click here") {
		t.Fatalf("findings %+v: want the text around the link", fs)
	}
	if a11ycheck.Severity("link-text") != a11ycheck.Warning || a11ycheck.Severity("img-alt") != a11ycheck.Error {
		t.Fatal("severities")
	}
}

// TestHostileHTML: malformed, deeply nested, huge and scripted HTML neither panics nor hangs,
// and the checker never changes what it reads.
func TestHostileHTML(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`<a href="/x"><a href="/y">`,
		`</a></h2></table><h9>x</h9>`,
		`<h2><h5>nested</h2>`,
		strings.Repeat("<a href='https://e.org'>", 5000),
		strings.Repeat("<table>", 3000) + strings.Repeat("</table>", 10),
		`<img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)">here</a>`,
		`<a href="` + strings.Repeat("/", 10000) + `">x</a>`,
		"<a href=\"/\x00\xff\xfe\">\xff\xfe</a>",
		`<svg><a href="/x"><text>here</text></a></svg>`,
		strings.Repeat("<p>é", 200000),
	}
	for i, in := range inputs {
		values := map[string]any{"content": in}
		start := time.Now()
		fs, err := a11ycheck.Check(context.Background(), a11ycheck.FromValues(reg(t)["pages"], values), resolver())
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		if values["content"] != in {
			t.Fatalf("input %d: the checker changed the content", i)
		}
		if len(fs) > a11ycheck.MaxFindings {
			t.Fatalf("input %d: %d findings, more than %d", i, len(fs), a11ycheck.MaxFindings)
		}
		_ = start
	}
	fs := check(t, "pages", map[string]any{"content": `<img src=x onerror=alert(1)><a href="javascript:alert(1)">here</a>`})
	if got := rules(fs); fmt.Sprint(got) != "[img-alt link-text]" {
		t.Fatalf("scripted HTML: rules %v", got)
	}
	// Values of the wrong shapes are skipped.
	fs = check(t, "pages", map[string]any{"content": 42, "image": []any{1}, "pageSections": "not json", "title": nil})
	if len(fs) != 0 {
		t.Fatalf("wrong shapes: %+v", fs)
	}
}

// TestLookupsAreBatched: every image and internal link of a 40-section page is looked up in one
// call each.
func TestLookupsAreBatched(t *testing.T) {
	t.Parallel()
	r := resolver()
	_, err := a11ycheck.Check(context.Background(), a11ycheck.FromValues(reg(t)["pages"], bigPage()), r)
	if err != nil {
		t.Fatal(err)
	}
	if r.mediaCalls != 1 || r.pagesCalls != 1 || len(r.askedSlugs) == 0 || len(r.askedImages) == 0 {
		t.Fatalf("media looked up %d times, pages %d times (%d slugs, %d images), want once each", r.mediaCalls, r.pagesCalls, len(r.askedSlugs), len(r.askedImages))
	}
}

// bigPage is a page of 40 sections, each with rich items, and long rich text.
func bigPage() map[string]any {
	var secs []any
	for i := range 40 {
		var items []any
		for j := range 8 {
			items = append(items, map[string]any{"image": fmt.Sprintf("01HZZZZZZZZZZZZZZZZZZZZ%03d/img%d.jpg", i*8+j, j), "title": "Card", "description": strings.Repeat("Words of a card. ", 20),
				"ctaText": "Read more", "ctaUrl": fmt.Sprintf("/page-%d", j)})
		}
		secs = append(secs, map[string]any{"title": fmt.Sprintf("Section %d", i), "subTitle": "Sub", "backgroundColor": "#eeeeee", "fontColor": "#777777",
			"pageSectionTypeId": "2", "status": true, "config": items})
	}
	content := strings.Repeat(`<h2>Part</h2><p>Some text with <a href="/admissions">a link</a>, <a href="https://example.org/a.pdf">a PDF</a> and <img src="/x.png">.</p><table><tr><td>x</td></tr></table>`, 200)
	return map[string]any{"title": "Big", "content": content, "image": imgNoAlt, "pageSections": secs}
}

// BenchmarkCheck40Sections: the checker on a page of 40 sections of 8 items each and 200
// paragraphs of rich text (lookups answered from memory: the table's two batch reads are not
// the checker's cost). Goal: under 300 ms.
func BenchmarkCheck40Sections(b *testing.B) {
	doc := a11ycheck.FromValues(reg(b)["pages"], bigPage())
	r := resolver()
	b.ResetTimer()
	start := time.Now()
	n := 0
	for b.Loop() {
		if _, err := a11ycheck.Check(context.Background(), doc, r); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(n), "ms/page")
	b.Logf("a 40-section page checked in %.2f ms (goal: under 300 ms)", float64(time.Since(start).Microseconds())/1000/float64(n))
}
