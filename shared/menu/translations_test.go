package menu_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func siteLanguages(t *testing.T, tn testkit.Tenant, codes ...string) testkit.Response {
	t.Helper()
	cur := testkit.Call(t, call{Method: "GET", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken})
	return testkit.Call(t, call{Method: "PATCH", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"languages": codes, "version": cur.Get("result.version")}})
}

// TestMenuLabelTranslations: a save carries each item's translations: {"fr": {"label": …}},
// merged into the item's (kept when an item is sent without them, a label "" or a language null
// removes it); the default label's rule holds per language; a language not of the site is
// refused; versions and restore carry them; while a label holds French, French cannot leave the
// site; another tenant's token is refused.
func TestMenuLabelTranslations(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id := add(t, tn, map[string]any{"label": "About", "url": "/about"})["id"].(string)
	save := func(tok string, items ...map[string]any) testkit.Response {
		t.Helper()
		_, v := tree(t, tn)
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = it
		}
		return testkit.Call(t, call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tok, Body: map[string]any{"menuItems": list, "version": v}})
	}
	fr := func(label any) map[string]any { return map[string]any{"fr": map[string]any{"label": label}} }

	res := save(tn.AdminToken, map[string]any{"id": id, "translations": fr("À propos")})
	testkit.Expect(t, res, http.StatusBadRequest, "")
	if errs, _ := res.Body["errors"].(map[string]any); errs["translations.fr"] == nil {
		t.Fatalf("a language not of the site: %s", res.Raw)
	}
	testkit.Expect(t, siteLanguages(t, tn, "fr", "ar"), http.StatusOK, "")
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "translations": fr("À propos")}), http.StatusOK, "Menu Items Updated")
	// Sent without translations: kept; another language added beside.
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "label": "About us"}), http.StatusOK, "")
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "translations": map[string]any{"ar": map[string]any{"label": "من نحن"}}}), http.StatusOK, "")
	items, _ := tree(t, tn)
	if get(items, "0.translations.fr.label") != "À propos" || get(items, "0.translations.ar.label") != "من نحن" || get(items, "0.label") != "About us" {
		t.Fatalf("merged: %v", items)
	}
	// The default label changed: its translations are outdated until saved again.
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "label": "About the school", "translations": map[string]any{"ar": map[string]any{"label": "عن المدرسة"}}}), http.StatusOK, "")
	items, _ = tree(t, tn)
	if get(items, "0.translations.fr.outdated") != true || get(items, "0.translations.ar.outdated") != nil {
		t.Fatalf("outdated: %v", items)
	}
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "translations": fr("À propos de l'école")}), http.StatusOK, "")
	if items, _ = tree(t, tn); get(items, "0.translations.fr.outdated") != nil {
		t.Fatalf("saved again: %v", items)
	}
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "label": "About us", "translations": map[string]any{"fr": map[string]any{"label": "À propos"}, "ar": map[string]any{"label": "من نحن"}}}), http.StatusOK, "")
	// Per language, the default label's rule; nothing else translatable.
	for body, key := range map[string]map[string]any{
		"translations.fr.label": fr(strings.Repeat("x", 101)),
		"translations.fr.url":   {"fr": map[string]any{"url": "/fr"}},
		"translations":          {"zz": map[string]any{"label": "?"}},
	} {
		res := save(tn.AdminToken, map[string]any{"id": id, "translations": key})
		testkit.Expect(t, res, http.StatusBadRequest, "")
		if errs, _ := res.Body["errors"].(map[string]any); errs[body] == nil {
			t.Errorf("no error under %s: %s", body, res.Raw)
		}
	}
	// Another tenant's token: refused, nothing written.
	testkit.Expect(t, save(other.AdminToken, map[string]any{"id": id, "translations": fr("Pirate")}), http.StatusUnauthorized, "")
	// French held by a label: it cannot leave the site.
	testkit.Expect(t, siteLanguages(t, tn, "ar"), http.StatusConflict, "")

	// "" removes the French label; the version before keeps it and a restore brings it back.
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "translations": fr("")}), http.StatusOK, "")
	items, v := tree(t, tn)
	if get(items, "0.translations.fr") != nil || get(items, "0.translations.ar.label") != "من نحن" {
		t.Fatalf("fr removed: %v", items)
	}
	kept := testkit.Call(t, call{Method: "GET", Path: "/menu-items/versions/" + strconv.Itoa(int(v)-1), Tenant: tn.ID, Token: tn.AdminToken})
	if get(kept.Body["result"].([]any), "0.translations.fr.label") != "À propos" {
		t.Fatalf("version: %s", kept.Raw)
	}
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/menu-items/versions/" + strconv.Itoa(int(v)-1) + "/restore", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": v}}), http.StatusOK, "")
	if items, _ := tree(t, tn); get(items, "0.translations.fr.label") != "À propos" {
		t.Fatalf("restored: %v", items)
	}
	// Every language removed: the languages can leave the site.
	testkit.Expect(t, save(tn.AdminToken, map[string]any{"id": id, "translations": map[string]any{"fr": nil, "ar": nil}}), http.StatusOK, "")
	testkit.Expect(t, siteLanguages(t, tn), http.StatusOK, "")
}
