package pages_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// withLanguages gives the tenant's site French beside English.
func withLanguages(t *testing.T, tn testkit.Tenant, codes ...string) {
	t.Helper()
	cur := as(t, tn, "GET", "/site-settings", nil)
	check(t, as(t, tn, "PATCH", "/site-settings", map[string]any{"languages": codes, "version": cur.Get("result.version")}), http.StatusOK, "")
}

// TestSectionTranslations: a section's texts are translated through the page's save: a partial
// translation merges into what the section holds, "" removes a text and null a language, a
// section sent without translations keeps its own, items keep theirs by id when they move and
// lose them when they go; each text is checked by its default text's rule (errors keyed under
// pageSections[i].translations.fr…), and a language not of the site is refused.
func TestSectionTranslations(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	id, _ := newPage(t, tn, "Home")
	save := func(secs []map[string]any) testkit.Response {
		t.Helper()
		return as(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": secs, "version": version(t, tn, id)})
	}
	fr := map[string]any{"fr": map[string]any{"title": "Cartes", "items": map[string]any{"item-a": map[string]any{"title": "Article A", "ctaText": "Plus"}}}}
	cards := map[string]any{"title": "Cards", "subTitle": "Our cards", "pageSectionTypeId": types["card-row"], "config": items(2, nil), "translations": fr}

	// Not yet a language of the site.
	res := save([]map[string]any{cards})
	check(t, res, http.StatusBadRequest, "")
	if errs, _ := res.Body["errors"].(map[string]any); errs["pageSections[0].translations.fr"] == nil {
		t.Fatalf("not refused under the section's key: %s", res.Raw)
	}
	withLanguages(t, tn, "fr")
	res = save([]map[string]any{cards})
	check(t, res, http.StatusOK, "")
	sec := sectionsOf(t, res)[0]
	secID := sec["id"].(string)
	if res.Get("result.pageSections.0.translations.fr.title") != "Cartes" ||
		res.Get("result.pageSections.0.translations.fr.items.item-a.title") != "Article A" {
		t.Fatalf("saved: %s", res.Raw)
	}

	// Partial: the sub-title and item B are added, the title kept; items swapped keep theirs by id.
	var list []map[string]any
	_ = json.Unmarshal([]byte(items(2, nil)), &list)
	list[0], list[1] = list[1], list[0]
	swapped, _ := json.Marshal(list)
	res = save([]map[string]any{{"id": secID, "title": "Cards", "subTitle": "Our cards", "pageSectionTypeId": types["card-row"], "config": string(swapped),
		"translations": map[string]any{"fr": map[string]any{"subTitle": "Nos cartes", "items": map[string]any{"item-b": map[string]any{"description": "Texte B"}}}}}})
	check(t, res, http.StatusOK, "")
	tr := res.Get("result.pageSections.0.translations.fr").(map[string]any)
	if tr["title"] != "Cartes" || tr["subTitle"] != "Nos cartes" || res.Get("result.pageSections.0.translations.fr.items.item-a.ctaText") != "Plus" ||
		res.Get("result.pageSections.0.translations.fr.items.item-b.description") != "Texte B" {
		t.Fatalf("partial merge: %s", res.Raw)
	}

	// Sent without translations (an older client): kept. "" removes a text; an item gone takes its texts.
	res = save([]map[string]any{{"id": secID, "title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(1, nil)}})
	check(t, res, http.StatusOK, "")
	if res.Get("result.pageSections.0.translations.fr.title") != "Cartes" || res.Get("result.pageSections.0.translations.fr.items.item-b") != nil {
		t.Fatalf("kept / pruned: %s", res.Raw)
	}
	res = save([]map[string]any{{"id": secID, "title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(1, nil),
		"translations": map[string]any{"fr": map[string]any{"title": "", "subTitle": nil}}}})
	check(t, res, http.StatusOK, "")
	if tr := res.Get("result.pageSections.0.translations.fr").(map[string]any); tr["title"] != nil || tr["subTitle"] != nil || tr["items"] == nil {
		t.Fatalf("texts removed: %s", res.Raw)
	}

	// The rules of the default texts, per language, keyed under the section.
	res = save([]map[string]any{{"id": secID, "title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(1, nil),
		"translations": map[string]any{"fr": map[string]any{"title": strings.Repeat("x", 201), "image": "x.png",
			"items": map[string]any{"item-a": map[string]any{"ctaText": strings.Repeat("y", 101), "ctaUrl": "/fr"}, "nope": map[string]any{"title": "?"}}}}}})
	check(t, res, http.StatusBadRequest, "")
	errs, _ := res.Body["errors"].(map[string]any)
	for _, k := range []string{"pageSections[0].translations.fr.title", "pageSections[0].translations.fr.image",
		"pageSections[0].translations.fr.items.item-a.ctaText", "pageSections[0].translations.fr.items.item-a.ctaUrl",
		"pageSections[0].translations.fr.items.nope"} {
		if errs[k] == nil {
			t.Errorf("no error under %s: %s", k, res.Raw)
		}
	}
	if msg, _ := errs["pageSections[0].translations.fr.title"].(string); msg != "Title (French) must be at most 200 characters." {
		t.Errorf("message: %q", msg)
	}
	check(t, save([]map[string]any{{"id": secID, "title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(1, nil),
		"translations": map[string]any{"xx": map[string]any{"title": "?"}}}}), http.StatusBadRequest, "")

	// Hostile HTML is text, as in the default language: stored as typed, never markup (the
	// website escapes every section text); the same size rule holds.
	hostile := `<img src=x onerror=alert(1)><script>alert(2)</script>`
	res = save([]map[string]any{{"id": secID, "title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(1, nil),
		"translations": map[string]any{"fr": map[string]any{"items": map[string]any{"item-a": map[string]any{"description": hostile}}}}}})
	check(t, res, http.StatusOK, "")

	// The section route (PATCH /page-sections/{id}) merges the same way.
	res = as(t, tn, "PATCH", "/page-sections/"+secID, map[string]any{"translations": map[string]any{"fr": map[string]any{"title": "Cartes !"}}})
	check(t, res, http.StatusOK, "")
	if res.Get("result.translations.fr.title") != "Cartes !" || res.Get("result.translations.fr.items.item-a.ctaText") != "Plus" {
		t.Fatalf("section route: %s", res.Raw)
	}

	// null removes the language: the page no longer lists it, and French can leave the site.
	res = save([]map[string]any{{"id": secID, "title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(1, nil),
		"translations": map[string]any{"fr": nil}}})
	check(t, res, http.StatusOK, "")
	if res.Get("result.pageSections.0.translations") != nil {
		t.Fatalf("language removed: %s", res.Raw)
	}
	withLanguages(t, tn)
}

// TestSectionTranslationsHoldTheLanguage: while a section holds a French text, French cannot be
// taken off the site (the language counters count the page's sections' languages); once the
// page is deleted it can.
func TestSectionTranslationsHoldTheLanguage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	withLanguages(t, tn, "fr")
	id, _ := newPage(t, tn, "Home")
	check(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": []map[string]any{{"title": "Banner",
		"pageSectionTypeId": types["banner"], "config": items(1, nil), "translations": map[string]any{"fr": map[string]any{"title": "Bannière"}}}}}), http.StatusOK, "")
	cur := as(t, tn, "GET", "/site-settings", nil)
	res := as(t, tn, "PATCH", "/site-settings", map[string]any{"languages": []string{}, "version": cur.Get("result.version")})
	check(t, res, http.StatusConflict, "")
	check(t, as(t, tn, "DELETE", "/pages/"+id, nil), http.StatusOK, "")
	withLanguages(t, tn)
}

// TestSectionTranslationsInVersions: a version keeps the sections' translations as they were, a
// restore brings them back whole (a text added since is gone again), and another tenant's
// token is refused on the page and its section.
func TestSectionTranslationsInVersions(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	types := typeIDs(t, tn)
	withLanguages(t, tn, "fr")
	id, _ := newPage(t, tn, "Home")
	sec := func(tr map[string]any) []map[string]any {
		return []map[string]any{{"title": "Banner", "pageSectionTypeId": types["banner"], "config": items(1, nil), "translations": tr}}
	}
	res := as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": sec(map[string]any{"fr": map[string]any{"title": "Bannière"}})})
	check(t, res, http.StatusOK, "")
	secID := sectionsOf(t, res)[0]["id"].(string)
	next := sec(map[string]any{"fr": map[string]any{"subTitle": "Ajouté", "title": "Bannière 2"}})
	next[0]["id"] = secID
	check(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 2, "pageSections": next}), http.StatusOK, "")
	v2 := as(t, tn, "GET", "/pages/"+id+"/versions/2", nil)
	if !strings.Contains(string(v2.Raw), "Bannière") || strings.Contains(string(v2.Raw), "Ajouté") {
		t.Fatalf("version 2 keeps its translations: %s", v2.Raw)
	}
	res = as(t, tn, "POST", "/pages/"+id+"/versions/2/restore", map[string]any{"version": 3})
	check(t, res, http.StatusOK, "")
	got := as(t, tn, "GET", "/pages/"+id, nil)
	if got.Get("result.pageSections.0.translations.fr.title") != "Bannière" || got.Get("result.pageSections.0.translations.fr.subTitle") != nil {
		t.Fatalf("restored: %s", got.Raw)
	}
	// Another tenant's token: refused on both routes, nothing written.
	theirs := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: other.AdminToken, Body: body})
	}
	if res := theirs("PATCH", "/pages/"+id, map[string]any{"version": 4, "pageSections": sec(map[string]any{"fr": map[string]any{"title": "Pirate"}})}); res.Status < 400 || res.Status >= 500 {
		t.Fatalf("another tenant's token on the page: %d %s", res.Status, res.Raw)
	}
	if res := theirs("PATCH", "/page-sections/"+secID, map[string]any{"translations": map[string]any{"fr": map[string]any{"title": "Pirate"}}}); res.Status < 400 || res.Status >= 500 {
		t.Fatalf("another tenant's token on the section: %d %s", res.Status, res.Raw)
	}
	if strings.Contains(string(as(t, tn, "GET", "/pages/"+id, nil).Raw), "Pirate") {
		t.Fatal("written by another tenant's token")
	}
}

// TestSectionTranslationsOutdated: a default text changed after its translation marks that
// translation outdated (per language, by path) until the translation is saved again; a text the
// same write translates is not marked; the section route marks the same way; outdated sent by a
// client is ignored.
func TestSectionTranslationsOutdated(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	withLanguages(t, tn, "fr", "de")
	id, _ := newPage(t, tn, "Home")
	save := func(sec map[string]any) testkit.Response {
		t.Helper()
		return as(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": []map[string]any{sec}, "version": version(t, tn, id)})
	}
	cfg := func(title string) string {
		return `[{"id":"a","title":"` + title + `","description":"Text"}]`
	}
	res := save(map[string]any{"title": "Banner", "subTitle": "Sub", "pageSectionTypeId": types["banner"], "config": cfg("Item"),
		"translations": map[string]any{"fr": map[string]any{"title": "Bannière", "subTitle": "Sous", "items": map[string]any{"a": map[string]any{"title": "Article"}}},
			"de": map[string]any{"subTitle": "Unter"}}})
	check(t, res, http.StatusOK, "")
	secID := sectionsOf(t, res)[0]["id"].(string)
	// The title and the item's title change; German has neither; French's subTitle is saved anew
	// in the same write (so only the title and item are marked), and a sent outdated is ignored.
	res = save(map[string]any{"id": secID, "title": "Big banner", "subTitle": "Sub 2", "pageSectionTypeId": types["banner"], "config": cfg("Item 2"),
		"translations": map[string]any{"fr": map[string]any{"subTitle": "Sous 2", "outdated": []string{"bogus"}}}})
	check(t, res, http.StatusOK, "")
	if got := fmt.Sprint(res.Get("result.pageSections.0.translations.fr.outdated")); got != "[items.a.title title]" {
		t.Fatalf("fr outdated %s: %s", got, res.Raw)
	}
	if got := fmt.Sprint(res.Get("result.pageSections.0.translations.de.outdated")); got != "[subTitle]" {
		t.Fatalf("de outdated %s: %s", got, res.Raw)
	}
	// Saved again: unmarked. The section route keeps and adds marks the same way.
	res = save(map[string]any{"id": secID, "title": "Big banner", "subTitle": "Sub 2", "pageSectionTypeId": types["banner"], "config": cfg("Item 2"),
		"translations": map[string]any{"fr": map[string]any{"title": "Grande bannière"}}})
	check(t, res, http.StatusOK, "")
	if got := fmt.Sprint(res.Get("result.pageSections.0.translations.fr.outdated")); got != "[items.a.title]" {
		t.Fatalf("fr outdated after saving the title %s: %s", got, res.Raw)
	}
	res = as(t, tn, "PATCH", "/page-sections/"+secID, map[string]any{"title": "Huge banner"})
	check(t, res, http.StatusOK, "")
	if got := fmt.Sprint(res.Get("result.translations.fr.outdated")); got != "[items.a.title title]" {
		t.Fatalf("fr outdated after the section route %s: %s", got, res.Raw)
	}
}
