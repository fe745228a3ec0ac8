// Package public is the read API of the institution's own website and its two submission
// endpoints (/api/v1/public): no staff token, the tenant from X-Tenant-Id or from the host,
// active and published content only, explicit allow-lists of fields, cache headers and ETags
// so CloudFront can serve a popular site from its cache.
package public

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/store"
)

// Base is the public API's base path (routes.json basePaths.public).
const Base = "/api/v1/public"

// Service serves the public routes.
type Service struct {
	read  *Reader
	views viewer
	limit Limit
}

// NewService returns the public API over the table; objectURLPrefix is where media is served
// ("/media/").
func NewService(st *store.Store, objectURLPrefix string) (*Service, error) {
	rd, err := NewReader(st, objectURLPrefix)
	if err != nil {
		return nil, err
	}
	return &Service{read: rd, views: viewer{reg: rd.reg}, limit: DefaultLimit}, nil
}

// prefixes are the routes of the public group, as routes.json lists them.
var prefixes = []string{
	"sliders", "events", "albums", "testimonials", "faqs", "staff-members", "departments",
	"resources", "notices", "popups", "newsletter-signups", "sitemap.xml", "robots.txt", "forms", "pages", "site",
}

// Module serves the public group.
var Module = app.Module{
	Name:     "public",
	Base:     Base,
	Prefixes: func() []string { return prefixes },
	Register: func(d *app.Deps, mux api.Mux, base, prefix string) error {
		// Taken before app.Shared builds the service: its lock is not reentrant.
		sub, err := forms.NewSubmitter(d)
		if err != nil {
			return err
		}
		s, err := app.Shared(d, "public", func() (*Service, error) {
			s, err := NewService(d.Store, d.Config.ObjectURLPrefix)
			if err != nil {
				return nil, err
			}
			s.read.UseSubmitter(sub)
			return s, nil
		})
		if err != nil {
			return err
		}
		s.register(mux, base, prefix)
		return nil
	},
}

// lists are the public lists of generic collections, by route.
var lists = map[string]listSpec{
	"sliders":       {kind: "sliders", nameField: "title"},
	"events":        {kind: "events", nameField: "title", keep: eventsWhen, order: EventsOrder},
	"albums":        {kind: "albums", nameField: "title"},
	"testimonials":  {kind: "testimonials", nameField: "name"},
	"faqs":          {kind: "faqs", nameField: "question", order: byPosition},
	"staff-members": {kind: "staff-members", nameField: "name", where: idParam("department", "department"), order: byPosition},
	"departments":   {kind: "departments", nameField: "name", order: byName("name")},
	"resources":     {kind: "resources", nameField: "title"},
	"notices":       {kind: "notices", nameField: "title"},
	"popups":        {kind: "popups", nameField: "title"},
}

func (s *Service) register(mux api.Mux, base, prefix string) {
	path := base + "/" + prefix
	mux.Handle("OPTIONS "+path, http.HandlerFunc(preflight))
	mux.Handle("OPTIONS "+path+"/{rest...}", http.HandlerFunc(preflight))
	if spec, ok := lists[prefix]; ok {
		mux.Handle("GET "+path, s.list(spec))
	}
	switch prefix {
	case "albums":
		mux.Handle("GET "+path+"/{id}/photos", s.handle(s.albumPhotos))
	case "newsletter-signups":
		mux.Handle("POST "+path, s.handle(s.subscribe))
	case "forms":
		mux.Handle("GET "+path+"/{id}", s.handle(s.form))
		mux.Handle("POST "+path+"/{id}/submissions", s.handle(s.submitForm))
	case "pages":
		mux.Handle("GET "+path+"/{slug}", s.handle(s.page))
	case "site":
		mux.Handle("GET "+path, s.handle(s.siteBundle))
	case "sitemap.xml":
		mux.Handle("GET "+path, s.handle(s.sitemap))
	case "robots.txt":
		mux.Handle("GET "+path, s.handle(s.robots))
	}
}
