// Package website renders each institution's public website: server-side HTML from Go's
// html/template (contextual escaping), one template set per theme over shared partials, read
// through shared/public's Reader (the JSON API's own reads and visibility rule). No page needs
// JavaScript: forms post as HTML forms and re-render with their errors; the slider, the popup
// and the mobile menu are small enhancements in one script.
package website

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/themes"
	"github.com/campuscms/panel/shared/visits"
)

// Options configure a website server.
type Options struct {
	// LocalHosts serves tenant T at T.localhost (browsers resolve *.localhost to loopback): the
	// local server's way in. Never set in AWS, where a host reaches a tenant only through its
	// DOMAIN# lookup.
	LocalHosts bool
	// Limit is the per-client submission limit of forms and the newsletter.
	Limit public.Limit
	Log   *slog.Logger
	// ViewKey signs the token each page carries for its page-view beacon (visits.Key of the
	// deployment's secret); nil: visits.Key(""), the key of local runs.
	ViewKey []byte
	// ViewShards spreads each page's daily count over that many items (0: visits.DefaultShards).
	ViewShards int
	// ViewLimit is the per-client limit of counted page views (zero: DefaultViewLimit).
	ViewLimit public.Limit
	// CountAfter counts a page view after answering its beacon, in the background (the local
	// server, which keeps running); unset, the writes finish before the answer, as a Lambda's
	// must (nothing runs once its handler has returned).
	CountAfter bool
}

// Server serves the websites of every tenant.
type Server struct {
	read   *public.Reader
	opts   Options
	themes themes.Catalogue
	views  map[string]*themeViews
	assets *assetSet
	fonts  map[string]FontChoice
	hosts  *hostCache
	// mux routes the addresses of the default language (Handler).
	mux http.Handler
	// viewKey signs the pages' beacon tokens; counter counts their views.
	viewKey []byte
	counter *visits.Counter
	// pending are the views being counted after their answer (Options.CountAfter).
	pending sync.WaitGroup
}

// New builds the website server: templates and assets are parsed and hashed once, here.
func New(read *public.Reader, opts Options) (*Server, error) {
	cat, err := themes.Load()
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(cat.Themes))
	for i, t := range cat.Themes {
		ids[i] = t.ID
	}
	assets, err := loadAssets(ids)
	if err != nil {
		return nil, err
	}
	views, err := parseThemes(ids)
	if err != nil {
		return nil, err
	}
	fonts, err := parseFonts()
	if err != nil {
		return nil, err
	}
	if opts.Limit.Max == 0 {
		opts.Limit = public.DefaultLimit
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.ViewKey == nil {
		opts.ViewKey = visits.Key("")
	}
	if opts.ViewLimit.Max == 0 {
		opts.ViewLimit = DefaultViewLimit
	}
	counter := visits.NewCounter(read.Store())
	if opts.ViewShards > 0 {
		counter = counter.WithShards(opts.ViewShards)
	}
	return &Server{read: read, opts: opts, themes: cat, views: views, assets: assets, fonts: fonts,
		hosts: &hostCache{ttl: time.Minute, max: 10_000, m: map[string]hostEntry{}}, viewKey: opts.ViewKey, counter: counter}, nil
}

// Handler routes the website's paths. A page whose slug equals one of the fixed paths (events,
// notices…) is shadowed by it; the panel's slugs are free text, so the README lists them. An
// address under a language's prefix (/fr/…, lang.go) is routed without it, among the pages a
// language has (not the assets, feeds, calendar file, sitemap or beacon).
func (s *Server) Handler() http.Handler {
	s.mux = s.routes(false)
	inLang := s.routes(true)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code, rest, ok := langPrefix(r.URL.Path); ok {
			inLang.ServeHTTP(w, withLang(r, code, rest))
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// routes are the website's routes: every one, or (inLang) those a language's prefix may stand
// before.
func (s *Server) routes(inLang bool) http.Handler {
	notFound := s.page(notFoundPage)
	// What no route serves is the 404 page, whatever the method. In AWS the HTTP API's $default
	// route (this function) also receives /api/ paths that no API group owns: they are the
	// API's JSON 404, never a website page.
	mux := app.NewRouter(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && !inLang {
			app.NotFound(w, r)
			return
		}
		notFound.ServeHTTP(w, r)
	}))
	if !inLang {
		mux.Handle("GET "+AssetsPath+"{name...}", http.HandlerFunc(s.assets.serve))
		mux.Handle("GET /robots.txt", s.plain(s.robots))
		// The sitemap reads the site settings: its languages.
		mux.Handle("GET /sitemap.xml", s.plainWith(public.Want{}, s.sitemap))
		// The events calendar and the news feed (calendar.go, feed.go); an event's own .ics is its
		// page's address with .ics (eventDetail).
		mux.Handle("GET /events.ics", s.plainWith(public.Want{}, s.eventsCalendar))
		mux.Handle("GET "+feedPath, s.plain(s.noticesFeed))
		mux.Handle("POST "+BeaconPath, http.HandlerFunc(s.beacon))
		mux.Handle("GET /_preview/{token}", s.page(s.preview))
	}
	mux.Handle("GET /{$}", s.page(s.home))
	for _, l := range listPages {
		mux.Handle("GET "+l.path, s.page(s.list(l)))
		if l.detail {
			h := s.page(s.detail(l))
			if l.kind == "events" {
				h = s.eventDetail(h)
			}
			mux.Handle("GET "+l.path+"/{id}", h)
		}
	}
	mux.Handle("GET /search", s.page(s.search))
	mux.Handle("GET "+StatementPath, s.page(s.statement))
	mux.Handle("POST "+StatementPath, s.page(s.feedback))
	mux.Handle("GET /forms/{id}", s.page(s.formPage))
	mux.Handle("POST /forms/{id}", s.page(s.submitForm))
	mux.Handle("POST /newsletter", s.page(s.subscribe))
	s.signupRoutes(mux)
	mux.Handle("GET /{slug}", s.page(s.cmsPage))
	return mux
}

// hostCache remembers which tenant a host maps to for a minute: a website's domains change
// rarely (an operator's command, then DNS and a certificate), and every request would otherwise
// pay one more DynamoDB call. A stale entry cannot show one tenant's site on another's host:
// the host is checked against the tenant's own domain list, read fresh with its settings.
type hostCache struct {
	mu  sync.Mutex
	ttl time.Duration
	max int
	m   map[string]hostEntry
}

type hostEntry struct {
	tenant string
	until  time.Time
}

func (c *hostCache) get(host string, now time.Time) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[host]
	if !ok || now.After(e.until) {
		return "", false
	}
	return e.tenant, true
}

func (c *hostCache) put(host, tenant string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[host] = hostEntry{tenant: tenant, until: now.Add(c.ttl)}
}

// Build is the website group's handler over the process's dependencies, behind the same
// middleware as the API groups: request logs and the CloudFront origin check.
func Build(d *app.Deps, opts Options) (http.Handler, error) {
	rd, err := public.NewReader(d.Store, d.Config.ObjectURLPrefix)
	if err != nil {
		return nil, err
	}
	sub, err := forms.NewSubmitter(d)
	if err != nil {
		return nil, err
	}
	rd.UseSubmitter(sub)
	if opts.Log == nil {
		opts.Log = d.Log
	}
	if opts.ViewKey == nil {
		opts.ViewKey = visits.Key(d.Config.OriginSecret)
	}
	s, err := New(rd, opts)
	if err != nil {
		return nil, err
	}
	return api.Middleware(d.Log, api.RequireOrigin(d.Config.OriginSecret, s.Handler())), nil
}
