package public

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
)

// siteBundle serves GET /site: what every page of the website needs, in one answer: the
// institution's name and logos, its theme and theme settings, SEO defaults, header, footer, site
// settings (the time zone) and menu. DynamoDB calls: the tenant, then one BatchGetItem of the five singletons and the menu,
// then (only when the menu links pages) one BatchGetItem of those pages.
func (s *Service) siteBundle(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	v, err := s.read.Visit(r.Context(), st, Want{})
	if err != nil {
		return err
	}
	set := v.Settings
	footer := s.singletonView(st, "footer", set.Footer)
	footer["socialLinks"] = set.SocialLinks
	out := Record{
		"header": s.singletonView(st, "header", set.Header), "footer": footer,
		"themeSettings": s.singletonView(st, "theme-settings", set.ThemeSettings), "seo": s.singletonView(st, "seo-settings", set.SEO),
		"theme": Record{"id": set.Theme.ID, "name": set.Theme.Name}, "menu": set.Menu,
		"siteSettings": s.singletonView(st, "site-settings", set.SiteSettings),
	}
	t := st.Tenant
	out["institution"] = Record{"id": st.Scope.Tenant(), "name": t.Name, "logoFull": nilIfEmpty(st.mediaURL(t.LogoFull)),
		"appIconLogo": nilIfEmpty(st.mediaURL(t.AppIconLogo)), "fullWidthAppLogo": nilIfEmpty(st.mediaURL(t.FullWidthAppLogo))}
	return writeJSON(w, r, api.Envelope{Result: out})
}

// singletonView is a singleton's record with media references as full URLs.
func (s *Service) singletonView(st *Site, kind string, rec Record) Record {
	out := Record{}
	for name, v := range rec {
		if f, ok := s.views.reg[kind].Field(name); ok && (f.Type == collections.TypeImage || f.Type == collections.TypeFile) {
			ref, _ := v.(string)
			v = nilIfEmpty(st.mediaURL(ref))
		}
		out[name] = v
	}
	return out
}
