package public

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/store"
)

// pagesKind is the pages collection (its records live at T#{t}#pages like every collection's).
const pagesKind = "pages"

// publishedPages reads the tenant's published, active pages: one Query, bounded like the lists.
func (s *Service) publishedPages(ctx context.Context, scope store.Scope) ([]Record, error) {
	recs, err := s.readActive(ctx, scope, pagesKind, "'isPublished' = ?", []any{true})
	if err != nil {
		return nil, err
	}
	out := recs[:0]
	for _, p := range recs {
		if slug, _ := p["slug"].(string); slug != "" && p["status"] == true && p["isPublished"] == true {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]["slug"]) < fmt.Sprint(out[j]["slug"]) })
	return out, nil
}

// siteURL is where the institution's website lives: its first domain, else the host the request
// came to.
func siteURL(st *site) string {
	if len(st.tenant.Domains) > 0 {
		return "https://" + st.tenant.Domains[0]
	}
	return st.origin
}

// pagePath is the website path of a page.
func pagePath(p Record) string { return "/" + url.PathEscape(fmt.Sprint(p["slug"])) }

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

// sitemap serves GET /sitemap.xml: the published, indexable pages and the active sitemap
// entries, as a sitemaps.org 0.9 urlset. Three DynamoDB calls: tenant, pages, entries.
func (s *Service) sitemap(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	pages, err := s.publishedPages(r.Context(), st.scope)
	if err != nil {
		return err
	}
	entries, err := s.readActive(r.Context(), st.scope, "sitemap-entries", "", nil)
	if err != nil {
		return err
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
	base := siteURL(st)
	for _, p := range pages {
		if p["noIndex"] == true {
			continue
		}
		add(sitemapURL{Loc: base + pagePath(p), LastMod: lastMod(p["updatedAt"])})
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
		return err
	}
	return writeCached(w, r, "application/xml; charset=utf-8", append([]byte(xml.Header), append(raw, '\n')...))
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

// robots serves GET /robots.txt: a Disallow line per published noIndex page and the sitemap's
// URL. Two DynamoDB calls: tenant, pages.
func (s *Service) robots(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	pages, err := s.publishedPages(r.Context(), st.scope)
	if err != nil {
		return err
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
	fmt.Fprintf(&b, "\nSitemap: %s%s/sitemap.xml\n", st.origin, Base)
	return writeCached(w, r, "text/plain; charset=utf-8", []byte(b.String()))
}
