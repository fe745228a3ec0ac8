package website

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/public"
)

//go:embed templates
var templateFS embed.FS

// themeViews is one theme's template set: the shared partials, then the theme's own files,
// which redefine the blocks the theme draws differently. It is parsed on its first use: a
// website Lambda usually draws a few themes, and parsing every theme at start cost each cold
// start about 6 ms (website_test.go renders every theme, so a broken template still fails there).
type themeViews struct {
	id   string
	base func() (*template.Template, error)
	once sync.Once
	t    *template.Template
	err  error
}

func (tv *themeViews) templates() (*template.Template, error) {
	tv.once.Do(func() {
		base, err := tv.base()
		if err != nil {
			tv.err = err
			return
		}
		t, err := base.Clone()
		if err != nil {
			tv.err = err
			return
		}
		own, err := fs.Glob(templateFS, "templates/"+tv.id+"/*.html")
		if err != nil {
			tv.err = err
			return
		}
		if len(own) > 0 {
			if t, err = t.ParseFS(templateFS, own...); err != nil {
				tv.err = fmt.Errorf("website: theme %s: %w", tv.id, err)
				return
			}
		}
		tv.t = t
	})
	return tv.t, tv.err
}

// parseThemes prepares each theme's template set over the shared partials (parsed once, on first
// use). Adding a theme is adding templates/{id}/ (it may be empty), assets/themes/{id}.css and a
// catalogue line.
func parseThemes(ids []string) (map[string]*themeViews, error) {
	base := sync.OnceValues(func() (*template.Template, error) {
		t, err := template.New("website").Funcs(funcs).ParseFS(templateFS, "templates/partials/*.html")
		if err != nil {
			return nil, fmt.Errorf("website: partials: %w", err)
		}
		return t, nil
	})
	out := map[string]*themeViews{}
	for _, id := range ids {
		out[id] = &themeViews{id: id, base: base}
	}
	return out, nil
}

// view is what a handler answers: which body template, with what, and how it may be cached.
type view struct {
	// Body names the template of the page's main content ("home", "page", "events"…).
	Body   string
	Status int
	// Private pages (previews, answers to a POST) are never cached.
	Private bool
	Title   string
	// Description overrides the SEO default for this page.
	Description string
	Page        *public.Page
	// Forms are the forms the page's form sections show, by id.
	Forms map[string]*formView
	Data  any
	// Image is the reference of the image the page's record shows (an event's, a notice's): its
	// share previews' (Open Graph), when the page has none of its own.
	Image string
	// Popup is shown once per visitor (home only).
	Popup   public.Record
	NoIndex bool
	// JSONLD is extra structured data (events) beside the organisation's.
	JSONLD []any

	// Filled by render.
	Site  *public.Site
	Set   *public.Settings
	Theme string
	CSS   template.CSS
	// ThemeCSS is the theme's stylesheet (base and theme), written into the page's <head>.
	ThemeCSS template.CSS
	Asset    func(string) string
	Head     head
	Path     string
	Links    []Link
	Year     int
	Preview  bool
	Flash    string
	FlashBad bool
	// Count is what the page's beacon sends (nil: the page is not counted).
	Count *pageCount
	// Hero is the image the page draws first (head.go).
	Hero hero
	// L is the page's language (lang.go); Langs the header's language switch (nil when the site
	// has one language); Alternates the languages the page is in (hreflang), XDefault the
	// address of the default language's.
	L          *locale
	Langs      []langLink
	Alternates []langLink
	XDefault   string
}

type handler func(q *req) (*view, error)

// page serves a handler's view in the tenant's theme: errors become the themed 404 or a plain
// 500, answers to GET are cached briefly with an ETag, the rest never.
func (s *Server) page(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := s.resolve(w, r)
		if err == nil {
			var v *view
			if v, err = h(q); err == nil {
				err = s.render(q, v)
			}
		}
		if err != nil {
			s.fail(q, w, r, err)
		}
	})
}

// errNotFound is a handler's "nothing here": the themed 404.
var errNotFound = errors.New("website: not found")

func notFoundPage(*req) (*view, error) { return nil, errNotFound }

// fail answers an error: no site here (plain 404), nothing here (the themed 404), a 4xx the
// reads decided, or a 500 whose cause is logged and never shown.
func (s *Server) fail(q *req, w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, errHandled):
		return
	case errors.Is(err, errNotSiteLang) && q != nil && q.orig != nil:
		// /de/… on a site without German: the address as one of the default language's (/de is
		// then the page whose slug is "de").
		s.mux.ServeHTTP(w, q.orig)
		return
	case errors.Is(err, errDefaultLang) && q != nil:
		// /en/… on an English site: its one address is without the prefix.
		to := q.r.URL.Path
		if q.r.URL.RawQuery != "" {
			to += "?" + q.r.URL.RawQuery
		}
		w.Header().Set("Cache-Control", public.CacheControl)
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	case errors.Is(err, errNoSite):
		plainPage(w, http.StatusNotFound, "No website is published at this address.")
		return
	case errors.Is(err, public.ErrSuspended):
		// The maintenance page: the theme is not drawn (nothing of the site is shown).
		public.MarkSuspended(w)
		plainPage(w, http.StatusServiceUnavailable, public.ErrSuspended.Message)
		return
	case errors.Is(err, errNotFound):
		if q != nil {
			// An old address the site keeps a redirect for (redirect.go), else the 404 page.
			if done, lerr := s.redirectNotFound(q); lerr != nil || done {
				if lerr != nil {
					s.fail(nil, w, r, lerr)
				}
				return
			}
			if rerr := s.render(q, &view{Body: "notfound", Status: http.StatusNotFound, Title: q.T("notfound.title")}); rerr == nil {
				return
			} else if errors.Is(rerr, errNotSiteLang) || errors.Is(rerr, errDefaultLang) {
				s.fail(q, w, r, rerr)
				return
			}
		}
		plainPage(w, http.StatusNotFound, "Page not found.")
		return
	}
	e := api.AsError(err)
	level := slog.LevelInfo
	if e.Status >= 500 {
		level = slog.LevelError
	}
	s.opts.Log.Log(r.Context(), level, "website request failed", "status", e.Status, "path", r.URL.Path, "cause", err.Error())
	if e.Status >= 500 {
		plainPage(w, e.Status, "Something went wrong on our side. Please try again in a moment.")
		return
	}
	plainPage(w, e.Status, e.Message)
}

func plainPage(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>%s</title><main><h1>%s</h1></main></html>\n",
		template.HTMLEscapeString(msg), template.HTMLEscapeString(msg))
}

// render writes v in the tenant's theme.
func (s *Server) render(q *req, v *view) error {
	if q.visit == nil || q.visit.Settings == nil {
		if _, err := s.load(q, public.Want{}); err != nil {
			return err
		}
	}
	set := q.visit.Settings
	v.Site, v.Set, v.Theme = q.site, set, set.Theme.ID
	v.Asset = s.assets.Path
	v.L = q.loc
	v.Path = q.loc.Href(q.r.URL.Path)
	s.languages(q, v)
	v.Links = fixedLinks
	v.Year = s.read.Now().Year()
	v.ThemeCSS = s.assets.Inline("theme-" + v.Theme + ".css")
	v.CSS = s.inlineStyle(styleInput{primary: str(set.ThemeSettings["primaryColor"]), secondary: str(set.ThemeSettings["secondaryColor"]),
		font: str(set.ThemeSettings["fontFamily"]), customCSS: str(set.ThemeSettings["customCss"])})
	// The media records of every image the page shows, in one round trip: their copies' sizes.
	if err := s.read.LoadImages(q.r.Context(), q.site, v.Page, v.Data, v.Forms, v.Popup, set.Header, set.Footer); err != nil {
		return err
	}
	v.Hero = heroOf(v)
	v.Head = s.head(q, v)
	v.Count = s.countOf(q, v)
	tv, ok := s.views[v.Theme]
	if !ok {
		tv = s.views[s.themes.Themes[0].ID]
	}
	t, err := tv.templates()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		return fmt.Errorf("website: render %s in %s: %w", v.Body, v.Theme, err)
	}
	h := q.w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if v.Status == 0 {
		v.Status = http.StatusOK
	}
	if v.Private || v.Preview {
		h.Set("Cache-Control", "private, no-store")
		h.Set("X-Robots-Tag", "noindex, nofollow")
	}
	if v.Status == http.StatusOK && !v.Private && !v.Preview && (q.r.Method == http.MethodGet || q.r.Method == http.MethodHead) {
		return public.WriteCached(q.w, q.r, "text/html; charset=utf-8", buf.Bytes())
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", public.CacheControl)
	}
	q.w.WriteHeader(v.Status)
	_, err = q.w.Write(buf.Bytes())
	return err
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
