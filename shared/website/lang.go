package website

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/public"
)

// The website in the site's languages (issue 35): the default language at /, each other one at
// /{lang}/… (every page type; the feeds, the calendar file and the sitemap stay at their one
// address). <html lang dir> says the page's language; a switch in the header links the same
// record in the others; <link rel="alternate" hreflang> names every language the page is in, plus
// x-default; the theme's words come from the language's message file (messages.go); dates and
// numbers are written the language's way.

// langAddress is a request that came in under a language prefix: the language it names and the
// request as it came (answered as an address of the default language when the site does not
// publish in that one: /de is then the page whose slug is "de", or the 404).
type langAddress struct {
	code string
	orig *http.Request
}

type langKey struct{}

// langPrefix splits an address's language prefix from the rest: "/fr/a-propos" is ("fr",
// "/a-propos"), "/fr" and "/fr/" are ("fr", "/"). Only a code of the catalogue is a prefix.
func langPrefix(p string) (code, rest string, ok bool) {
	if len(p) < 3 || p[0] != '/' {
		return "", "", false
	}
	seg, after, _ := strings.Cut(p[1:], "/")
	if _, known := langs.Find(seg); !known {
		return "", "", false
	}
	return seg, "/" + after, true
}

// withLang is r under its language prefix: the path without it, the language in the context.
func withLang(r *http.Request, code, rest string) *http.Request {
	r2 := r.Clone(context.WithValue(r.Context(), langKey{}, langAddress{code: code, orig: r}))
	r2.URL.Path, r2.URL.RawPath = rest, ""
	return r2
}

func addressLang(r *http.Request) (langAddress, bool) {
	a, ok := r.Context().Value(langKey{}).(langAddress)
	return a, ok
}

// errNotSiteLang: the address names a language the site does not publish in (answered as an
// address of the default language); errDefaultLang: it names the default one (a 301 to the
// address without the prefix).
var (
	errNotSiteLang = errorString("website: not a language of the site")
	errDefaultLang = errorString("website: the default language has no prefix")
)

// locale is the language a page is drawn in: its words, its dates and numbers, and its links
// (under the language's prefix).
type locale struct {
	// Lang is the page's language (a BCP 47 code), Dir its direction ("ltr", "rtl").
	Lang, Dir string
	// Default is the site's default language, DefaultDir its direction.
	Default, DefaultDir string
	// prefix is "" for the default language, else "/fr".
	prefix string
}

// newLocale is lang's locale on a site whose default language is def.
func newLocale(lang, def string) *locale {
	l := &locale{Lang: lang, Dir: langs.Dir(lang), Default: def, DefaultDir: langs.Dir(def)}
	if lang != def {
		l.prefix = "/" + lang
	}
	return l
}

// T is key's text in the page's language (messages.go), with args as name, value pairs.
func (l *locale) T(key string, args ...any) string { return msg(l.Lang, key, args...) }

// Href is a root-relative address of the site in the page's language: "/events" is
// "/fr/events" on a French page. Other addresses are kept.
func (l *locale) Href(p string) string {
	if l == nil || l.prefix == "" || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return p
	}
	if p == "/" {
		return l.prefix + "/"
	}
	return l.prefix + p
}

// numbering is how a language writes numbers: its x/text printer, and whether its digits are
// ASCII ones (then a number under 1,000, a day, an hour or a year is strconv's, with no printer
// call: most of what a page writes).
type numbering struct {
	p     *message.Printer
	ascii bool
}

// numberings are the languages' numberings, made on first use.
var numberings sync.Map

func (l *locale) numbering() *numbering {
	if n, ok := numberings.Load(l.Lang); ok {
		return n.(*numbering)
	}
	tag, err := language.Parse(l.Lang)
	if err != nil {
		tag = language.English
	}
	p := message.NewPrinter(tag)
	n, _ := numberings.LoadOrStore(l.Lang, &numbering{p: p, ascii: p.Sprint(number.Decimal(9876543210, number.NoSeparator())) == "9876543210"})
	return n.(*numbering)
}

// Num is n in the language's digits and grouping ("12 345", "١٢٬٣٤٥").
func (l *locale) Num(n int) string {
	nb := l.numbering()
	if nb.ascii && n >= 0 && n < 1000 {
		return strconv.Itoa(n)
	}
	return nb.p.Sprint(number.Decimal(n))
}

// year is a year (never grouped: "2026", "٢٠٢٦").
func (l *locale) year(n int) string {
	nb := l.numbering()
	if nb.ascii {
		return strconv.Itoa(n)
	}
	return nb.p.Sprint(number.Decimal(n, number.NoSeparator()))
}

// Dec is x with at most one decimal ("1,5").
func (l *locale) Dec(x float64) string {
	return l.numbering().p.Sprint(number.Decimal(x, number.MaxFractionDigits(1)))
}

// Date is a stored date as people read it in the page's language: "Mon 2 Nov 2026",
// "lun. 2 nov. 2026", "الاثنين ٢ نوفمبر ٢٠٢٦"; "" when there is none.
func (l *locale) Date(v any) string {
	t, ok := parseDate(v)
	if !ok {
		return ""
	}
	return l.day(t)
}

// day is t's date in the short form (message "date.short").
func (l *locale) day(t time.Time) string {
	return l.T("date.short", "weekday", l.T("weekday.short."+itoa(int(t.Weekday()))), "day", l.Num(t.Day()),
		"month", l.T("month.short."+itoa(int(t.Month()))), "year", l.year(t.Year()))
}

// LongDate is t's date with the month's whole name ("2 January 2026", "2 janvier 2026").
func (l *locale) LongDate(t time.Time) string {
	return l.T("date.long", "day", l.Num(t.Day()), "month", l.T("month."+itoa(int(t.Month()))), "year", l.year(t.Year()))
}

// clock is t's time of day, 24-hour ("09:00", "٠٩:٠٠").
func (l *locale) clock(t time.Time) string {
	nb := l.numbering()
	two := func(n int) string {
		if nb.ascii {
			return string(rune('0'+n/10)) + string(rune('0'+n%10))
		}
		return nb.p.Sprint(number.Decimal(n, number.MinIntegerDigits(2)))
	}
	return two(t.Hour()) + ":" + two(t.Minute())
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

// langLink is one language of the header's switch, and one hreflang alternate.
type langLink struct {
	// Code is the language, Name its own name ("Français"), Dir its direction.
	Code, Name, Dir string
	// Href is the same page in that language (its home when the page is not in it); Abs the same,
	// absolute (hreflang alternates).
	Href, Abs string
	// Current is the page's language; Available says the page is in that language.
	Current, Available bool
}

// prefixOf is the path prefix of lang on a site whose default is def.
func prefixOf(lang, def string) string {
	if lang == def {
		return ""
	}
	return "/" + lang
}

// availableIn are the languages a record can be shown in (the reads' "availableLanguages"); ok is
// false when the record does not say (every language of the site).
func availableIn(rec public.Record) (map[string]bool, bool) {
	var codes []string
	switch v := rec["availableLanguages"].(type) {
	case []string:
		codes = v
	case []any:
		for _, x := range v {
			codes = append(codes, str(x))
		}
	default:
		return nil, false
	}
	out := map[string]bool{}
	for _, c := range codes {
		out[c] = true
	}
	return out, true
}

// slugIn is a page record's slug in lang (the reads' "slugs"), else its slug as read.
func slugIn(rec public.Record, lang string) string {
	switch v := rec["slugs"].(type) {
	case map[string]any:
		if s := str(v[lang]); s != "" {
			return s
		}
	case map[string]string:
		if s := v[lang]; s != "" {
			return s
		}
	}
	return str(rec["slug"])
}

// pagePathIn is where the website serves a page in lang (without the language's prefix).
func pagePathIn(rec public.Record, lang string) string {
	slug := slugIn(rec, lang)
	if str(rec["slug"]) == homeSlug || slug == homeSlug {
		return "/"
	}
	return "/" + url.PathEscape(slug)
}

// languageLinks are the page's switch and alternates: each language of the site with the page's
// address in it. record is the record the page shows (a page, an event…), nil for a page of the
// website's own (a list, the search); a page's address differs by language (its slug there).
func languageLinks(site *public.Site, loc *locale, others []string, path string, record public.Record, isPage bool) []langLink {
	if len(others) == 0 {
		return nil
	}
	avail, limited := availableIn(record)
	all := append([]string{loc.Default}, others...)
	out := make([]langLink, 0, len(all))
	for _, code := range all {
		ln := langLink{Code: code, Name: langs.Name(code), Dir: langs.Dir(code), Current: code == loc.Lang, Available: !limited || avail[code]}
		p := path
		if isPage && record != nil {
			p = pagePathIn(record, code)
		}
		if !ln.Available {
			p = "/"
		}
		ln.Href = prefixOf(code, loc.Default) + p
		if p == "/" && code != loc.Default {
			ln.Href = "/" + code + "/"
		}
		ln.Abs = site.Absolute(ln.Href)
		out = append(out, ln)
	}
	return out
}

// fallbackAttr marks an element whose text is the default language's, shown on a page in
// another language because the field has no translation (the reads' "fallbackFields"): its lang
// (and dir when it differs), so a screen reader pronounces it right. "" otherwise.
func fallbackAttr(l *locale, rec any, field string) template.HTMLAttr {
	if l == nil || l.Lang == l.Default {
		return ""
	}
	var fields []string
	switch r := rec.(type) {
	case public.Record:
		fields = fieldList(r["fallbackFields"])
	case public.Section:
		fields = r.FallbackFields
	case public.MenuItem:
		fields = r.FallbackFields
	case forms.Form:
		fields = r.Fallback
	case fieldView:
		fields = r.Fallback
	default:
		return ""
	}
	if !slices.Contains(fields, field) {
		return ""
	}
	attr := ` lang="` + template.HTMLEscapeString(l.Default) + `"`
	if l.DefaultDir != l.Dir {
		attr += ` dir="` + l.DefaultDir + `"`
	}
	return template.HTMLAttr(attr) //nolint:gosec // a catalogue code, escaped
}

func fieldList(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, f := range x {
			out = append(out, str(f))
		}
		return out
	}
	return nil
}

// Year is a year in the language's digits, never grouped.
func (l *locale) Year(n int) string { return l.year(n) }

// Size is a file's size in bytes as KB, or MB over 1 MB (SPEC §9), in the language's digits.
func (l *locale) Size(v any) string {
	n, ok := v.(float64)
	if !ok || n <= 0 {
		return ""
	}
	if n > 1<<20 {
		return l.T("size.mb", "n", l.Dec(n/(1<<20)))
	}
	return l.T("size.kb", "n", l.Num(int(n/1024+0.5)))
}

// HTML is key's text as HTML: the text escaped, its named values too, but for those given as
// template.HTML (a link's opening and closing tags built by the caller), written as they are.
func (l *locale) HTML(key string, args ...any) template.HTML {
	text := msg(l.Lang, key)
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(template.HTMLEscapeString(text[:i]))
		name, found := text[i+1:i+j], false
		for k := 0; k+1 < len(args); k += 2 {
			if str(args[k]) != name {
				continue
			}
			found = true
			if h, ok := args[k+1].(template.HTML); ok {
				b.WriteString(string(h))
			} else {
				b.WriteString(template.HTMLEscapeString(fmtValue(args[k+1])))
			}
			break
		}
		if !found {
			b.WriteString(template.HTMLEscapeString(text[i : i+j+1]))
		}
		text = text[i+j+1:]
	}
	b.WriteString(template.HTMLEscapeString(text))
	return template.HTML(b.String()) //nolint:gosec // every text escaped; HTML values are the caller's own markup
}

func fmtValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// languages fills the page's switch and hreflang alternates: the record the page shows (a page
// by its slug in each language, an event by its id) in each language it is in; a language it is
// not in links to that language's home. A page that is not the site's (the 404, an answer to a
// post, a preview) has a switch to the homes and no alternates.
func (s *Server) languages(q *req, v *view) {
	if len(q.others) == 0 {
		return
	}
	var rec public.Record
	isPage := false
	path := q.r.URL.Path
	switch d := v.Data.(type) {
	case *detailData:
		rec = d.Record
	default:
		if v.Page != nil && (v.Body == "page" || v.Body == "home") {
			rec, isPage = v.Page.Record, true
		}
	}
	page := v.Status == 0 || v.Status == http.StatusOK
	if !page || v.Preview {
		path, rec, isPage = "/", nil, false
	}
	v.Langs = languageLinks(q.site, q.loc, q.others, path, rec, isPage)
	if !page || v.Private || v.Preview {
		return
	}
	for _, l := range v.Langs {
		if l.Available {
			v.Alternates = append(v.Alternates, l)
		}
	}
	if len(v.Langs) > 0 && v.Langs[0].Available {
		v.XDefault = v.Langs[0].Abs
	}
}
