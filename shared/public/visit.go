package public

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/menu"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/themes"
)

// Settings are what every page of the website shows: the singletons (declared fields, defaults
// where never saved, media references as stored), the active theme and the visible menu.
type Settings struct {
	Header        Record
	Footer        Record
	ThemeSettings Record
	SEO           Record
	// SiteSettings are the tenant-wide switches (the time zone of the events calendar): TimeZone
	// reads it.
	SiteSettings Record
	// SocialLinks are the footer's social links while Show Social Links is on (social.go).
	SocialLinks []SocialLink
	// Theme is the catalogue's theme the settings name; an id the catalogue no longer holds
	// falls back to its first theme, so a site always renders.
	Theme themes.Theme
	Menu  []MenuItem
	// rawMenu is the stored tree, before visibility.
	rawMenu []menu.Item
}

// MenuItem is a menu entry as the website shows it. A PAGE item's url is the page's website
// path ("/{slug}"), resolved from the page id the panel stores.
type MenuItem struct {
	ID       string     `json:"id"`
	Label    string     `json:"label"`
	Type     string     `json:"type"`
	URL      string     `json:"url"`
	Children []MenuItem `json:"children"`
	// FallbackFields is ["label"] where the site is read in another language and the item's
	// label has no translation in it (shown in the default language, marked as such).
	FallbackFields []string `json:"fallbackFields,omitempty"`
}

// settingsOf are the singleton collections of Settings, by the field they fill.
var settingsOf = []struct {
	kind string
	set  func(*Settings, Record)
}{
	{"header", func(s *Settings, r Record) { s.Header = r }},
	{"footer", func(s *Settings, r Record) { s.Footer = r }},
	{"theme-settings", func(s *Settings, r Record) { s.ThemeSettings = r }},
	{"seo-settings", func(s *Settings, r Record) { s.SEO = r }},
	{"site-settings", func(s *Settings, r Record) { s.SiteSettings = r }},
}

// TimeZone is the institution's time zone (the site settings' timeZone), UTC when none is set or
// the stored name is no longer one the time zone database knows.
func (s *Settings) TimeZone() *time.Location {
	name, _ := s.SiteSettings["timeZone"].(string)
	if loc, ok := formats.TimeZone(name); ok {
		return loc
	}
	return time.UTC
}

// Want says what a Visit reads besides the site's settings.
type Want struct {
	// Tenant reads the tenant's details in the same batch (the website; the JSON API has read
	// them already to answer 404 for an unknown tenant first).
	Tenant bool
	// Slug reads the visible page at that slug with its sections.
	Slug string
	// PageID reads that page whatever its visibility (a preview the caller has authorised).
	PageID string
	// Draft shows PageID's draft (collections' workflow) in place of the page as saved: its
	// fields and sections, as a preview of the draft (a new page's draft has no page yet).
	Draft bool
	// NoSettings skips the singletons and menu (the JSON API's page route).
	NoSettings bool
}

// Visit is what one website request reads.
type Visit struct {
	Site     *Site
	Settings *Settings
	// Page is the page asked for; nil when there is none to show.
	Page *Page
}

// Visit reads what one request of the website needs in two round trips, whatever the tenant
// holds: one BatchGetItem of the tenant, the five singletons, the menu and the slug marker asked
// for; then, side by side, one BatchGetItem of the slugs and flags of the pages the menu links,
// one GetItem of the page and one Query of its sections. site carries the tenant's scope and
// origin; its Tenant is filled in when want.Tenant (api.ErrUnknownTenant when there is no such
// tenant).
func (r *Reader) Visit(ctx context.Context, site *Site, want Want) (*Visit, error) {
	scope := site.Scope
	root := scope.Root()
	tenantKey := store.Key{PK: root, SK: store.SKTenant}
	menuKey := store.Key{PK: root, SK: menu.SK}
	var keys []store.Key
	if want.Tenant {
		keys = append(keys, tenantKey)
	}
	if !want.NoSettings {
		keys = append(keys, menuKey)
		for _, s := range settingsOf {
			c, err := r.singleton(s.kind)
			if err != nil {
				return nil, err
			}
			keys = append(keys, store.Key{PK: root, SK: c.Singleton})
		}
	}
	var markerKey, langMarkerKey store.Key
	if want.Slug != "" {
		markerKey = pages.SlugKey(scope, want.Slug)
		keys = append(keys, markerKey)
		if site.Lang != "" {
			// /fr/a-propos: the page with that French slug, else the one with that default slug
			// (which the website redirects to its French slug, slugs[fr], when it has one).
			langMarkerKey = pages.SlugKeyIn(scope, site.Lang, want.Slug)
			keys = append(keys, langMarkerKey)
		}
	}
	var first map[store.Key]dynamo.Item
	if len(keys) > 0 {
		var err error
		if first, err = r.st.GetMany(ctx, keys...); err != nil {
			return nil, err
		}
	}
	if want.Tenant {
		var t store.Tenant
		if ok, err := store.Decode(first, tenantKey, &t); err != nil {
			return nil, err
		} else if !ok {
			return nil, api.ErrUnknownTenant
		}
		site.Tenant = t
	}
	v := &Visit{Site: site}
	var links []string
	if !want.NoSettings {
		set, err := r.settings(site, first, menuKey)
		if err != nil {
			return nil, err
		}
		v.Settings = set
		links = menu.PageIDs(set.rawMenu)
	}
	pageID := want.PageID
	if want.Slug != "" {
		if it, ok := first[langMarkerKey]; ok && site.Lang != "" {
			pageID = pages.MarkerPageID(it)
		} else if it, ok := first[markerKey]; ok {
			pageID = pages.MarkerPageID(it)
		}
	}
	// What is left needs only the first batch, so it is read side by side: the menu's pages
	// (just their slugs and flags), the page asked for and its sections.
	var (
		linked  map[string]Record
		rec     Record
		found   bool
		secs    []pages.Section
		errs    [3]error
		reading sync.WaitGroup
	)
	reading.Go(func() { linked, errs[0] = r.menuPages(ctx, site, links) })
	if pageID != "" {
		// A preview shows what was just saved: read strongly consistent.
		st := r.st
		if want.PageID != "" {
			st = r.panel
		}
		reading.Go(func() { rec, found, errs[1] = pages.LoadPage(ctx, st, scope, pageID) })
		reading.Go(func() { secs, errs[2] = pages.Sections(ctx, st, scope, pageID) })
	}
	reading.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	if v.Settings != nil {
		shown := map[string]Record{}
		for id, p := range linked {
			if loc, ok := r.localize(site, pagesKind, p); ok {
				shown[id] = loc
			}
		}
		v.Settings.Menu = visibleMenu(v.Settings.rawMenu, shown, r.Now(), site)
	}
	// A marker is written in the page's own transaction; the slug check keeps a page answering
	// only to the slug it holds now.
	if want.Draft && want.PageID != "" {
		var err error
		if rec, secs, found, err = r.draftPage(ctx, scope, pageID, rec, secs); err != nil {
			return nil, err
		}
	}
	if !found || (want.PageID == "" && !Visible(pagesKind, rec, r.Now())) {
		return v, nil
	}
	loc, ok := r.localize(site, pagesKind, rec)
	secTexts := sectionTexts(site, rec)
	if !ok && want.PageID != "" {
		// A preview shows the page even where the hide policy leaves it out: in the default language.
		def, _ := site.InLanguage(site.DefaultLanguage())
		loc, ok = r.localize(def, pagesKind, rec)
		secTexts = nil
	}
	if !ok || (want.PageID == "" && rec["slug"] != want.Slug && loc["slug"] != want.Slug) {
		return v, nil
	}
	v.Page = newPage(loc, secs, secTexts)
	return v, nil
}

func (r *Reader) singleton(kind string) (*collections.Collection, error) {
	c := r.reg[kind]
	if c == nil || c.Singleton == "" {
		return nil, fmt.Errorf("public: %s is not a singleton collection", kind)
	}
	return c, nil
}

// settings decodes the singletons and the menu from the first batch.
func (r *Reader) settings(site *Site, items map[store.Key]dynamo.Item, menuKey store.Key) (*Settings, error) {
	out := &Settings{}
	stored := map[string]Record{}
	for _, s := range settingsOf {
		c, err := r.singleton(s.kind)
		if err != nil {
			return nil, err
		}
		rec := Record{}
		if ok, err := store.Decode(items, store.Key{PK: site.Scope.Root(), SK: c.Singleton}, &rec); err != nil {
			return nil, err
		} else if !ok {
			rec = collections.SingletonDefaults(site.Scope, c)
		}
		stored[s.kind] = rec
	}
	// The site's languages first: the singletons are shown in the site's language.
	site.setLanguages(stored[collections.SettingsCollection])
	for _, s := range settingsOf {
		c, _ := r.singleton(s.kind)
		rec, _ := r.localize(site, s.kind, stored[s.kind])
		view := Record{}
		for _, name := range []string{FieldFallback, FieldAvailable} {
			if v, ok := rec[name]; ok && c.Translatable() {
				view[name] = v
			}
		}
		for _, f := range c.Fields {
			if f.Type == collections.TypePassword {
				continue
			}
			val, ok := rec[f.Name]
			if !ok {
				val = f.Default
			}
			view[f.Name] = val
		}
		s.set(out, view)
	}
	out.SocialLinks = r.socialLinks(out.Footer)
	th, ok := r.themes.Theme(fmt.Sprint(out.ThemeSettings["theme"]))
	if !ok {
		th = r.themes.Themes[0]
	}
	out.Theme = th
	var saved struct {
		Items []menu.Item `dynamo:"items"`
	}
	if _, err := store.Decode(items, menuKey, &saved); err != nil {
		return nil, err
	}
	out.rawMenu = menu.Normalize(saved.Items)
	return out, nil
}

// menuPages reads the pages the menu links, by id, in one BatchGetItem of the fields their
// visibility and path need (never their content): a menu's cost does not grow with its pages.
func (r *Reader) menuPages(ctx context.Context, site *Site, ids []string) (map[string]Record, error) {
	out := map[string]Record{}
	if len(ids) == 0 {
		return out, nil
	}
	scope := site.Scope
	fields := visibilityFields
	if site.Lang != "" {
		// In another language, a page's slug and whether it is published there: its own
		// translation's two attributes, never the translation's texts.
		tr := collections.TranslationsField + "." + site.Lang + "."
		fields = append(slices.Clone(fields), tr+"slug", tr+collections.TranslationPublished, tr+"title")
	}
	keys := make([]dynamo.Keyed, 0, len(ids))
	for _, id := range ids {
		k := pages.PageKey(scope, id)
		keys = append(keys, dynamo.Keys{k.PK, k.SK})
	}
	var recs []Record
	err := r.st.Table.Batch("PK", "SK").Get(keys...).Project(fields...).All(ctx, &recs)
	if err != nil && !errors.Is(err, dynamo.ErrNotFound) {
		return nil, store.Wrap("menu pages", err)
	}
	for _, p := range recs {
		out[fmt.Sprint(p["id"])] = p
	}
	return out, nil
}

// visibilityFields are what Visible and a page's path read of a page.
var visibilityFields = []string{"id", "slug", "status", "isPublished", collections.FieldPublishAt, collections.FieldUnpublishAt}

// visibleMenu is the menu's active items in order; an inactive parent takes its children with it,
// and a PAGE item shows only while its page is Visible (its url then the page's path).
func visibleMenu(items []menu.Item, linked map[string]Record, now time.Time, site *Site) []MenuItem {
	out := []MenuItem{}
	for _, it := range items {
		if !it.Status {
			continue
		}
		u := it.URL
		if it.Type == menu.TypePage {
			p, ok := linked[it.URL]
			if !ok || !Visible(pagesKind, p, now) {
				continue
			}
			u = pagePath(p)
		}
		item := MenuItem{ID: it.ID, Label: it.Label, Type: it.Type, URL: u, Children: visibleMenu(it.Children, linked, now, site)}
		if site.inOtherLanguage() {
			if label := it.Translations[site.Lang].Label; label != "" {
				item.Label = label
			} else {
				item.FallbackFields = []string{"label"}
			}
		}
		out = append(out, item)
	}
	return out
}

// pagePath is the website path of a page.
func pagePath(p Record) string { return "/" + url.PathEscape(fmt.Sprint(p["slug"])) }

// draftPage is page id as its draft would show it: the draft's declared fields in place of the
// page's, and the sections it lists (checked, written nowhere); found false without a draft.
func (r *Reader) draftPage(ctx context.Context, scope store.Scope, id string, live Record, secs []pages.Section) (Record, []pages.Section, bool, error) {
	fields, found, err := collections.DraftFields(ctx, r.panel, scope, pagesKind, id)
	if err != nil || !found {
		return nil, nil, false, err
	}
	rec := Record{"id": id}
	for k, v := range live {
		rec[k] = v
	}
	for _, f := range r.reg[pagesKind].Fields {
		if v, ok := fields[f.Name]; ok && !f.Transient {
			rec[f.Name] = v
		} else if !f.Derived {
			delete(rec, f.Name)
		}
	}
	if raw, ok := fields["pageSections"]; ok {
		// A draft's sections are checked when it is published; the preview shows them as far as
		// they are valid (an invalid one as its defaults), and fails only on a failed read.
		var bad *api.Error
		if secs, err = pages.DraftSections(ctx, r.panel, scope, id, raw, secs); err != nil && !errors.As(err, &bad) {
			return nil, nil, false, err
		}
	}
	return rec, secs, true, nil
}
