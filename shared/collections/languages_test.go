package collections_test

import (
	"fmt"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestLanguagesCatalogueRoute: GET /languages lists the catalogue (own names, English names,
// direction) to any signed-in user of the tenant, and to nobody else.
func TestLanguagesCatalogueRoute(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	nobody := testkit.NewUser(t, tn)
	res := testkit.Call(t, call{Method: "GET", Path: "/languages", Tenant: tn.ID, Token: nobody})
	mustStatus(t, res, 200)
	items, _ := res.Get("result.items").([]any)
	if len(items) < 38 {
		t.Fatalf("%d languages: %s", len(items), res.Raw)
	}
	found := map[string]map[string]any{}
	for _, it := range items {
		m := it.(map[string]any)
		found[fmt.Sprint(m["code"])] = m
	}
	if fr := found["fr"]; fr["name"] != "Français" || fr["english"] != "French" || fr["dir"] != "ltr" {
		t.Fatalf("fr: %v", fr)
	}
	if ar := found["ar"]; ar["name"] != "العربية" || ar["dir"] != "rtl" {
		t.Fatalf("ar: %v", ar)
	}
	mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/languages", Tenant: tn.ID}), 401)
	mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/languages", Tenant: tn.ID, Token: other.AdminToken}), 401)
}

// TestSiteSettingsLanguages: the default language, the others and the policy are saved and
// checked: codes from the catalogue, at most nine others, not the default again, a known policy.
func TestSiteSettingsLanguages(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	as := func(body map[string]any) testkit.Response {
		return testkit.Call(t, call{Method: "PATCH", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	first := testkit.Call(t, call{Method: "GET", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken})
	mustStatus(t, first, 200)
	if first.Get("result.defaultLanguage") != "en" || first.Get("result.missingTranslation") != "fallback" || fmt.Sprint(first.Get("result.languages")) != "[]" {
		t.Fatalf("defaults: %s", first.Raw)
	}
	bad := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"unknown default", map[string]any{"defaultLanguage": "xx"}, "defaultLanguage"},
		{"unknown other", map[string]any{"languages": []string{"fr", "klingon"}}, "languages"},
		{"not a list", map[string]any{"languages": "fr"}, "languages"},
		{"ten others", map[string]any{"languages": []string{"fr", "de", "es", "it", "nl", "pt", "ar", "he", "pl", "ro"}}, "languages"},
		{"default among the others", map[string]any{"languages": []string{"fr", "en"}}, "languages"},
		{"unknown policy", map[string]any{"missingTranslation": "guess"}, "missingTranslation"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			res := as(c.body)
			mustStatus(t, res, 400)
			if res.Get("errors."+c.field) == nil {
				t.Fatalf("no error on %s: %s", c.field, res.Raw)
			}
		})
	}
	res := as(map[string]any{"defaultLanguage": "en", "languages": []string{"fr", "ar", "fr"}, "missingTranslation": "hide"})
	mustStatus(t, res, 200)
	if fmt.Sprint(res.Get("result.languages")) != "[fr ar]" || res.Get("result.missingTranslation") != "hide" {
		t.Fatalf("saved: %s", res.Raw)
	}
	again := testkit.Call(t, call{Method: "GET", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken})
	if fmt.Sprint(again.Get("result.languages")) != "[fr ar]" {
		t.Fatalf("reloaded: %s", again.Raw)
	}
	// With no translation written yet, the default may change and a language may go.
	mustStatus(t, as(map[string]any{"defaultLanguage": "fr", "languages": []string{"en"}}), 200)
}
