package collections_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

// meaningless are codes no route checks: there is one header, footer, SEO default and theme
// setting (no create or delete), and the themes and plans are fixed catalogues.
var meaningless = []string{
	"CMS_CREATE_HEADER", "CMS_DELETE_HEADER", "CMS_CREATE_FOOTER", "CMS_DELETE_FOOTER",
	"CMS_CREATE_SEO_SETTING", "CMS_DELETE_SEO_SETTING", "CMS_CREATE_THEME_SETTING", "CMS_DELETE_THEME_SETTING",
	"CMS_CREATE_THEME", "CMS_DELETE_THEME", "CMS_CREATE_PLAN", "CMS_EDIT_PLAN", "CMS_DELETE_PLAN",
	"CMS_CREATE_AUDIT_LOG", "CMS_EDIT_AUDIT_LOG", "CMS_DELETE_AUDIT_LOG",
	"CMS_CREATE_TRASH", "CMS_EDIT_TRASH", "CMS_DELETE_TRASH",
}

// TestPermissionListOffersOnlyMeaningfulCodes: GET /permissions lists only codes some route
// checks, grouped as listed, and a role or user cannot be granted any other (400, naming it).
func TestPermissionListOffersOnlyMeaningfulCodes(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "GET", Path: "/permissions", Tenant: tn.ID, Token: tn.AdminToken})
	mustStatus(t, res, http.StatusOK)
	listed := map[string]bool{}
	for _, p := range res.Get("permissions").([]any) {
		listed[p.(map[string]any)["id"].(string)] = true
	}
	grouped := 0
	for _, items := range res.Get("permissionsGrouped").(map[string]any) {
		grouped += len(items.([]any))
	}
	if grouped != len(listed) {
		t.Errorf("%d grouped codes, %d listed", grouped, len(listed))
	}
	for _, code := range meaningless {
		if listed[code] {
			t.Errorf("%s is offered", code)
		}
	}
	for _, code := range []string{"CMS_VIEW_FOOTER", "CMS_EDIT_FOOTER", "CMS_VIEW_HEADER", "CMS_EDIT_SEO_SETTING",
		"CMS_VIEW_THEME", "CMS_EDIT_THEME", "CMS_EDIT_THEME_SETTING", "CMS_VIEW_PLAN", "CMS_VIEW_AUDIT_LOG", "CMS_VIEW_TRASH",
		"CMS_CREATE_FAQ", "CMS_DELETE_FAQ", "CMS_CREATE_MENU_ITEM", "CMS_DELETE_FORM_SUBMISSION", "CMS_DELETE_PAGE"} {
		if !listed[code] {
			t.Errorf("%s is not offered", code)
		}
	}

	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/roles", "/users"} {
		body := testkit.SampleBody(t, tn, reg, reg[strings.TrimPrefix(path, "/")], 1)
		body["permissionIds"] = []string{"CMS_VIEW_FOOTER", "CMS_CREATE_FOOTER"}
		res := testkit.Call(t, call{Method: "POST", Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
		mustStatus(t, res, http.StatusBadRequest)
		if msg := res.Message(); !strings.Contains(msg, "CMS_CREATE_FOOTER") || !strings.Contains(msg, "Footer") {
			t.Errorf("%s: message %q does not name the code and what it is about", path, msg)
		}
	}
}
