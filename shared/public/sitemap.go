package public

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// pagesKind is the pages collection (its records live at T#{t}#pages like every collection's).
const pagesKind = "pages"

// Pages reads the tenant's visible pages by slug: one Query, bounded like the lists.
func (r *Reader) Pages(ctx context.Context, site *Site) ([]Record, error) {
	return r.List(ctx, site, Query{Kind: pagesKind, Where: "'isPublished' = ?", Args: []any{true}, Less: func(a, b Record) bool {
		return fmt.Sprint(a["slug"]) < fmt.Sprint(b["slug"])
	}})
}

// siteURL is where the institution's website lives: its first domain, else the host the request
// came to.
func siteURL(st *Site) string {
	if len(st.Tenant.Domains) > 0 {
		return "https://" + st.Tenant.Domains[0]
	}
	return st.Origin
}

type urlset struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc        string `xml:"loc"`
	LastMod    string `xml:"lastmod,omitempty"`
	ChangeFreq string `xml:"changefreq,omitempty"`
}

// changeFreqs are the values sitemaps.org allows (the panel offers three of them).
var changeFreqs = map[string]bool{"always": true, "hourly": true, "daily": true, "weekly": true, "monthly": true, "yearly": true, "never": true}

// Sitemap is the tenant's sitemaps.org 0.9 urlset on base (scheme://host): the visible,
// indexable pages, then paths (the website's own list pages), then the active sitemap entries.
// Two DynamoDB calls: pages, entries.
func (r *Reader) Sitemap(ctx context.Context, site *Site, base string, paths ...string) ([]byte, error) {
	pages, err := r.Pages(ctx, site)
	if err != nil {
		return nil, err
	}
	entries, err := r.List(ctx, site, Query{Kind: "sitemap-entries"})
	if err != nil {
		return nil, err
	}
	set := urlset{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", URLs: []sitemapURL{}}
	seen := map[string]bool{}
	add := func(u sitemapURL) {
		if len(u.Loc) > 2048 || seen[u.Loc] {
			return
		}
		seen[u.Loc] = true
		set.URLs = append(set.URLs, u)
	}
	for _, p := range pages {
		if p["noIndex"] == true {
			continue
		}
		add(sitemapURL{Loc: base + pagePath(p), LastMod: lastMod(p["updatedAt"])})
	}
	for _, p := range paths {
		add(sitemapURL{Loc: base + p})
	}
	for _, e := range entries {
		loc, _ := e["url"].(string)
		if u, err := url.Parse(loc); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		freq, _ := e["changeFreq"].(string)
		if !changeFreqs[freq] {
			freq = ""
		}
		add(sitemapURL{Loc: loc, LastMod: lastMod(e["lastUpdated"]), ChangeFreq: freq})
	}
	raw, err := xml.MarshalIndent(set, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(raw, '\n')...), nil
}

// sitemap serves GET /sitemap.xml on the site's first domain (else the request's host).
func (s *Service) sitemap(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	body, err := s.read.Sitemap(r.Context(), st, siteURL(st))
	if err != nil {
		return err
	}
	return WriteCached(w, r, "application/xml; charset=utf-8", body)
}

// lastMod is a W3C date (YYYY-MM-DD) from a stored date or timestamp; "" when there is none.
func lastMod(v any) string {
	t, ok := dayStart(v)
	if !ok {
		if s, _ := v.(string); s != "" {
			if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
				t, ok = ts, true
			}
		}
	}
	if !ok {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// Robots is the tenant's robots.txt: a Disallow line per visible noIndex page and the sitemap's
// URL. One DynamoDB call: pages.
func (r *Reader) Robots(ctx context.Context, site *Site, sitemapURL string) ([]byte, error) {
	pages, err := r.Pages(ctx, site)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	disallowed := 0
	for _, p := range pages {
		if p["noIndex"] == true {
			fmt.Fprintf(&b, "Disallow: %s\n", pagePath(p))
			disallowed++
		}
	}
	if disallowed == 0 {
		// An empty Disallow allows everything; a group needs at least one rule.
		b.WriteString("Disallow:\n")
	}
	fmt.Fprintf(&b, "\nSitemap: %s\n", sitemapURL)
	return []byte(b.String()), nil
}

// robots serves GET /robots.txt, naming the public API's sitemap.
func (s *Service) robots(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	body, err := s.read.Robots(r.Context(), st, st.Origin+Base+"/sitemap.xml")
	if err != nil {
		return err
	}
	return WriteCached(w, r, "text/plain; charset=utf-8", body)
}
