package forms_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func withLanguages(t *testing.T, tn testkit.Tenant, codes ...string) testkit.Response {
	t.Helper()
	cur := testkit.Call(t, call{Method: "GET", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken})
	return testkit.Call(t, call{Method: "PATCH", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"languages": codes, "version": cur.Get("result.version")}})
}

// storedFields are a form's fields as GET answers them.
func storedFields(t *testing.T, tn testkit.Tenant, id string) ([]map[string]any, float64) {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	var out []map[string]any
	if err := json.Unmarshal([]byte(res.Get("result.fields").(string)), &out); err != nil {
		t.Fatal(err)
	}
	return out, res.Get("result.version").(float64)
}

// TestFormFieldTranslations: a form's fields carry their label, hint and option names in other
// languages (options by id, a new option's NEW_ id mapped to the saved one); a save merges a
// field's translations into what it holds (kept when sent without, "" removes a text, null a
// language); the default texts' rules hold per language, errors keyed
// fields.{i}.translations.fr…; a language not of the site is refused; a version keeps them and a
// restore brings them back; while a field holds French, French cannot leave the site; another
// tenant's token is refused.
func TestFormFieldTranslations(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	fields := []map[string]any{
		{"id": "NEW_1", "label": "Name", "fieldType": "text", "required": true, "hint": "Your full name",
			"translations": map[string]any{"fr": map[string]any{"label": "Nom"}}},
		{"id": "NEW_2", "label": "Course", "fieldType": "select", "options": []map[string]any{{"id": "NEW_3", "name": "Art"}, {"id": "NEW_4", "name": "Maths"}},
			"translations": map[string]any{"fr": map[string]any{"label": "Cours", "options": map[string]any{"NEW_3": "Arts"}}}},
	}
	body := map[string]any{"name": "Admissions", "image": cover, "fields": fieldsText(t, fields)}
	res := testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, http.StatusBadRequest, "")
	if errs, _ := res.Body["errors"].(map[string]any); errs["fields.0.translations.fr"] == nil {
		t.Fatalf("a language not of the site: %s", res.Raw)
	}
	testkit.Expect(t, withLanguages(t, tn, "fr"), http.StatusOK, "")
	res = testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)
	saved, v := storedFields(t, tn, id)
	art := saved[1]["options"].([]any)[0].(map[string]any)["id"].(string)
	if tr := saved[1]["translations"].(map[string]any)["fr"].(map[string]any); tr["label"] != "Cours" || tr["options"].(map[string]any)[art] != "Arts" {
		t.Fatalf("saved: %v", saved)
	}

	patch := func(tok string, fields any, version float64) testkit.Response {
		t.Helper()
		return testkit.Call(t, call{Method: "PATCH", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tok,
			Body: map[string]any{"fields": fieldsText(t, fields), "version": version}})
	}
	// Partial: the hint added to Name's French; Course sent without translations keeps its own.
	saved[0]["translations"] = map[string]any{"fr": map[string]any{"hint": "Votre nom complet"}}
	delete(saved[1], "translations")
	testkit.Expect(t, patch(tn.AdminToken, saved, v), http.StatusOK, "")
	after, v := storedFields(t, tn, id)
	if tr := after[0]["translations"].(map[string]any)["fr"].(map[string]any); tr["label"] != "Nom" || tr["hint"] != "Votre nom complet" {
		t.Fatalf("merged: %v", after)
	}
	if after[1]["translations"] == nil {
		t.Fatalf("kept: %v", after)
	}
	// A default text changed (Name's label, Course's option Art): the French ones are outdated
	// until saved again; Name's hint, unchanged, is not.
	changed := []map[string]any{clone(after[0], nil), clone(after[1], nil)}
	delete(changed[0], "translations")
	delete(changed[1], "translations")
	changed[0]["label"] = "Full name"
	opts := after[1]["options"].([]any)
	changed[1]["options"] = []any{map[string]any{"id": art, "name": "Fine art"}, opts[1]}
	testkit.Expect(t, patch(tn.AdminToken, changed, v), http.StatusOK, "")
	after, v = storedFields(t, tn, id)
	if got := fmt.Sprint(after[0]["translations"].(map[string]any)["fr"].(map[string]any)["outdated"]); got != "[label]" {
		t.Fatalf("name outdated %s: %v", got, after)
	}
	if got := fmt.Sprint(after[1]["translations"].(map[string]any)["fr"].(map[string]any)["outdated"]); got != "[options."+art+"]" {
		t.Fatalf("course outdated %s: %v", got, after)
	}
	resaved := []map[string]any{clone(after[0], map[string]any{"fr": map[string]any{"label": "Nom complet"}}), after[1]}
	delete(resaved[1], "translations")
	testkit.Expect(t, patch(tn.AdminToken, resaved, v), http.StatusOK, "")
	after, v = storedFields(t, tn, id)
	if tr := after[0]["translations"].(map[string]any)["fr"].(map[string]any); tr["outdated"] != nil || tr["label"] != "Nom complet" {
		t.Fatalf("saved again: %v", after)
	}
	// The rules per language.
	bad := []map[string]any{after[0], after[1]}
	bad[0] = clone(after[0], map[string]any{"fr": map[string]any{"label": strings.Repeat("x", 201), "placeholder": "?"}})
	bad[1] = clone(after[1], map[string]any{"fr": map[string]any{"options": map[string]any{"01ARZ3NDEKTSV4RRFFQ69G5FAV": "?"}}})
	res = patch(tn.AdminToken, bad, v)
	testkit.Expect(t, res, http.StatusBadRequest, "")
	errs, _ := res.Body["errors"].(map[string]any)
	for _, k := range []string{"fields.0.translations.fr.label", "fields.0.translations.fr.placeholder", "fields.1.translations.fr.options.01ARZ3NDEKTSV4RRFFQ69G5FAV"} {
		if errs[k] == nil {
			t.Errorf("no error under %s: %s", k, res.Raw)
		}
	}
	// Another tenant's token: refused.
	if res := patch(other.AdminToken, []map[string]any{clone(after[0], map[string]any{"fr": map[string]any{"label": "Pirate"}})}, v); res.Status != http.StatusUnauthorized {
		t.Fatalf("another tenant's token: %d %s", res.Status, res.Raw)
	}
	// French held: it cannot leave the site.
	testkit.Expect(t, withLanguages(t, tn), http.StatusConflict, "")
	// "" removes a text, null a language; the version before keeps them and a restore brings them back.
	gone := []map[string]any{clone(after[0], map[string]any{"fr": map[string]any{"label": ""}}), clone(after[1], map[string]any{"fr": nil})}
	testkit.Expect(t, patch(tn.AdminToken, gone, v), http.StatusOK, "")
	now, nv := storedFields(t, tn, id)
	if tr := now[0]["translations"].(map[string]any)["fr"].(map[string]any); tr["label"] != nil || tr["hint"] != "Votre nom complet" || now[1]["translations"] != nil {
		t.Fatalf("removed: %v", now)
	}
	res = testkit.Call(t, call{Method: "POST", Path: "/custom-forms/" + id + "/versions/" + ftoa(v) + "/restore", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": nv}})
	testkit.Expect(t, res, http.StatusOK, "")
	if back, _ := storedFields(t, tn, id); back[0]["translations"].(map[string]any)["fr"].(map[string]any)["label"] != "Nom complet" || back[1]["translations"] == nil {
		t.Fatalf("restored: %v", back)
	}
}

func clone(f map[string]any, translations any) map[string]any {
	out := map[string]any{}
	for k, v := range f {
		out[k] = v
	}
	out["translations"] = translations
	return out
}

func ftoa(f float64) string { b, _ := json.Marshal(f); return string(b) }
