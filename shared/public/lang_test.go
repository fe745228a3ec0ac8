package public_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// siteLanguages saves the tenant's languages and policy.
func siteLanguages(t *testing.T, tn testkit.Tenant, policy string, others ...string) {
	t.Helper()
	cur := testkit.Call(t, testkit.Request{Method: "GET", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken})
	res := testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"languages": others, "missingTranslation": policy, "version": cur.Get("result.version")}})
	testkit.Expect(t, res, http.StatusOK, "")
}

func byID(r resp) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, it := range r.list() {
		out[fmt.Sprint(it["id"])] = it
	}
	return out
}

// TestPublicLanguages: the public API answers in ?lang= or the Accept-Language it can serve,
// says which (Content-Language, Vary), shows each translated field's published translation,
// keeps the default text where there is none and lists it in fallbackFields, lists each record's
// languages, finds a page by its slug in the language, and never shows the stored translations.
func TestPublicLanguages(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	siteLanguages(t, tn, "fallback", "fr", "ar")
	translated := create(t, tn, "faqs", map[string]any{"question": "When is open day?", "answer": "In May.", "status": true,
		"translations": map[string]any{"fr": map[string]any{"question": "Quand sont les portes ouvertes ?"}, "ar": map[string]any{"question": "متى اليوم المفتوح؟", "answer": "في مايو.", "published": false}}})
	plain := create(t, tn, "faqs", map[string]any{"question": "Where?", "answer": "Here.", "status": true})
	page := newPage(t, tn, map[string]any{"title": "About us", "slug": "about-us", "isPublished": true, "status": true,
		"translations": map[string]any{"fr": map[string]any{"title": "À propos", "slug": "a-propos"}}})
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/header", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Our school", "translations": map[string]any{"fr": map[string]any{"title": "Notre école"}}}}), http.StatusOK, "")

	fr := public(t, req{path: "/faqs?lang=fr", tenant: tn.ID})
	expect(t, fr, http.StatusOK)
	if fr.header.Get("Content-Language") != "fr" || !strings.Contains(strings.Join(fr.header.Values("Vary"), ","), "Accept-Language") {
		t.Fatalf("headers: %v", fr.header)
	}
	if strings.Contains(string(fr.raw), "translations") || strings.Contains(string(fr.raw), "translationStatus") {
		t.Fatalf("stored translations shown: %s", fr.raw)
	}
	items := byID(fr)
	if it := items[translated]; it["question"] != "Quand sont les portes ouvertes ?" || it["answer"] != "In May." ||
		fmt.Sprint(it["fallbackFields"]) != "[answer]" || fmt.Sprint(it["availableLanguages"]) != "[en fr ar]" {
		t.Fatalf("translated in fr: %v", it)
	}
	if it := items[plain]; it["question"] != "Where?" || fmt.Sprint(it["fallbackFields"]) != "[question answer]" {
		t.Fatalf("untranslated in fr: %v", it)
	}
	// Arabic is kept back: the default text, marked as such.
	ar := public(t, req{path: "/faqs", tenant: tn.ID, header: map[string]string{"Accept-Language": "ar-SA, en;q=0.5"}})
	if ar.header.Get("Content-Language") != "ar" || byID(ar)[translated]["question"] != "When is open day?" ||
		fmt.Sprint(byID(ar)[translated]["fallbackFields"]) != "[question answer]" {
		t.Fatalf("kept back in ar: %s %v", ar.raw, ar.header)
	}
	def := public(t, req{path: "/faqs", tenant: tn.ID, header: map[string]string{"Accept-Language": "de-DE"}})
	if def.header.Get("Content-Language") != "en" || byID(def)[translated]["question"] != "When is open day?" || fmt.Sprint(byID(def)[translated]["fallbackFields"]) != "[]" {
		t.Fatalf("default: %s %v", def.raw, def.header)
	}
	expect(t, public(t, req{path: "/faqs?lang=de", tenant: tn.ID}), http.StatusBadRequest)
	// The search reads the language's text.
	if got := public(t, req{path: "/faqs?lang=fr&search=portes", tenant: tn.ID}).ids(); !slices.Equal(got, []string{translated}) {
		t.Fatalf("search in fr: %v", got)
	}

	// A page by its French slug; its slugs in every language it can be shown in.
	p := public(t, req{path: "/pages/a-propos?lang=fr", tenant: tn.ID})
	expect(t, p, http.StatusOK)
	if p.body["result"].(map[string]any)["title"] != "À propos" || fmt.Sprint(p.body["result"].(map[string]any)["slugs"]) != "map[ar:about-us en:about-us fr:a-propos]" ||
		p.body["result"].(map[string]any)["id"] != page {
		t.Fatalf("page in fr: %s", p.raw)
	}
	expect(t, public(t, req{path: "/pages/a-propos", tenant: tn.ID}), http.StatusNotFound)
	// The default slug still finds it in French (the website redirects to slugs.fr).
	expect(t, public(t, req{path: "/pages/about-us?lang=fr", tenant: tn.ID}), http.StatusOK)

	// The header in French.
	site := public(t, req{path: "/site?lang=fr", tenant: tn.ID})
	expect(t, site, http.StatusOK)
	if h := site.body["result"].(map[string]any)["header"].(map[string]any); h["title"] != "Notre école" || fmt.Sprint(h["fallbackFields"]) != "[]" {
		t.Fatalf("header in fr: %v", h)
	}

	// Another tenant, asked in French, has none of it.
	other := testkit.NewTenant(t)
	if got := public(t, req{path: "/faqs", tenant: other.ID, header: map[string]string{"Accept-Language": "fr"}}); len(got.list()) != 0 || got.header.Get("Content-Language") != "en" {
		t.Fatalf("other tenant: %s %v", got.raw, got.header)
	}
}

// TestPublicLanguagesHidePolicy: with "leave the page out", a record without a published
// translation in the asked language is out of lists and 404 alone; in the default language
// everything shows.
func TestPublicLanguagesHidePolicy(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	siteLanguages(t, tn, "hide", "fr", "ar")
	translated := create(t, tn, "faqs", map[string]any{"question": "When?", "answer": "In May.", "status": true,
		"translations": map[string]any{"fr": map[string]any{"question": "Quand ?"}, "ar": map[string]any{"question": "متى؟", "published": false}}})
	plain := create(t, tn, "faqs", map[string]any{"question": "Where?", "answer": "Here.", "status": true})
	newPage(t, tn, map[string]any{"title": "About us", "slug": "about-us", "isPublished": true, "status": true})

	if got := public(t, req{path: "/faqs?lang=fr", tenant: tn.ID}).ids(); !slices.Equal(got, []string{translated}) {
		t.Fatalf("fr: %v", got)
	}
	if it := byID(public(t, req{path: "/faqs?lang=fr", tenant: tn.ID}))[translated]; fmt.Sprint(it["availableLanguages"]) != "[en fr]" {
		t.Fatalf("available: %v", it)
	}
	if got := public(t, req{path: "/faqs?lang=ar", tenant: tn.ID}).ids(); len(got) != 0 {
		t.Fatalf("ar (kept back): %v", got)
	}
	if got := public(t, req{path: "/faqs", tenant: tn.ID}).ids(); len(got) != 2 || !slices.Contains(got, plain) {
		t.Fatalf("default: %v", got)
	}
	expect(t, public(t, req{path: "/pages/about-us?lang=fr", tenant: tn.ID}), http.StatusNotFound)
	expect(t, public(t, req{path: "/pages/about-us", tenant: tn.ID}), http.StatusOK)
}
