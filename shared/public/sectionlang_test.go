package public_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestSectionsInALanguage: a page read in French shows its sections' French texts; a text
// without one keeps the default text and is listed in the section's (title, subTitle) or its
// item's fallbackFields; the stored translations never leave; a kept-back French page (fallback
// policy) shows its sections' default texts, all marked; in the default language nothing is
// marked.
func TestSectionsInALanguage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	siteLanguages(t, tn, "fallback", "fr")
	page := newPage(t, tn, map[string]any{"title": "About us", "slug": "about-us", "isPublished": true, "status": true,
		"translations": map[string]any{"fr": map[string]any{"title": "À propos", "slug": "a-propos"}}})
	sections := []map[string]any{{"title": "Cards", "subTitle": "Our cards", "pageSectionTypeId": "2",
		"config":       `[{"id":"a","title":"Card A","description":"Text A","ctaText":"More","ctaUrl":"/x"},{"id":"b","title":"Card B"}]`,
		"translations": map[string]any{"fr": map[string]any{"title": "Cartes", "items": map[string]any{"a": map[string]any{"title": "Carte A", "ctaText": "Plus"}}}}}}
	res := testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/pages/" + page, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"pageSections": sections, "version": 1}})
	testkit.Expect(t, res, http.StatusOK, "")

	section := func(path string) map[string]any {
		t.Helper()
		p := public(t, req{path: path, tenant: tn.ID})
		expect(t, p, http.StatusOK)
		if strings.Contains(string(p.raw), `"translations"`) {
			t.Fatalf("stored translations shown: %s", p.raw)
		}
		return p.body["result"].(map[string]any)["sections"].([]any)[0].(map[string]any)
	}
	fr := section("/pages/a-propos?lang=fr")
	items := fr["items"].([]any)
	a, b := items[0].(map[string]any), items[1].(map[string]any)
	if fr["title"] != "Cartes" || fr["subTitle"] != "Our cards" || fmt.Sprint(fr["fallbackFields"]) != "[subTitle]" {
		t.Fatalf("section in fr: %v", fr)
	}
	if a["title"] != "Carte A" || a["ctaText"] != "Plus" || a["description"] != "Text A" || fmt.Sprint(a["fallbackFields"]) != "[description]" {
		t.Fatalf("item a in fr: %v", a)
	}
	if b["title"] != "Card B" || fmt.Sprint(b["fallbackFields"]) != "[title]" {
		t.Fatalf("item b in fr: %v", b)
	}
	en := section("/pages/about-us")
	if en["title"] != "Cards" || en["fallbackFields"] != nil || en["items"].([]any)[0].(map[string]any)["fallbackFields"] != nil {
		t.Fatalf("section in the default language: %v", en)
	}

	// The French page kept back: its sections show their default texts, marked.
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/pages/" + page, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"translations": map[string]any{"fr": map[string]any{"published": false}}}}), http.StatusOK, "")
	kept := section("/pages/about-us?lang=fr")
	if kept["title"] != "Cards" || fmt.Sprint(kept["fallbackFields"]) != "[title subTitle]" ||
		kept["items"].([]any)[0].(map[string]any)["title"] != "Card A" {
		t.Fatalf("kept back: %v", kept)
	}
}

// TestMenuInALanguage: the site read in French shows each menu label's French translation; a
// label without one keeps the default label, marked (fallbackFields ["label"]); in the default
// language nothing is marked.
func TestMenuInALanguage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	siteLanguages(t, tn, "fallback", "fr")
	res := testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"menuItems": []any{
			map[string]any{"id": "NEW_a", "label": "About", "url": "/about", "translations": map[string]any{"fr": map[string]any{"label": "À propos"}}},
			map[string]any{"id": "NEW_b", "label": "News", "url": "/news"},
		}}})
	testkit.Expect(t, res, http.StatusOK, "")
	menu := func(path string) []any {
		t.Helper()
		p := public(t, req{path: path, tenant: tn.ID})
		expect(t, p, http.StatusOK)
		if strings.Contains(string(p.raw), `"translations"`) {
			t.Fatalf("stored translations shown: %s", p.raw)
		}
		return p.body["result"].(map[string]any)["menu"].([]any)
	}
	fr := menu("/site?lang=fr")
	a, b := fr[0].(map[string]any), fr[1].(map[string]any)
	if a["label"] != "À propos" || a["fallbackFields"] != nil || b["label"] != "News" || fmt.Sprint(b["fallbackFields"]) != "[label]" {
		t.Fatalf("menu in fr: %v", fr)
	}
	en := menu("/site")
	if en[0].(map[string]any)["label"] != "About" || en[1].(map[string]any)["fallbackFields"] != nil {
		t.Fatalf("menu in the default language: %v", en)
	}
}

// TestFormInALanguage: a form read in French shows its name, labels, hints and option names in
// French where they are translated, the default ones marked (fallbackFields) where not; a
// submission sent in French (French labels and option names) is stored as ever, by the default
// labels and option names, and its errors come back under the French labels.
func TestFormInALanguage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	siteLanguages(t, tn, "fallback", "fr")
	fields := []map[string]any{
		{"id": "NEW_1", "label": "Name", "fieldType": "text", "required": true, "hint": "Your full name",
			"translations": map[string]any{"fr": map[string]any{"label": "Nom"}}},
		{"id": "NEW_2", "label": "Course", "fieldType": "select", "options": []map[string]any{{"id": "NEW_3", "name": "Art"}, {"id": "NEW_4", "name": "Maths"}},
			"translations": map[string]any{"fr": map[string]any{"label": "Cours", "hint": "", "options": map[string]any{"NEW_3": "Arts", "NEW_4": "Mathématiques"}}}},
	}
	raw, _ := json.Marshal(fields)
	id := create(t, tn, "custom-forms", map[string]any{"name": "Admissions", "description": "Apply for 2027", "image": img, "fields": string(raw), "status": true,
		"translations": map[string]any{"fr": map[string]any{"name": "Inscriptions"}}})

	res := public(t, req{path: "/forms/" + id + "?lang=fr", tenant: tn.ID})
	expect(t, res, http.StatusOK)
	if strings.Contains(string(res.raw), `"translations"`) {
		t.Fatalf("stored translations shown: %s", res.raw)
	}
	got := res.body["result"].(map[string]any)
	name, course := got["fields"].([]any)[0].(map[string]any), got["fields"].([]any)[1].(map[string]any)
	if got["name"] != "Inscriptions" || fmt.Sprint(got["fallbackFields"]) != "[description]" {
		t.Fatalf("form in fr: %v", got)
	}
	if name["label"] != "Nom" || name["hint"] != "Your full name" || fmt.Sprint(name["fallbackFields"]) != "[hint]" {
		t.Fatalf("name in fr: %v", name)
	}
	if course["label"] != "Cours" || course["options"].([]any)[1].(map[string]any)["name"] != "Mathématiques" || course["fallbackFields"] != nil {
		t.Fatalf("course in fr: %v", course)
	}
	en := public(t, req{path: "/forms/" + id, tenant: tn.ID}).body["result"].(map[string]any)
	if en["name"] != "Admissions" || en["fields"].([]any)[0].(map[string]any)["label"] != "Name" || en["fallbackFields"] != nil {
		t.Fatalf("form in the default language: %v", en)
	}

	send := func(body string) resp {
		return public(t, req{method: "POST", path: "/forms/" + id + "/submissions?lang=fr", tenant: tn.ID, client: "192.0.2.9:1", body: body})
	}
	expect(t, send(`{"Nom":"Anne","Cours":"Mathématiques"}`), http.StatusCreated)
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/custom-form-submissions?formId=" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, http.StatusOK, "")
	if sub := list.Get("result.0").(map[string]any); sub["Name"] != "Anne" || sub["Course"] != "Maths" || sub["Nom"] != nil {
		t.Fatalf("stored: %s", list.Raw)
	}
	bad := send(`{"Cours":"Arts"}`)
	expect(t, bad, http.StatusBadRequest)
	if errs, _ := bad.body["errors"].(map[string]any); errs["Nom"] == nil {
		t.Fatalf("errors under the French labels: %s", bad.raw)
	}
}
