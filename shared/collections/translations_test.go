package collections_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

// languagesOn saves the tenant's Site settings with these other languages.
func languagesOn(t *testing.T, tn testkit.Tenant, others ...string) {
	t.Helper()
	cur := testkit.Call(t, call{Method: "GET", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken})
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"languages": others, "version": cur.Get("result.version")}}), http.StatusOK)
}

func tcall(t *testing.T, tn testkit.Tenant, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
}

// TestTranslatableDeclarations: the declarations mark the contract's fields translatable, and
// only text, longtext and richtext ones.
func TestTranslatableDeclarations(t *testing.T) {
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	for key, names := range map[string][]string{"pages": {"title", "slug", "content", "metaTitle", "ogDescription"}, "faqs": {"question", "answer"},
		"header": {"title"}, "footer": {"address", "copyrightText"}, "staff-members": {"role", "bio"}, "sliders": {"title", "subtitle", "ctaText"}} {
		for _, name := range names {
			if f, ok := reg[key].Field(name); !ok || !f.Translatable {
				t.Errorf("%s.%s is not translatable", key, name)
			}
		}
	}
	for _, key := range reg.Keys() {
		for _, f := range reg[key].Fields {
			if f.Translatable && f.Type != collections.TypeText && f.Type != collections.TypeLongText && f.Type != collections.TypeRichText {
				t.Errorf("%s.%s (%s) is translatable", key, f.Name, f.Type)
			}
		}
	}
	if f, _ := reg["staff-members"].Field("phone"); f.Translatable {
		t.Error("a phone number is translatable")
	}
}

// TestRecordTranslations: a record takes its translations partially, language by language,
// checked and sanitised as its default texts; a default text changed after its translation
// marks it outdated until saved again; lists carry each language's status; a language can be
// kept back and removed.
func TestRecordTranslations(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	// No other language yet: a translation is refused, naming the language.
	res := tcall(t, tn, "POST", "/albums", map[string]any{"title": "Open day", "translations": map[string]any{"fr": map[string]any{"title": "Portes ouvertes"}}})
	mustStatus(t, res, http.StatusBadRequest)
	if !strings.Contains(fmt.Sprint(res.Get("errors")), "French is not one of this site's languages") {
		t.Fatalf("no language: %s", res.Raw)
	}
	languagesOn(t, tn, "fr", "ar")
	res = tcall(t, tn, "POST", "/albums", map[string]any{"title": "Open day", "description": "<p>Come and see</p>",
		"translations": map[string]any{"fr": map[string]any{"title": "Portes ouvertes", "description": `<p onclick="x()">Venez<script>alert(1)</script></p>`}}})
	mustStatus(t, res, http.StatusCreated)
	id := res.Get("result.id").(string)
	if d := fmt.Sprint(res.Get("result.translations.fr.description")); strings.Contains(d, "script") || strings.Contains(d, "onclick") || !strings.Contains(d, "Venez") {
		t.Fatalf("hostile HTML in fr kept: %q", d)
	}
	if res.Get("result.translations.fr.published") != true || res.Get("result.translationStatus.fr.filled") != float64(2) || res.Get("result.translationStatus.fr.total") != float64(2) {
		t.Fatalf("created: %s", res.Raw)
	}
	// A partial translation in a right-to-left language; fr is untouched.
	res = tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"translations": map[string]any{"ar": map[string]any{"title": "يوم مفتوح", "published": false}}})
	mustStatus(t, res, http.StatusOK)
	if res.Get("result.translations.fr.title") != "Portes ouvertes" || res.Get("result.translations.ar.title") != "يوم مفتوح" ||
		res.Get("result.translationStatus.ar.filled") != float64(1) || res.Get("result.translationStatus.ar.published") != false {
		t.Fatalf("partial: %s", res.Raw)
	}
	bad := []struct {
		name, key string
		status    int
		body      map[string]any
	}{
		{"a language not the site's", "translations.de", 400, map[string]any{"de": map[string]any{"title": "Tag der offenen Tür"}}},
		{"not a language", "translations", 400, map[string]any{"klingon": map[string]any{"title": "x"}}},
		{"a field not translatable", "translations.fr.image", 400, map[string]any{"fr": map[string]any{"image": "x"}}},
		{"an unknown field", "translations.fr.nope", 400, map[string]any{"fr": map[string]any{"nope": "x"}}},
		{"too long", "translations.fr.title", 400, map[string]any{"fr": map[string]any{"title": strings.Repeat("a", 501)}}},
		{"not text", "translations.fr.title", 400, map[string]any{"fr": map[string]any{"title": 12}}},
		{"not an object", "translations.fr", 400, map[string]any{"fr": "Portes"}},
		{"oversize rich text", "translations.fr.description", 413, map[string]any{"fr": map[string]any{"description": "<p>" + strings.Repeat("'", 60_000) + "</p>"}}},
		{"published not a boolean", "translations.fr.published", 400, map[string]any{"fr": map[string]any{"published": "soon"}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			res := tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"translations": c.body})
			mustStatus(t, res, c.status)
			if errs, _ := res.Body["errors"].(map[string]any); errs[c.key] == nil {
				t.Fatalf("no error under %s: %s", c.key, res.Raw)
			}
		})
	}
	mustStatus(t, tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"translationStatus": "full"}), http.StatusBadRequest)
	// The default title changes: both translations of it may be out of date now; the French one
	// saved again is not.
	res = tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"title": "Open days"})
	mustStatus(t, res, http.StatusOK)
	if fmt.Sprint(res.Get("result.translations.fr.outdated")) != "[title]" || fmt.Sprint(res.Get("result.translations.ar.outdated")) != "[title]" ||
		res.Get("result.translationStatus.fr.outdated") != float64(1) {
		t.Fatalf("outdated: %s", res.Raw)
	}
	res = tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"translations": map[string]any{"fr": map[string]any{"title": "Journées portes ouvertes"}}})
	if res.Get("result.translations.fr.outdated") != nil || fmt.Sprint(res.Get("result.translations.ar.outdated")) != "[title]" {
		t.Fatalf("saved again: %s", res.Raw)
	}
	// A write sending the default and its translation together leaves it current.
	res = tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"title": "Open house", "translations": map[string]any{"fr": map[string]any{"title": "Maison ouverte"}}})
	if res.Get("result.translations.fr.outdated") != nil {
		t.Fatalf("same write: %s", res.Raw)
	}
	// The list shows each record's status, not its translations.
	list := tcall(t, tn, "GET", "/albums", nil)
	item := list.Get("result").([]any)[0].(map[string]any)
	if item["translations"] != nil || fmt.Sprint(item["translationStatus"].(map[string]any)["fr"].(map[string]any)["filled"]) != "2" {
		t.Fatalf("list item: %v", item)
	}
	// A field's translation removed, then a language.
	res = tcall(t, tn, "PATCH", "/albums/"+id, map[string]any{"translations": map[string]any{"fr": map[string]any{"description": ""}, "ar": nil}})
	mustStatus(t, res, http.StatusOK)
	if res.Get("result.translations.fr.description") != nil || res.Get("result.translations.ar") != nil || res.Get("result.translationStatus.fr.filled") != float64(1) {
		t.Fatalf("removed: %s", res.Raw)
	}
	// Another tenant's token and another tenant's admin reach none of it.
	other := testkit.NewTenant(t)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/albums/" + id, Tenant: tn.ID, Token: other.AdminToken, Body: map[string]any{"translations": map[string]any{"fr": nil}}}), http.StatusUnauthorized)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/albums/" + id, Tenant: other.ID, Token: other.AdminToken, Body: map[string]any{"translations": map[string]any{"fr": nil}}}), http.StatusNotFound)
}

// TestTranslationsInHistoryAndTrash: versions keep a record's translations, the history's
// compare names them, a restore brings them back whole, and so does the trash.
func TestTranslationsInHistoryAndTrash(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	languagesOn(t, tn, "fr")
	res := tcall(t, tn, "POST", "/faqs", map[string]any{"question": "When?", "answer": "Soon.", "translations": map[string]any{"fr": map[string]any{"question": "Quand ?"}}})
	mustStatus(t, res, http.StatusCreated)
	id := res.Get("result.id").(string)
	res = tcall(t, tn, "PATCH", "/faqs/"+id, map[string]any{"translations": map[string]any{"fr": map[string]any{"question": "Quand donc ?", "answer": "Bientôt."}}})
	mustStatus(t, res, http.StatusOK)
	versions := tcall(t, tn, "GET", "/faqs/"+id+"/versions", nil)
	if !strings.Contains(string(versions.Raw), "translations") {
		t.Fatalf("the version does not name translations: %s", versions.Raw)
	}
	v1 := tcall(t, tn, "GET", "/faqs/"+id+"/versions/1", nil)
	if !strings.Contains(string(v1.Raw), "Quand ?") {
		t.Fatalf("version 1 lacks its translation: %s", v1.Raw)
	}
	res = tcall(t, tn, "POST", "/faqs/"+id+"/versions/1/restore", map[string]any{"version": 2})
	mustStatus(t, res, http.StatusOK)
	if res.Get("result.translations.fr.question") != "Quand ?" || res.Get("result.translations.fr.answer") != nil {
		t.Fatalf("restored: %s", res.Raw)
	}
	audit := tcall(t, tn, "GET", "/audit-log?limit=5", nil)
	if !strings.Contains(string(audit.Raw), "translations") {
		t.Fatalf("the audit entries do not name translations: %s", audit.Raw)
	}
	mustStatus(t, tcall(t, tn, "DELETE", "/faqs/"+id, nil), http.StatusOK)
	trash := tcall(t, tn, "GET", "/trash?kind=faqs", nil)
	entries, _ := trash.Get("result").([]any)
	if len(entries) != 1 {
		t.Fatalf("trash: %s", trash.Raw)
	}
	e := entries[0].(map[string]any)
	mustStatus(t, tcall(t, tn, "POST", fmt.Sprintf("/trash/%v/%v/%v/restore", e["kind"], e["id"], e["version"]), nil), http.StatusOK)
	back := tcall(t, tn, "GET", "/faqs/"+id, nil)
	if back.Get("result.translations.fr.question") != "Quand ?" {
		t.Fatalf("back from the trash: %s", back.Raw)
	}
}

// TestLanguageRemovalRefused: the settings refuse to take away a language records are
// translated into, or to change the default language while translations exist, with a message
// saying what to do; once the translations are gone, both are accepted.
func TestLanguageRemovalRefused(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	languagesOn(t, tn, "fr", "ar")
	res := tcall(t, tn, "POST", "/faqs", map[string]any{"question": "When?", "answer": "Soon.", "translations": map[string]any{"fr": map[string]any{"question": "Quand ?"}}})
	mustStatus(t, res, http.StatusCreated)
	id := res.Get("result.id").(string)
	header := tcall(t, tn, "PATCH", "/header", map[string]any{"title": "Our school", "translations": map[string]any{"fr": map[string]any{"title": "Notre école"}}})
	mustStatus(t, header, http.StatusOK)
	settings := func(body map[string]any) testkit.Response {
		cur := tcall(t, tn, "GET", "/site-settings", nil)
		body["version"] = cur.Get("result.version")
		return tcall(t, tn, "PATCH", "/site-settings", body)
	}
	res = settings(map[string]any{"languages": []string{"ar"}})
	mustStatus(t, res, http.StatusConflict)
	if msg := fmt.Sprint(res.Get("errors.languages")); !strings.Contains(msg, "French cannot be removed") || !strings.Contains(msg, "French: 2") {
		t.Fatalf("removal: %s", res.Raw)
	}
	res = settings(map[string]any{"defaultLanguage": "fr", "languages": []string{"en", "ar"}})
	mustStatus(t, res, http.StatusConflict)
	if msg := fmt.Sprint(res.Get("errors.defaultLanguage")); !strings.Contains(msg, "Remove those translations first, or keep English as the default language") {
		t.Fatalf("default: %s", res.Raw)
	}
	// Arabic holds nothing: it may go.
	mustStatus(t, settings(map[string]any{"languages": []string{"fr"}}), http.StatusOK)
	mustStatus(t, tcall(t, tn, "PATCH", "/faqs/"+id, map[string]any{"translations": map[string]any{"fr": nil}}), http.StatusOK)
	mustStatus(t, settings(map[string]any{"languages": []string{"fr"}}), http.StatusOK)
	mustStatus(t, settings(map[string]any{"languages": []string{}}), http.StatusConflict) // the header's
	mustStatus(t, tcall(t, tn, "PATCH", "/header", map[string]any{"translations": map[string]any{"fr": map[string]any{"title": ""}}}), http.StatusOK)
	mustStatus(t, settings(map[string]any{"languages": []string{}}), http.StatusOK)
	mustStatus(t, settings(map[string]any{"defaultLanguage": "fr"}), http.StatusOK)
}

// TestSearchByTranslatedWord: the panel's list search finds a record by a word of its
// translation, even behind a long default name, and no longer once the translation is gone.
func TestSearchByTranslatedWord(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	languagesOn(t, tn, "fr")
	res := tcall(t, tn, "POST", "/faqs", map[string]any{"question": "When do the campus open day tours start this year", "answer": "Soon.",
		"translations": map[string]any{"fr": map[string]any{"question": "Quand commencent les visites des portes ouvertes ?"}}})
	mustStatus(t, res, http.StatusCreated)
	id := res.Get("result.id").(string)
	found := func(q string) bool {
		list := tcall(t, tn, "GET", "/faqs?search="+q, nil)
		mustStatus(t, list, http.StatusOK)
		return strings.Contains(string(list.Raw), id)
	}
	if !found("quand") || !found("Commencent") || !found("campus") {
		t.Fatal("not found by its words in both languages")
	}
	mustStatus(t, tcall(t, tn, "PATCH", "/faqs/"+id, map[string]any{"translations": map[string]any{"fr": nil}}), http.StatusOK)
	if found("quand") || !found("campus") {
		t.Fatal("still found by a removed translation's word")
	}
}
