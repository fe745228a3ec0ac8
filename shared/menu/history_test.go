package menu_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestMenuHistory: every save after the first keeps the tree it replaced (who, when), a kept
// tree reads back, a restore saves it back through a save's checks with the current version, and
// another tenant or a user without the rights gets nothing.
func TestMenuHistory(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	do := func(tok, method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tok, Body: body})
	}
	add(t, tn, map[string]any{"label": "Home", "url": "/"})   // version 1 (nothing replaced)
	add(t, tn, map[string]any{"label": "About", "url": "/a"}) // version 2 keeps version 1
	_, v := tree(t, tn)
	res := do(tn.AdminToken, "PATCH", "/menu-items", map[string]any{"menuItems": []any{}, "version": v}) // version 3 keeps 2
	testkit.Expect(t, res, http.StatusOK, "Menu Items Updated")

	list := do(tn.AdminToken, "GET", "/menu-items/versions", nil)
	if list.Get("totalCount") != float64(2) || list.Get("result.0.version") != float64(2) || list.Get("result.0.byName") != "admin" {
		t.Fatalf("menu versions: %s", list.Raw)
	}
	kept := do(tn.AdminToken, "GET", "/menu-items/versions/2", nil)
	if items, _ := kept.Body["result"].([]any); len(items) != 2 {
		t.Fatalf("version 2: %s", kept.Raw)
	}
	testkit.Expect(t, do(tn.AdminToken, "POST", "/menu-items/versions/2/restore", map[string]any{"version": 2}), http.StatusConflict, "")
	restored := do(tn.AdminToken, "POST", "/menu-items/versions/2/restore", map[string]any{"version": 3})
	testkit.Expect(t, restored, http.StatusOK, "Menu restored to version 2!")
	items, now := tree(t, tn)
	if len(items) != 2 || now != 4 || fmt.Sprint(items[1].(map[string]any)["label"]) != "About" {
		t.Fatalf("after the restore: version %v, %v", now, items)
	}
	if l := do(tn.AdminToken, "GET", "/menu-items/versions", nil); l.Get("result.0.action") != "restore" || l.Get("result.0.restoredFrom") != float64(2) {
		t.Fatalf("the restore's own version: %s", l.Raw)
	}
	testkit.Expect(t, do(tn.AdminToken, "GET", "/menu-items/versions/1", nil), http.StatusOK, "")
	testkit.Expect(t, do(tn.AdminToken, "GET", "/menu-items/versions/9", nil), http.StatusNotFound, "")

	// Another tenant has its own (empty) history; its token is useless here.
	if l := testkit.Call(t, call{Method: "GET", Path: "/menu-items/versions", Tenant: other.ID, Token: other.AdminToken}); l.Get("totalCount") != float64(0) {
		t.Fatalf("another tenant's history: %s", l.Raw)
	}
	testkit.Expect(t, do(other.AdminToken, "GET", "/menu-items/versions", nil), http.StatusUnauthorized, "")
	viewer := testkit.NewUser(t, tn, "CMS_VIEW_MENU_ITEM")
	testkit.Expect(t, do(viewer, "GET", "/menu-items/versions", nil), http.StatusOK, "")
	testkit.Expect(t, do(viewer, "POST", "/menu-items/versions/2/restore", map[string]any{"version": 4}), http.StatusForbidden, "")
}
