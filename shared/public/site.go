package public

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/menu"
	"github.com/campuscms/panel/shared/store"
)

// siteSingletons are the singleton collections GET /site shows, by the bundle's key. Their
// declarations are website settings through and through, so every declared field is shown (the
// allow-list is the declaration); version, keys and times never are.
var siteSingletons = map[string]string{
	"header": "header", "footer": "footer", "themeSettings": "theme-settings", "seo": "seo-settings",
}

// publicMenuItem is a menu entry as the website shows it. A PAGE item's url is the page's
// website path ("/{slug}"), resolved from the page id the panel stores.
type publicMenuItem struct {
	ID       string           `json:"id"`
	Label    string           `json:"label"`
	Type     string           `json:"type"`
	URL      string           `json:"url"`
	Children []publicMenuItem `json:"children"`
}

// siteBundle serves GET /site: what every page of the website needs, in one answer: the
// institution's name and logos, its theme and theme settings, SEO defaults, header, footer and
// menu. DynamoDB calls: the tenant, then one BatchGetItem of the four singletons and the menu,
// then (only when the menu links pages) one BatchGetItem of those pages' slugs and flags.
func (s *Service) siteBundle(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	ctx := r.Context()
	root := st.scope.Root()
	menuKey := store.Key{PK: root, SK: menu.SK}
	keys := []store.Key{menuKey}
	byName := map[string]store.Key{}
	for name, kind := range siteSingletons {
		c := s.views.reg[kind]
		if c == nil || c.Singleton == "" {
			return fmt.Errorf("public: %s is not a singleton collection", kind)
		}
		byName[name] = store.Key{PK: root, SK: c.Singleton}
		keys = append(keys, byName[name])
	}
	items, err := s.st.GetMany(ctx, keys...)
	if err != nil {
		return err
	}
	out := Record{}
	for name, kind := range siteSingletons {
		c := s.views.reg[kind]
		rec := collections.SingletonDefaults(st.scope, c)
		var saved Record
		if ok, err := store.Decode(items, byName[name], &saved); err != nil {
			return err
		} else if ok {
			rec = saved
		}
		out[name] = s.singletonView(st, c, rec)
	}
	t := st.tenant
	out["institution"] = Record{"id": st.scope.Tenant(), "name": t.Name, "logoFull": nilIfEmpty(s.views.mediaURL(st, t.LogoFull)),
		"appIconLogo": nilIfEmpty(s.views.mediaURL(st, t.AppIconLogo)), "fullWidthAppLogo": nilIfEmpty(s.views.mediaURL(st, t.FullWidthAppLogo))}
	out["theme"] = s.theme(out["themeSettings"].(Record))
	var saved struct {
		Items []menu.Item `dynamo:"items"`
	}
	if _, err := store.Decode(items, menuKey, &saved); err != nil {
		return err
	}
	nav, err := s.activeMenu(ctx, st, menu.Normalize(saved.Items))
	if err != nil {
		return err
	}
	out["menu"] = nav
	return writeJSON(w, r, api.Envelope{Result: out})
}

// singletonView is a singleton's declared fields, defaults where never saved, media references
// as full URLs.
func (s *Service) singletonView(st *site, c *collections.Collection, rec Record) Record {
	out := Record{}
	for _, f := range c.Fields {
		if f.Type == collections.TypePassword {
			continue
		}
		v, ok := rec[f.Name]
		if !ok {
			v = f.Default
		}
		if ref, isText := v.(string); isText && (f.Type == collections.TypeImage || f.Type == collections.TypeFile) {
			v = nilIfEmpty(s.views.mediaURL(st, ref))
		}
		out[f.Name] = v
	}
	return out
}

// theme is the active theme of the catalogue, named by the theme settings; an id the catalogue
// no longer holds is shown with its id alone.
func (s *Service) theme(settings Record) Record {
	id := fmt.Sprint(settings["theme"])
	if th, ok := s.themes.Theme(id); ok {
		return Record{"id": th.ID, "name": th.Name}
	}
	return Record{"id": id, "name": nil}
}

// activeMenu is the menu's active items in order; an inactive parent takes its children with it,
// and a PAGE item shows only while its page is published and active (its url then the page's
// path). The linked pages are read in one BatchGetItem of their slug and flags.
func (s *Service) activeMenu(ctx context.Context, st *site, items []menu.Item) ([]publicMenuItem, error) {
	var active []menu.Item
	for _, it := range items {
		if !it.Status {
			continue
		}
		kids := it.Children[:0:0]
		for _, c := range it.Children {
			if c.Status {
				kids = append(kids, c)
			}
		}
		it.Children = kids
		active = append(active, it)
	}
	paths, err := s.pagePaths(ctx, st, menu.PageIDs(active))
	if err != nil {
		return nil, err
	}
	var build func([]menu.Item) []publicMenuItem
	build = func(list []menu.Item) []publicMenuItem {
		out := []publicMenuItem{}
		for _, it := range list {
			url := it.URL
			if it.Type == menu.TypePage {
				p, ok := paths[it.URL]
				if !ok {
					continue
				}
				url = p
			}
			out = append(out, publicMenuItem{ID: it.ID, Label: it.Label, Type: it.Type, URL: url, Children: build(it.Children)})
		}
		return out
	}
	return build(active), nil
}

// pagePaths maps the ids of the published, active pages among ids to their website paths.
func (s *Service) pagePaths(ctx context.Context, st *site, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	keys := make([]dynamo.Keyed, len(ids))
	for i, id := range ids {
		keys[i] = dynamo.Keys{st.scope.Collection(menu.PagesCollection), id}
	}
	var pages []Record
	err := s.st.Table.Batch("PK", "SK").Get(keys...).Project("id", "slug", "status", "isPublished").All(ctx, &pages)
	if err != nil && !errors.Is(err, dynamo.ErrNotFound) {
		return nil, store.Wrap("menu pages", err)
	}
	for _, p := range pages {
		if slug, _ := p["slug"].(string); slug != "" && p["status"] == true && p["isPublished"] == true {
			out[fmt.Sprint(p["id"])] = pagePath(p)
		}
	}
	return out, nil
}
