package collections_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestOwnPasswordIsNotChangedThroughUsers: a session alone cannot give its own account a new
// password through the users collection (issue 40, item 2); that is My Profile's, which asks for
// the current password (and code). Other fields of one's own record, and another user's password,
// change as before.
func TestOwnPasswordIsNotChangedThroughUsers(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	const own = "Change your own password in My Profile, which asks for your current password."

	// An administrator's own record.
	res := admin("PATCH", "/users/"+tn.AdminID, map[string]any{"password": "taken-over-1"})
	testkit.Expect(t, res, http.StatusForbidden, own)
	if res.Get("errors.password") != own {
		t.Fatalf("errors: %s", res.Raw)
	}
	testkit.Expect(t, admin("PATCH", "/users/"+tn.AdminID, map[string]any{"password": "taken-over-1", "email": "head@example.org"}), http.StatusForbidden, own)
	testkit.Login(t, tn.ID, tn.AdminUsername, tn.AdminPassword)
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID,
		Body: map[string]any{"username": tn.AdminUsername, "password": "taken-over-1"}}), http.StatusUnauthorized, "")
	// An empty password keeps it, as on any record; the rest of one's own record changes.
	mustStatus(t, admin("PATCH", "/users/"+tn.AdminID, map[string]any{"password": "", "email": "head@example.org"}), http.StatusOK)
	mustStatus(t, admin("PATCH", "/users/"+tn.AdminID, map[string]any{"firstName": "Head"}), http.StatusOK)

	// A user who may edit users: the same for their own record.
	res = admin("POST", "/users", map[string]any{"firstName": "U", "lastName": "E", "username": "usereditor", "password": "editor-pass-1",
		"permissionIds": []string{"CMS_VIEW_USER", "CMS_EDIT_USER"}})
	mustStatus(t, res, http.StatusCreated)
	editorID := res.Get("result.id").(string)
	editor := testkit.Login(t, tn.ID, "usereditor", "editor-pass-1")
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/users/" + editorID, Tenant: tn.ID, Token: editor,
		Body: map[string]any{"password": "taken-over-1"}}), http.StatusForbidden, own)
	testkit.Login(t, tn.ID, "usereditor", "editor-pass-1")

	// An administrator changing another user's password: unaffected, and it ends their sessions.
	mustStatus(t, admin("PATCH", "/users/"+editorID, map[string]any{"password": "reset-by-admin-1"}), http.StatusOK)
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: editor}), http.StatusUnauthorized, "")
	testkit.Login(t, tn.ID, "usereditor", "reset-by-admin-1")
}
