package pages_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestAccessToEveryRoute: no token and another tenant's token get 401, another tenant's ids 404,
// a user without the PAGE permission 403, on every route this package adds or hooks.
func TestAccessToEveryRoute(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	types := typeIDs(t, tn)
	pageID, _ := newPage(t, tn, "Mine")
	res := as(t, tn, "POST", "/page-sections", map[string]any{"pageId": pageID, "pageSectionTypeId": types["banner"]})
	mustStatus(t, res, 201)
	secID := res.Get("result.id").(string)
	otherPage, _ := newPage(t, other, "Theirs")

	newSec := map[string]any{"pageId": pageID, "pageSectionTypeId": types["banner"]}
	routes := []struct {
		name, method, path string
		body               any
		perm               string
	}{
		{"section types", "GET", "/page-section-types", nil, "CMS_VIEW_PAGE"},
		{"list sections", "GET", "/page-sections?page_id=" + pageID, nil, "CMS_VIEW_PAGE"},
		{"create section", "POST", "/page-sections", newSec, "CMS_EDIT_PAGE"},
		{"patch section", "PATCH", "/page-sections/" + secID, map[string]any{"title": "x"}, "CMS_EDIT_PAGE"},
		{"delete section", "DELETE", "/page-sections/" + secID, nil, "CMS_EDIT_PAGE"},
		{"list pages", "GET", "/pages?limit=100", nil, "CMS_VIEW_PAGE"},
		{"get page", "GET", "/pages/" + pageID, nil, "CMS_VIEW_PAGE"},
		{"create page", "POST", "/pages", map[string]any{"title": "New"}, "CMS_CREATE_PAGE"},
		{"save page with sections", "PATCH", "/pages/" + pageID, map[string]any{"pageSections": []any{}}, "CMS_EDIT_PAGE"},
		{"delete page", "DELETE", "/pages/" + pageID, nil, "CMS_DELETE_PAGE"},
	}
	viewer := testkit.NewUser(t, tn, "CMS_VIEW_PAGE")
	nobody := testkit.NewUser(t, tn)
	for _, r := range routes {
		t.Run(r.name, func(t *testing.T) {
			mustStatus(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Body: r.body}), http.StatusUnauthorized)
			mustStatus(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Token: other.AdminToken, Body: r.body}), http.StatusUnauthorized)
			mustStatus(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Token: nobody, Body: r.body}), http.StatusForbidden)
			if r.perm != "CMS_VIEW_PAGE" {
				mustStatus(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Token: viewer, Body: r.body}), http.StatusForbidden)
			}
		})
	}
	// The other tenant's admin, on its own tenant, cannot reach this tenant's page or section.
	for _, r := range []call{
		{Method: "GET", Path: "/page-sections?page_id=" + pageID},
		{Method: "POST", Path: "/page-sections", Body: newSec},
		{Method: "PATCH", Path: "/page-sections/" + secID, Body: map[string]any{"title": "x"}},
		{Method: "DELETE", Path: "/page-sections/" + secID},
		{Method: "GET", Path: "/pages/" + pageID},
		{Method: "PATCH", Path: "/pages/" + pageID, Body: map[string]any{"pageSections": []any{}}},
		{Method: "DELETE", Path: "/pages/" + pageID},
	} {
		r.Tenant, r.Token = other.ID, other.AdminToken
		mustStatus(t, testkit.Call(t, r), http.StatusNotFound)
	}
	// Naming this tenant's section in the other tenant's page save does not take it over.
	res = testkit.Call(t, call{Method: "PATCH", Path: "/pages/" + otherPage, Tenant: other.ID, Token: other.AdminToken,
		Body: map[string]any{"pageSections": []any{map[string]any{"id": secID, "pageSectionTypeId": types["banner"]}}}})
	mustStatus(t, res, http.StatusBadRequest)
	// Nor may a section of one page be named in another page's save, or moved there.
	mine2, _ := newPage(t, tn, "Mine too")
	res = as(t, tn, "PATCH", "/pages/"+mine2, map[string]any{"pageSections": []any{map[string]any{"id": secID, "pageSectionTypeId": types["banner"]}}})
	mustStatus(t, res, http.StatusBadRequest)
	mustStatus(t, as(t, tn, "PATCH", "/page-sections/"+secID, map[string]any{"pageId": mine2}), http.StatusBadRequest)
	if got := as(t, tn, "GET", "/page-sections?page_id="+pageID, nil); got.Get("totalCount") != float64(1) {
		t.Fatalf("section moved: %s", got.Raw)
	}
	// An editor with EDIT can work on sections.
	editor := testkit.NewUser(t, tn, "CMS_VIEW_PAGE", "CMS_EDIT_PAGE")
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/page-sections/" + secID, Tenant: tn.ID, Token: editor, Body: map[string]any{"title": "Edited"}}), 200)
}
