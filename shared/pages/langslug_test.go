package pages_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestSlugsPerLanguage: a page's slug in another language is unique within that language only:
// another page cannot take it in French (409 under translations.fr.slug), but may use it as its
// default slug; a changed or deleted page frees it.
func TestSlugsPerLanguage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	cur := as(t, tn, "GET", "/site-settings", nil)
	check(t, as(t, tn, "PATCH", "/site-settings", map[string]any{"languages": []string{"fr"}, "version": cur.Get("result.version")}), http.StatusOK, "")
	a, _ := newPage(t, tn, "About us")
	b, _ := newPage(t, tn, "Contact")
	fr := func(slug any) map[string]any {
		return map[string]any{"translations": map[string]any{"fr": map[string]any{"title": "À propos", "slug": slug}}}
	}
	res := as(t, tn, "PATCH", "/pages/"+a, fr("a-propos"))
	check(t, res, http.StatusOK, "")
	if res.Get("result.translations.fr.slug") != "a-propos" {
		t.Fatalf("saved: %s", res.Raw)
	}
	res = as(t, tn, "PATCH", "/pages/"+b, fr("a-propos"))
	check(t, res, http.StatusConflict, "Slug already in use in French!")
	if errs, _ := res.Body["errors"].(map[string]any); errs["translations.fr.slug"] == nil {
		t.Fatalf("not keyed by language: %s", res.Raw)
	}
	check(t, as(t, tn, "PATCH", "/pages/"+b, fr("Not A Slug")), http.StatusBadRequest, "")
	// The same text as a default slug is another language's: free.
	check(t, as(t, tn, "PATCH", "/pages/"+b, map[string]any{"slug": "a-propos"}), http.StatusOK, "")
	// A changes its French slug: the old one is free in French again.
	check(t, as(t, tn, "PATCH", "/pages/"+a, fr("qui-sommes-nous")), http.StatusOK, "")
	check(t, as(t, tn, "PATCH", "/pages/"+b, fr("a-propos")), http.StatusOK, "")
	check(t, as(t, tn, "PATCH", "/pages/"+b, fr("qui-sommes-nous")), http.StatusConflict, "")
	check(t, as(t, tn, "DELETE", "/pages/"+a, nil), http.StatusOK, "")
	check(t, as(t, tn, "PATCH", "/pages/"+b, fr("qui-sommes-nous")), http.StatusOK, "")
}
