package public_test

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// putPage creates a page through the panel API (POST /api/v1/tenant/pages).
func putPage(t *testing.T, tn testkit.Tenant, slug string, published, active, noIndex bool) {
	t.Helper()
	newPage(t, tn, map[string]any{"title": "Page " + slug, "slug": slug, "isPublished": published, "status": active, "noIndex": noIndex})
}

type sitemapDoc struct {
	XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []struct {
		Loc        string `xml:"loc"`
		LastMod    string `xml:"lastmod"`
		ChangeFreq string `xml:"changefreq"`
		Priority   string `xml:"priority"`
	} `xml:"url"`
}

var w3cDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$`)

// validSitemap checks a sitemap against the rules of the sitemaps.org 0.9 schema: the urlset in
// its namespace, at most 50,000 url elements, each with an absolute http(s) loc of at most 2,048
// characters, an optional W3C-datetime lastmod and an optional changefreq from the enumeration,
// in the schema's element order.
func validSitemap(t *testing.T, raw []byte) []string {
	t.Helper()
	if !strings.HasPrefix(string(raw), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Fatalf("no XML declaration: %.60s", raw)
	}
	var doc sitemapDoc
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("sitemap is not a sitemaps.org urlset: %v\n%s", err, raw)
	}
	if len(doc.URLs) > 50000 {
		t.Fatal("over 50,000 urls")
	}
	dec := xml.NewDecoder(strings.NewReader(string(raw)))
	order := map[string]int{"loc": 0, "lastmod": 1, "changefreq": 2, "priority": 3}
	last := -1
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch n := se.Name.Local; n {
			case "urlset":
			case "url":
				last = -1
			default:
				pos, known := order[n]
				if !known || pos <= last {
					t.Fatalf("element %q out of the schema's order", n)
				}
				last = pos
			}
		}
	}
	freqs := []string{"", "always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
	var locs []string
	for _, u := range doc.URLs {
		p, err := url.Parse(u.Loc)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || len(u.Loc) > 2048 {
			t.Fatalf("loc %q is not an absolute URL", u.Loc)
		}
		if u.LastMod != "" && !w3cDate.MatchString(u.LastMod) {
			t.Fatalf("lastmod %q", u.LastMod)
		}
		if !slices.Contains(freqs, u.ChangeFreq) {
			t.Fatalf("changefreq %q", u.ChangeFreq)
		}
		locs = append(locs, u.Loc)
	}
	return locs
}

func TestSitemapAndRobots(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	putPage(t, tn, "about", true, true, false)
	putPage(t, tn, "admissions", true, true, false)
	putPage(t, tn, "private-area", true, true, true)
	putPage(t, tn, "draft", false, true, false)
	putPage(t, tn, "retired", true, false, false)
	putPage(t, other, "elsewhere", true, true, false)
	create(t, tn, "sitemap-entries", map[string]any{"url": "https://blog.example.org/news?a=1&b=2", "lastUpdated": "2026-11-01", "changeFreq": "weekly"})
	create(t, tn, "sitemap-entries", map[string]any{"url": "https://old.example.org/", "status": false})

	res := public(t, req{path: "/sitemap.xml", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") || res.header.Get("ETag") == "" {
		t.Fatalf("headers %v", res.header)
	}
	locs := validSitemap(t, res.raw)
	want := []string{"http://example.com/about", "http://example.com/admissions", "https://blog.example.org/news?a=1&b=2"}
	if !slices.Equal(locs, want) {
		t.Fatalf("locs %v, want %v", locs, want)
	}
	if !strings.Contains(string(res.raw), "&amp;b=2") {
		t.Fatal("an ampersand in a loc is not escaped")
	}
	// With a domain, page URLs are on the institution's own site.
	testkit.SetDomains(t, tn.ID, "www."+tn.ID+".example")
	locs = validSitemap(t, public(t, req{path: "/sitemap.xml", host: "www." + tn.ID + ".example"}).raw)
	if locs[0] != "https://www."+tn.ID+".example/about" {
		t.Fatalf("locs %v", locs)
	}
	if got := validSitemap(t, public(t, req{path: "/sitemap.xml", tenant: testkit.NewTenant(t).ID}).raw); len(got) != 0 {
		t.Fatalf("an empty site lists %v", got)
	}

	robots := public(t, req{path: "/robots.txt", tenant: tn.ID})
	expect(t, robots, http.StatusOK)
	wantRobots := "User-agent: *\nDisallow: /private-area\n\nSitemap: http://example.com/api/v1/public/sitemap.xml\n"
	if string(robots.raw) != wantRobots {
		t.Fatalf("robots.txt:\n%s\nwant:\n%s", robots.raw, wantRobots)
	}
	if got := string(public(t, req{path: "/robots.txt", tenant: other.ID}).raw); !strings.Contains(got, "Disallow:\n") || strings.Contains(got, "private") {
		t.Fatalf("other tenant's robots.txt:\n%s", got)
	}
}
