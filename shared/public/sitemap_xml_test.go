package public

import (
	"encoding/xml"
	"strings"
	"testing"
)

// The sitemap is written by hand (no encoding/xml in the Lambdas); it is byte for byte what
// encoding/xml's MarshalIndent writes, escapes included.
func TestURLSetIsWhatEncodingXMLWrites(t *testing.T) {
	type url struct {
		Loc        string `xml:"loc"`
		LastMod    string `xml:"lastmod,omitempty"`
		ChangeFreq string `xml:"changefreq,omitempty"`
	}
	type urlset struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []url    `xml:"url"`
	}
	for _, urls := range [][]sitemapURL{
		nil,
		{{Loc: "https://a.org/x?a=1&b=<2>\"'\t\n\r\x01é\uFFFE"}, {Loc: "https://b.org/", LastMod: "2026-01-02", ChangeFreq: "daily"}},
	} {
		set := urlset{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
		for _, u := range urls {
			set.URLs = append(set.URLs, url{Loc: u.Loc, LastMod: u.LastMod, ChangeFreq: u.ChangeFreq})
		}
		raw, err := xml.MarshalIndent(set, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(writeURLSet(urls)), xml.Header+string(raw)+"\n"; got != want {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
	}
}

// TestURLSetAlternates: a page in several languages is a url per language, each with every
// language's address (and x-default) as xhtml:link alternates in the xhtml namespace, which an
// XML reader reads back.
func TestURLSetAlternates(t *testing.T) {
	alts := []sitemapAlt{{"en", "https://a.org/about"}, {"fr", "https://a.org/fr/a-propos?x=1&y=2"}, {"x-default", "https://a.org/about"}}
	raw := writeURLSet([]sitemapURL{{Loc: alts[0].Href, Alternates: alts}, {Loc: alts[1].Href, Alternates: alts}, {Loc: "https://blog.a.org/"}})
	var got struct {
		URLs []struct {
			Loc   string `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 loc"`
			Links []struct {
				Rel      string `xml:"rel,attr"`
				HrefLang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"http://www.w3.org/1999/xhtml link"`
		} `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
	}
	if err := xml.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if len(got.URLs) != 3 || got.URLs[1].Loc != alts[1].Href || len(got.URLs[2].Links) != 0 {
		t.Fatalf("%+v\n%s", got, raw)
	}
	for _, u := range got.URLs[:2] {
		if len(u.Links) != 3 {
			t.Fatalf("%s has %d alternates", u.Loc, len(u.Links))
		}
		for i, l := range u.Links {
			if l.Rel != "alternate" || l.HrefLang != alts[i].Lang || l.Href != alts[i].Href {
				t.Errorf("%s alternate %d: %+v", u.Loc, i, l)
			}
		}
	}
	// One language: no xhtml namespace, as before.
	if s := string(writeURLSet([]sitemapURL{{Loc: "https://a.org/"}})); strings.Contains(s, "xhtml") {
		t.Errorf("a site in one language: %s", s)
	}
}
