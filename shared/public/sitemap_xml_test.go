package public

import (
	"encoding/xml"
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
			set.URLs = append(set.URLs, url(u))
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
