package website_test

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

// atomFeed is what a feed reader reads of an Atom 1.0 feed (RFC 4287).
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  string      `xml:"author>name"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	ID        string     `xml:"id"`
	Title     string     `xml:"title"`
	Updated   string     `xml:"updated"`
	Published string     `xml:"published"`
	Links     []atomLink `xml:"link"`
	Summary   string     `xml:"summary"`
	Content   struct {
		Type string `xml:"type,attr"`
		Body string `xml:",chardata"`
	} `xml:"content"`
}

func linkOf(links []atomLink, rel string) atomLink {
	for _, l := range links {
		if l.Rel == rel {
			return l
		}
	}
	return atomLink{}
}

// parseFeed reads the feed strictly with encoding/xml and checks what RFC 4287 requires of it:
// ids, titles and RFC 3339 updated times on the feed and every entry.
func parseFeed(t *testing.T, body string) atomFeed {
	t.Helper()
	var f atomFeed
	d := xml.NewDecoder(strings.NewReader(body))
	d.Strict = true
	if err := d.Decode(&f); err != nil {
		t.Fatalf("the feed is not XML: %v\n%.2000s", err, body)
	}
	times := []string{f.Updated}
	if f.ID == "" || f.Title == "" || f.Author == "" {
		t.Fatalf("feed id %q, title %q, author %q", f.ID, f.Title, f.Author)
	}
	for _, e := range f.Entries {
		if e.ID == "" || e.Title == "" || linkOf(e.Links, "alternate").Href == "" {
			t.Fatalf("entry %+v", e)
		}
		times = append(times, e.Updated, e.Published)
	}
	for _, at := range times {
		if _, err := time.Parse(time.RFC3339, at); err != nil {
			t.Fatalf("time %q: %v", at, err)
		}
	}
	return f
}

// TestNoticesFeed: /notices/feed.xml is an Atom feed that encoding/xml reads back: the latest 20
// live notices, newest first, every link absolute on the site's host, titles and messages read
// back exactly as typed (escaped on the way out), an article as sanitised HTML content with its
// links made absolute; nothing hidden, scheduled, expired or another tenant's; cached, no
// cookie; every page's <head> links it.
func TestNoticesFeed(t *testing.T) {
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	origin := "http://" + tn.ID + ".localhost:8080"
	for i := range 21 {
		staff(t, tn, "POST", "/notices", map[string]any{"title": fmt.Sprintf("Notice %02d", i), "message": "Message " + fmt.Sprint(i)})
	}
	for _, hidden := range []map[string]any{
		{"title": "Hidden notice", "message": "x", "status": false},
		{"title": "Not yet published", "message": "x", "publishAt": time.Now().Add(48 * time.Hour).Format(time.RFC3339)},
		{"title": "Expired notice", "message": "x", "publishAt": time.Now().Add(-48 * time.Hour).Format(time.RFC3339),
			"unpublishAt": time.Now().Add(-time.Hour).Format(time.RFC3339)},
	} {
		staff(t, tn, "POST", "/notices", hidden)
	}
	staff(t, other, "POST", "/notices", map[string]any{"title": "Other school's notice", "message": "x"})
	hostile := `Fees & "forms" <b>due</b> ]]> 'soon'`
	message := "Line one <script>alert(1)</script>\nLine two & more ]]> é"
	article := `<p>Read <a href="/about">about us</a> and <a href="https://example.org/x">this</a>.</p>` +
		`<img src="/media/` + tn.ID + `/01ARZ3NDEKTSV4RRFFQ69G5FAV/photo.png" alt="A photo"><script>alert(2)</script>`
	latest := staff(t, tn, "POST", "/notices", map[string]any{"title": hostile, "message": message, "content": article}).Get("result.id").(string)

	p := get(t, tn, "/notices/feed.xml")
	must(t, p, 200)
	if ct := p.header.Get("Content-Type"); ct != "application/atom+xml; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := p.header.Get("Cache-Control"); !strings.Contains(cc, "public") || p.header.Get("ETag") == "" {
		t.Errorf("cache headers: %q, ETag %q", cc, p.header.Get("ETag"))
	}
	if c := p.header.Get("Set-Cookie"); c != "" {
		t.Errorf("Set-Cookie %q", c)
	}
	if p.calls > 2 {
		t.Errorf("the feed took %d DynamoDB calls, want at most 2", p.calls)
	}
	f := parseFeed(t, p.body)
	if self := linkOf(f.Links, "self"); self.Href != origin+"/notices/feed.xml" || self.Type != "application/atom+xml" {
		t.Errorf("self link %+v", self)
	}
	if alt := linkOf(f.Links, "alternate"); alt.Href != origin+"/notices" {
		t.Errorf("alternate link %+v", alt)
	}
	if len(f.Entries) != 20 {
		t.Fatalf("%d entries, want 20", len(f.Entries))
	}
	for _, e := range f.Entries {
		for _, u := range []string{e.ID, linkOf(e.Links, "alternate").Href} {
			if parsed, err := url.Parse(u); err != nil || !parsed.IsAbs() || parsed.Host != tn.ID+".localhost:8080" {
				t.Errorf("entry address %q is not absolute on the site's host", u)
			}
		}
		for _, bad := range []string{"Hidden", "Not yet", "Expired", "Other school", "Notice 00", "Notice 01"} {
			if strings.Contains(e.Title, bad) {
				t.Errorf("the feed holds %q", e.Title)
			}
		}
	}
	first := f.Entries[0]
	if first.Title != hostile {
		t.Errorf("title read back as %q, want %q", first.Title, hostile)
	}
	if linkOf(first.Links, "alternate").Href != origin+"/notices/"+latest {
		t.Errorf("the newest notice is not first: %+v", first)
	}
	if first.Summary != message {
		t.Errorf("summary %q, want %q", first.Summary, message)
	}
	if first.Content.Type != "html" || !strings.Contains(first.Content.Body, `<a href="`+origin+`/about"`) ||
		!strings.Contains(first.Content.Body, `<a href="https://example.org/x"`) ||
		!strings.Contains(first.Content.Body, `src="`+origin+`/media/`+tn.ID+`/`) || strings.Contains(first.Content.Body, "<script") {
		t.Errorf("content %+v", first.Content)
	}
	if f.Entries[1].Title != "Notice 20" || f.Entries[19].Title != "Notice 02" {
		t.Errorf("entries in order %q … %q", f.Entries[1].Title, f.Entries[19].Title)
	}
	if f.Entries[1].Content.Body != "" {
		t.Errorf("a notice without an article has content %q", f.Entries[1].Content.Body)
	}
	if strings.Contains(p.body, "<script>") {
		t.Error("markup in the feed is not escaped")
	}

	// Every page's <head> names the feed for feed readers.
	link := `<link rel="alternate" type="application/atom+xml" title="`
	for _, path := range []string{"/", "/notices", "/notices/" + latest, "/events", "/missing-page"} {
		pg := get(t, tn, path)
		if i := strings.Index(pg.body, link); i < 0 || i > strings.Index(pg.body, "</head>") ||
			!strings.Contains(pg.body[i:], `href="`+origin+`/notices/feed.xml"`) {
			t.Errorf("%s: no feed link in <head>", path)
		}
	}
	must(t, get(t, tn, "/notices"), 200, `href="/notices/feed.xml"`)
	// Another tenant's feed is its own.
	if o := parseFeed(t, get(t, other, "/notices/feed.xml").body); len(o.Entries) != 1 || o.Entries[0].Title != "Other school's notice" {
		t.Errorf("the other tenant's feed: %+v", o.Entries)
	}
}
