package public

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// pagesKind is the pages collection (its records live at T#{t}#pages like every collection's).
const pagesKind = "pages"

// HomeSlug is the slug of the page that, when published, is the website's front page: its
// address is "/" (/home answers a 301 to it).
const HomeSlug = "home"

// sitemapPath is where the website serves a page: "/" for the home page.
func sitemapPath(p Record) string {
	if p["slug"] == HomeSlug {
		return "/"
	}
	return pagePath(p)
}

// sitemapPathIn is where the website serves a page in lang on a site whose default language is
// def: its slug in that language (the reads' "slugs") under the language's prefix.
func sitemapPathIn(p Record, lang, def string) string {
	path := sitemapPath(p)
	if slugs, ok := p[FieldSlugs].(map[string]any); ok && p["slug"] != HomeSlug {
		if s, _ := slugs[lang].(string); s != "" {
			path = pagePath(Record{"slug": s})
		}
	}
	return langPath(path, lang, def)
}

// langPath is a website path in lang: "/fr/events", "/fr/" for the home page; the default
// language's as it is.
func langPath(path, lang, def string) string {
	if lang == def || lang == "" {
		return path
	}
	if path == "/" {
		return "/" + lang + "/"
	}
	return "/" + lang + path
}

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

type sitemapURL struct {
	Loc, LastMod, ChangeFreq string
	// Alternates are the same page in each language it is in (hreflang, with "x-default"), as
	// xhtml:link elements; none for a site in one language.
	Alternates []sitemapAlt
}

// sitemapAlt is one language's address of a page.
type sitemapAlt struct{ Lang, Href string }

// writeURLSet writes a sitemaps.org urlset as encoding/xml's MarshalIndent with two spaces would
// (written here: encoding/xml's package initialisation cost every group linking this package's
// cold start 0.03 ms, for three elements).
//
// A site in several languages lists each language's address of a page as a url of its own, each
// with the page's every language as <xhtml:link rel="alternate" hreflang> (Google's form of
// hreflang in a sitemap), under the xhtml namespace.
func writeURLSet(urls []sitemapURL) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"")
	if slices.ContainsFunc(urls, func(u sitemapURL) bool { return len(u.Alternates) > 0 }) {
		b.WriteString(" xmlns:xhtml=\"" + xhtmlNS + "\"")
	}
	b.WriteString(">")
	for _, u := range urls {
		b.WriteString("\n  <url>")
		for _, el := range [][2]string{{"loc", u.Loc}, {"lastmod", u.LastMod}, {"changefreq", u.ChangeFreq}} {
			if el[1] == "" && el[0] != "loc" {
				continue
			}
			b.WriteString("\n    <" + el[0] + ">" + XMLText(el[1]) + "</" + el[0] + ">")
		}
		for _, a := range u.Alternates {
			b.WriteString("\n    <xhtml:link rel=\"alternate\" hreflang=\"" + XMLText(a.Lang) + "\" href=\"" + XMLText(a.Href) + "\"/>")
		}
		b.WriteString("\n  </url>")
	}
	if len(urls) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// XMLText escapes s as XML character data or an attribute value, as encoding/xml does: the five markup characters and
// tab, newline and carriage return as references, and what XML cannot hold as U+FFFD.
func XMLText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\t':
			b.WriteString("&#x9;")
		case r == '\n':
			b.WriteString("&#xA;")
		case r == '\r':
			b.WriteString("&#xD;")
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF || r >= 0xD800 && r < 0xE000:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// changeFreqs are the values sitemaps.org allows (the panel offers three of them).
var changeFreqs = map[string]bool{"always": true, "hourly": true, "daily": true, "weekly": true, "monthly": true, "yearly": true, "never": true}

// xhtmlNS is the namespace of a sitemap's hreflang alternates.
const xhtmlNS = "http://www.w3.org/1999/xhtml"

// Sitemap is the tenant's sitemaps.org 0.9 urlset on base (scheme://host): the visible,
// indexable pages, then paths (the website's own list pages), then the active sitemap entries.
// A site in several languages (its settings read with the site) lists each page at its address
// in every language it is in (its availableLanguages and slugs, read with the default
// language's: no read per language) and each path under every language's prefix, each with its
// alternates. Two DynamoDB calls: pages, entries.
func (r *Reader) Sitemap(ctx context.Context, site *Site, base string, paths ...string) ([]byte, error) {
	site, _ = site.InLanguage(site.DefaultLanguage())
	def, all := site.DefaultLanguage(), site.Languages()
	pages, err := r.Pages(ctx, site)
	if err != nil {
		return nil, err
	}
	entries, err := r.List(ctx, site, Query{Kind: "sitemap-entries"})
	if err != nil {
		return nil, err
	}
	var urls []sitemapURL
	seen := map[string]bool{}
	add := func(u sitemapURL) {
		if len(u.Loc) > 2048 || seen[u.Loc] {
			return
		}
		seen[u.Loc] = true
		urls = append(urls, u)
	}
	// inLanguages adds a page's address in each of langs (in order, the default first), each
	// with the others as alternates, and x-default the default language's.
	inLanguages := func(u sitemapURL, langs []string, pathIn func(lang string) string) {
		if len(all) < 2 || len(langs) == 0 {
			u.Loc = base + pathIn(def)
			add(u)
			return
		}
		alts := make([]sitemapAlt, 0, len(langs)+1)
		for _, l := range langs {
			alts = append(alts, sitemapAlt{Lang: l, Href: base + pathIn(l)})
		}
		alts = append(alts, sitemapAlt{Lang: "x-default", Href: base + pathIn(def)})
		for _, a := range alts[:len(langs)] {
			v := u
			v.Loc, v.Alternates = a.Href, alts
			add(v)
		}
	}
	for _, p := range pages {
		if p["noIndex"] == true {
			continue
		}
		langs := all
		if avail, ok := p[FieldAvailable].([]string); ok {
			langs = slices.DeleteFunc(slices.Clone(all), func(l string) bool { return !slices.Contains(avail, l) })
		}
		inLanguages(sitemapURL{LastMod: lastMod(p["updatedAt"])}, langs, func(l string) string { return sitemapPathIn(p, l, def) })
	}
	for _, p := range paths {
		inLanguages(sitemapURL{}, all, func(l string) string { return langPath(p, l, def) })
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
	return writeURLSet(urls), nil
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
