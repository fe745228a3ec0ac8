package website

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/public"
)

// funcs are the helpers every template may call.
var funcs = template.FuncMap{
	"str":     str,
	"media":   func(site *public.Site, ref any) string { return site.Display(str(ref)) },
	"img":     imgTag,
	"isoDate": isoDate,
	"paras":   paragraphs,
	"embed":   embedSrc,
	"host":    embedHost,
	"current": func(path, href string) bool {
		return path == href || (href != "/" && strings.HasPrefix(path, href+"/"))
	},
	"textPos": func(v any) string { return strings.ToLower(orDefault(str(v), "LEFT")) },
	"safeURL": safeURL,
	"itemsN":  func(n int) []int { return make([]int, n) },
	"add":     func(a, b int) int { return a + b },
	"sub":     func(a, b int) int { return a - b },
	"item":    func(v *view, r public.Record) itemData { return itemData{Site: v.Site, R: r, L: v.L} },
	// topItem is an item of a list right under the page's h1: its title is an h2.
	"topItem": func(v *view, r public.Record) itemData { return itemData{Site: v.Site, R: r, Top: true, L: v.L} },
	// itemOf is an item of a page section, drawn in the section's language.
	"itemOf": func(d sectionData, r public.Record) itemData { return itemData{Site: d.Site, R: r, L: d.L} },
	"sectionOf": func(v *view, sec public.Section) sectionData {
		return sectionData{Site: v.Site, Section: sec, Forms: v.Forms, Theme: v.Theme, Hero: v.Hero.Ref != "" && v.Hero.Section == sec.ID,
			Later: v.Page != nil && len(v.Page.Sections) > 0 && v.Page.Sections[0].ID != sec.ID, L: v.L}
	},
	// pager is a list's page links in the page's language.
	"pager": func(v *view, d *listData) pagerData { return pagerData{L: v.L, D: d} },
	// fb marks a field shown in the default language on a page in another (lang.go).
	"fb":    fallbackAttr,
	"sizes": sizes,
	// load is how an item of a section loads its image (i its index, -1 for no slide): the first
	// one is fetched first when the section holds the page's hero; those of the sections after
	// the page's first wait until they come near (imgTag's "later"); every other one is lazy.
	"load": func(d sectionData, i int) string {
		switch {
		case d.Hero && i == 0:
			return "high"
		case d.Later:
			return "later"
		}
		return "lazy"
	},
	"readable": readableText,
	"webcal":   webcal,
	// feedTitle names the news feed every page's <head> links (feed.go).
	"feedTitle": feedTitle,
	// rich is page content, sanitised by the reader on the way out (public.Page).
	"rich": func(v any) template.HTML { return safeHTML(str(v)) },
}

// webcal is path on the site's host as a webcal: address, which a calendar app subscribes to
// (html/template would refuse the scheme in an href: the host is the validated one the request
// resolved its tenant by).
func webcal(site *public.Site, path string) template.URL {
	_, host, ok := strings.Cut(site.Origin, "://")
	if !ok {
		return template.URL(path) //nolint:gosec // a root-relative path of ours
	}
	return template.URL("webcal://" + host + path) //nolint:gosec // the site's own validated host
}

// itemData is one record drawn by a partial that also needs the site (its media paths).
type itemData struct {
	Site *public.Site
	R    public.Record
	// Top: the list is right under the page's h1 (its items' titles are h2, not h3).
	Top bool
	L   *locale
}

// pagerData is a list's page links.
type pagerData struct {
	L *locale
	D *listData
}

// sectionData is one page section drawn by its type's partial.
type sectionData struct {
	Site    *public.Site
	Section public.Section
	Forms   map[string]*formView
	// Theme names the theme (image sizes); Hero says the section's first item is the page's hero.
	Theme string
	Hero  bool
	// Later says the section is not the page's first: its images wait until they come near.
	Later bool
	L     *locale
}

// readableText is the text colour staff chose (fg, or the page's own when none) for a
// background they chose, moved just enough to reach WCAG AA's 4.5:1: a site stays readable
// whatever colours it is given. "" when there is no background to read against.
func readableText(fg, bg any) string {
	b, f := str(bg), str(fg)
	if b == "" || !formats.Color(b) {
		return f
	}
	if f == "" || !formats.Color(f) {
		f = onColor(expandHex(b))
	}
	return readableOn(expandHex(f), expandHex(b))
}

// safeHTML is rich text that shared/richtext has sanitised (page content, album descriptions).
func safeHTML(sanitised string) template.HTML { return template.HTML(sanitised) } //nolint:gosec // sanitised by richtext

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// parseDate reads a stored date ("2026-11-02" or RFC 3339).
func parseDate(v any) (time.Time, bool) {
	s := str(v)
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// isoDate is a stored date for <time datetime>.
func isoDate(v any) string {
	t, ok := parseDate(v)
	if !ok {
		return ""
	}
	return t.Format(time.DateOnly)
}

// paragraphs splits plain text at blank lines (long text fields are plain text, escaped as such).
func paragraphs(v any) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(str(v), "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// embedSrc is the address an embed section's iframe loads: YouTube and Vimeo watch links become
// their player addresses (YouTube's privacy-enhanced one); anything but https is dropped.
func embedSrc(raw any) string {
	u, err := url.Parse(str(raw))
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return ""
	}
	host := strings.TrimPrefix(u.Host, "www.")
	switch {
	case host == "youtube.com" && u.Path == "/watch" && u.Query().Get("v") != "":
		return "https://www.youtube-nocookie.com/embed/" + url.PathEscape(u.Query().Get("v"))
	case host == "youtu.be" && len(u.Path) > 1:
		return "https://www.youtube-nocookie.com/embed/" + url.PathEscape(u.Path[1:])
	case host == "youtube.com" && strings.HasPrefix(u.Path, "/embed/"):
		return "https://www.youtube-nocookie.com" + u.EscapedPath()
	case host == "vimeo.com" && len(u.Path) > 1:
		return "https://player.vimeo.com/video" + u.EscapedPath()
	}
	return u.String()
}

// embedHost names where an embed's content comes from (the address embedSrc gives), for the
// visitor to see before choosing to load it.
func embedHost(src string) string {
	u, err := url.Parse(src)
	if err != nil {
		return ""
	}
	return u.Host
}

// safeURL keeps http(s), mailto, tel and root-relative addresses (a CTA link); anything else
// becomes "#".
func safeURL(v any) string {
	s := strings.TrimSpace(str(v))
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "#"
	}
	switch u.Scheme {
	case "http", "https", "mailto", "tel":
		return s
	}
	return "#"
}

// placeholder is a transparent SVG of w by h as a data: address: an image's stand-in with its
// proportions.
func placeholder(w, h string) string {
	return "data:image/svg+xml,%3Csvg%20xmlns=%27http://www.w3.org/2000/svg%27%20viewBox=%270%200%20" +
		url.PathEscape(w) + "%20" + url.PathEscape(h) + "%27/%3E"
}

// imgTag is an image of the tenant's library as a page shows it: a resized copy as src, every
// copy in srcset with sizes (the slot's width on screen) so a phone fetches a phone-sized file,
// width and height set (the slot's aspect ratio, so nothing shifts as it loads), and loading
// "lazy" (below the fold), "high" (the hero: fetched first) or "" (eager). "" when ref is empty.
//
// "later" is an image of a section below the page's first: with JavaScript, site.js gives it its
// copies once it comes within 200 pixels of the screen (Chrome fetches lazy images well before
// that), and until then it holds a transparent SVG of its own proportions (no request, no shift);
// without JavaScript, the <noscript> copy is a plain lazy image and the placeholder is hidden (the
// <noscript> style of the page's <head>).
func imgTag(site *public.Site, ref any, size, sizes, loading, alt, class string) template.HTML {
	r := str(ref)
	if r == "" {
		return ""
	}
	if loading == "later" && site.Srcset(r) != "" {
		w, h, _ := strings.Cut(size, "x")
		lazy := string(imgTag(site, ref, size, sizes, "lazy", alt, class))
		held := strings.Replace(lazy, ` src="`, ` src="`+placeholder(w, h)+`" data-src="`, 1)
		held = strings.Replace(held, ` srcset="`, ` data-srcset="`, 1)
		held = strings.Replace(held, ` sizes="`, ` data-sizes="`, 1)     // sizes only beside a srcset
		return template.HTML(held + "<noscript>" + lazy + "</noscript>") //nolint:gosec // built by imgTag, escaped
	}
	if loading == "later" {
		loading = "lazy"
	}
	w, h, _ := strings.Cut(size, "x")
	var b strings.Builder
	attr := func(name, val string) { fmt.Fprintf(&b, ` %s="%s"`, name, template.HTMLEscapeString(val)) }
	b.WriteString("<img")
	if class != "" {
		attr("class", class)
	}
	attr("src", site.Display(r))
	if set := site.Srcset(r); set != "" {
		attr("srcset", set)
		attr("sizes", sizes)
	}
	attr("alt", site.Alt(r, alt))
	attr("width", w)
	attr("height", h)
	switch loading {
	case "lazy":
		attr("loading", "lazy")
		attr("decoding", "async")
	case "high":
		attr("fetchpriority", "high")
	}
	b.WriteString(">")
	return template.HTML(b.String()) //nolint:gosec // every value above is escaped
}
