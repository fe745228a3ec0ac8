package collections_test

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestRightsCannotBeClimbed covers the rights rule through roles and users: a staff member whose
// role may edit roles cannot widen that role (or any role past their own rights), and one who may
// edit users cannot take over an account holding more rights.
func TestRightsCannotBeClimbed(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	editorCodes := []string{"CMS_VIEW_ROLE", "CMS_EDIT_ROLE", "CMS_CREATE_ROLE", "CMS_DELETE_ROLE", "CMS_VIEW_USER", "CMS_EDIT_USER", "CMS_DELETE_USER"}
	role := admin("POST", "/roles", map[string]any{"name": "Editors", "permissionIds": editorCodes})
	mustStatus(t, role, 201)
	roleID := role.Get("result.id").(string)
	bigRole := admin("POST", "/roles", map[string]any{"name": "Managers", "permissionIds": append(editorCodes, "CMS_DELETE_FAQ")})
	mustStatus(t, bigRole, 201)
	bigRoleID := bigRole.Get("result.id").(string)

	mustStatus(t, admin("POST", "/users", map[string]any{"firstName": "E", "lastName": "D", "username": "editor", "password": "pass-word-1", "roleId": roleID}), 201)
	editor := testkit.Login(t, tn.ID, "editor", "pass-word-1")
	boss := admin("POST", "/users", map[string]any{"firstName": "B", "lastName": "O", "username": "boss", "password": "boss-pass-1",
		"permissionIds": []string{"CMS_DELETE_FAQ", "CMS_VIEW_USER"}})
	mustStatus(t, boss, 201)
	bossID := boss.Get("result.id").(string)
	peer := admin("POST", "/users", map[string]any{"firstName": "P", "lastName": "E", "username": "peer", "password": "peer-pass-1",
		"permissionIds": []string{"CMS_VIEW_USER"}})
	mustStatus(t, peer, 201)
	peerID := peer.Get("result.id").(string)

	asEditor := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: editor, Body: body})
	}
	every := []string{}
	for _, p := range admin("GET", "/permissions", nil).Get("permissions").([]any) {
		every = append(every, p.(map[string]any)["id"].(string))
	}
	cases := []struct {
		name, method, path string
		body               any
		status             int
	}{
		{"widen own role to every code", "PATCH", "/roles/" + roleID, map[string]any{"permissionIds": every}, 403},
		{"disable own role", "PATCH", "/roles/" + roleID, map[string]any{"status": false}, 403},
		{"rename own role", "PATCH", "/roles/" + roleID, map[string]any{"name": "Editors (renamed)"}, 200},
		{"create a role with more", "POST", "/roles", map[string]any{"name": "Mine", "permissionIds": []string{"CMS_DELETE_FAQ"}}, 403},
		{"create a role within own rights", "POST", "/roles", map[string]any{"name": "Viewers", "permissionIds": []string{"CMS_VIEW_ROLE"}}, 201},
		{"edit a role holding more", "PATCH", "/roles/" + bigRoleID, map[string]any{"name": "Mine now"}, 403},
		{"delete a role holding more", "DELETE", "/roles/" + bigRoleID, nil, 403},
		{"take over a user holding more", "PATCH", "/users/" + bossID, map[string]any{"password": "taken-over-1"}, 403},
		{"rename a user holding more", "PATCH", "/users/" + bossID, map[string]any{"username": "boss2"}, 403},
		{"delete a user holding more", "DELETE", "/users/" + bossID, nil, 403},
		{"give a peer a bigger role", "PATCH", "/users/" + peerID, map[string]any{"roleId": bigRoleID}, 403},
		{"change a peer holding less", "PATCH", "/users/" + peerID, map[string]any{"password": "peer-pass-2"}, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustStatus(t, asEditor(c.method, c.path, c.body), c.status)
		})
	}
	t.Run("rights unchanged", func(t *testing.T) {
		got := admin("GET", "/roles/"+roleID, nil).Get("result.permissionIds").([]any)
		if len(got) != len(editorCodes) {
			t.Fatalf("editor role holds %d codes, want %d", len(got), len(editorCodes))
		}
		testkit.Login(t, tn.ID, "boss", "boss-pass-1")
		mustStatus(t, asEditor("DELETE", "/faqs/01ARZ3NDEKTSV4RRFFQ69G5FAV", nil), 403)
	})
}
