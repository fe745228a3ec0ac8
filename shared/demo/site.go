package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/menu"
)

// menuEntry is a menu item as the seed declares it; a page entry names the page's seed key.
type menuEntry struct {
	key, label, url, page string
	children              []menuEntry
}

var menuEntries = []menuEntry{
	{key: "home", label: "Home", url: "/"},
	{key: "about", label: "About", page: "about"},
	{key: "admissions", label: "Admissions", page: "admissions", children: []menuEntry{
		{key: "resources", label: "Prospectus & Fees", url: "/resources"},
		{key: "faqs", label: "FAQs", url: "/faqs"},
	}},
	{key: "events", label: "Events", url: "/events"},
	{key: "news", label: "News", url: "/notices"},
	{key: "gallery", label: "Gallery", url: "/albums"},
	{key: "staff", label: "Staff", url: "/staff"},
	{key: "contact", label: "Contact", page: "contact"},
}

// menuItem builds one item through the menu package's own checks (menu.NewItem: label, type,
// URL), children attached after, since a new item carries none.
func (sd *seeder) menuItem(e menuEntry) (menu.Item, error) {
	typ, url := menu.TypeCustomURL, e.url
	if e.page != "" {
		typ, url = menu.TypePage, sd.id("pages/"+e.page)
	}
	it, err := menu.NewItem(sd.id("menu/"+e.key), menu.Input{Label: &e.label, Type: &typ, URL: &url})
	if err != nil {
		return menu.Item{}, fmt.Errorf("demo: menu item %s: %w", e.label, err)
	}
	for _, c := range e.children {
		kid, err := sd.menuItem(c)
		if err != nil {
			return menu.Item{}, err
		}
		it.Children = append(it.Children, kid)
	}
	return it, nil
}

// writeMenu saves the demo menu unless the tenant has one: a menu staff built is never replaced.
func (sd *seeder) writeMenu(ctx context.Context) error {
	items := make([]menu.Item, 0, len(menuEntries))
	for _, e := range menuEntries {
		it, err := sd.menuItem(e)
		if err != nil {
			return err
		}
		items = append(items, it)
	}
	created, err := menu.Create(ctx, sd.st, sd.scope, items, sd.now)
	if err != nil {
		return fmt.Errorf("demo: menu: %w", err)
	}
	if !created {
		sd.sum.Existing++
		return nil
	}
	sd.sum.Written["menu"]++
	return nil
}

// settings are the demo's header, footer, theme settings and SEO defaults, by collection. The
// theme settings choose no font: the theme's default, the device's own interface font (the
// website's system stack), which no visitor downloads.
func (sd *seeder) settings() []record {
	name, tenant := sd.tenant.Name, sd.scope.Tenant()
	return []record{
		{"header", "", map[string]any{"title": name, "logoUrl": sd.refs["logo"], "textColor": "#1f2937",
			"backgroundColor": "#ffffff", "showLogo": true, "sticky": true}},
		{"footer", "", map[string]any{"backgroundColor": "#0f172a", "textColor": "#f8fafc", "logoUrl": sd.refs["logo"],
			"contactEmail": "hello@" + tenant + ".example.org", "phoneNumber": "+1 555 010 0100",
			"address": "1 College Road\nRiverside, ST 12345", "copyrightText": fmt.Sprintf("© %d %s. All rights reserved.", sd.now.Year(), name),
			"showNewsletterSignup": true, "showContactInfo": true, "showCopyright": true}},
		{"theme-settings", "", map[string]any{"theme": "classic", "colorSchemeName": "Blue", "fontFamily": ""}},
		{"seo-settings", "", map[string]any{"defaultTitle": name, "defaultDescription": "Courses for school leavers, adults and professionals at " + name + ".",
			"defaultKeywords": "college, courses, adult education, evening classes", "ogTitle": name,
			"ogDescription": "Small classes, big futures.", "ogImageUrl": "/media/" + tenant + "/" + sd.refs["hero-1"],
			"twitterCard": "summary_large_image"}},
	}
}

// saveSetting saves one settings singleton through the engine's own save (PatchSingleton: field
// checks, the collection's hooks, a version-conditioned put), only while it still holds what
// tenant creation wrote (version 1, or never saved): settings staff or an earlier run saved
// are left alone.
func (sd *seeder) saveSetting(ctx context.Context, r record) error {
	c := sd.reg[r.collection]
	cur, err := sd.svc.LoadSingleton(ctx, sd.scope, c, "")
	if err != nil {
		return fmt.Errorf("demo: read %s: %w", r.collection, err)
	}
	// A stored version reads back as a float64; the defaults of a never-saved singleton hold an int.
	version, _ := cur["version"].(float64)
	if n, ok := cur["version"].(int); ok {
		version = float64(n)
	}
	if version > 1 {
		sd.sum.Existing++
		return nil
	}
	body := map[string]any{"version": int(version)}
	for k, v := range r.body {
		body[k] = v
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("demo: %s: %w", r.collection, err)
	}
	// PatchSingleton reads its caller and body from a request, as its hooks' routes call it.
	req := httptest.NewRequestWithContext(auth.WithCaller(ctx, sd.caller), http.MethodPatch, "/"+r.collection, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	err = sd.svc.PatchSingleton(httptest.NewRecorder(), req, c)
	switch {
	case errors.Is(err, api.ErrConflict):
		sd.sum.Existing++ // saved by someone else since we read it
		return nil
	case err != nil:
		return fmt.Errorf("demo: save %s: %s", r.collection, describe(err))
	}
	sd.sum.Written[r.collection]++
	return nil
}
