package collections_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestRoleTwoFactorIsARight: a role's "require two-factor sign-in" is changed under the rights rule
// like its permissions (issue 40, item 4a): never on the role one holds (unless administrator),
// never on a role holding more than one does; on a role within one's own rights, as before.
func TestRoleTwoFactorIsARight(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	editorCodes := []string{"CMS_VIEW_ROLE", "CMS_EDIT_ROLE", "CMS_CREATE_ROLE", "CMS_VIEW_FAQ"}
	res := admin("POST", "/roles", map[string]any{"name": "Guarded editors", "permissionIds": editorCodes, "requireTwoFactor": true})
	mustStatus(t, res, http.StatusCreated)
	ownID := res.Get("result.id").(string)
	res = admin("POST", "/roles", map[string]any{"name": "Guarded managers", "permissionIds": append(slices.Clone(editorCodes), "CMS_DELETE_FAQ"), "requireTwoFactor": true})
	mustStatus(t, res, http.StatusCreated)
	biggerID := res.Get("result.id").(string)
	res = admin("POST", "/roles", map[string]any{"name": "Guarded viewers", "permissionIds": []string{"CMS_VIEW_FAQ"}, "requireTwoFactor": true})
	mustStatus(t, res, http.StatusCreated)
	smallerID := res.Get("result.id").(string)

	// The editor holds the first role and has two-factor sign-in on, as the role requires.
	mustStatus(t, admin("POST", "/users", map[string]any{"firstName": "R", "lastName": "E", "username": "roleeditor", "password": "editor-pass-1", "roleId": ownID}), http.StatusCreated)
	res = testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "roleeditor", "password": "editor-pass-1"}})
	challenge := res.Get("result.challenge").(string)
	res = testkit.Call(t, call{Method: "POST", Path: "/auth/two-factor/setup", Tenant: tn.ID, Body: map[string]any{"challenge": challenge}})
	mustStatus(t, res, http.StatusOK)
	secret := res.Get("result.secret").(string)
	res = testkit.Call(t, call{Method: "POST", Path: "/auth/two-factor/enable", Tenant: tn.ID, Body: map[string]any{"challenge": challenge, "code": testkit.TOTP(t, secret, 0)}})
	mustStatus(t, res, http.StatusOK)
	editor := res.Get("result.token").(string)
	asEditor := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: editor, Body: body})
	}

	const own = "You cannot change your own rights."
	cases := []struct {
		name, method, path string
		body               any
		status             int
		message            string
	}{
		{"clear own role's requirement", "PATCH", "/roles/" + ownID, map[string]any{"requireTwoFactor": false}, 403, own},
		{"clear it along with a rename", "PATCH", "/roles/" + ownID, map[string]any{"name": "Editors", "requireTwoFactor": false}, 403, own},
		{"clear it on a role holding more", "PATCH", "/roles/" + biggerID, map[string]any{"requireTwoFactor": false}, 403, ""},
		{"send the unchanged value with a rename", "PATCH", "/roles/" + ownID, map[string]any{"name": "Guarded editors (renamed)", "requireTwoFactor": true}, 200, ""},
		{"clear it on a role within own rights", "PATCH", "/roles/" + smallerID, map[string]any{"requireTwoFactor": false}, 200, ""},
		{"set it again there", "PATCH", "/roles/" + smallerID, map[string]any{"requireTwoFactor": true}, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := asEditor(c.method, c.path, c.body)
			testkit.Expect(t, res, c.status, c.message)
		})
	}
	t.Run("the requirement holds", func(t *testing.T) {
		if admin("GET", "/roles/"+ownID, nil).Get("result.requireTwoFactor") != true {
			t.Fatal("the editor's own role no longer requires two-factor sign-in")
		}
		// So two-factor sign-in cannot be turned off.
		testkit.Expect(t, asEditor("POST", "/auth/two-factor/disable", map[string]any{"password": "editor-pass-1", "code": testkit.TOTP(t, secret, 1)}),
			http.StatusForbidden, "Your institution requires two-factor sign-in.")
	})
	t.Run("an administrator changes any role's", func(t *testing.T) {
		mustStatus(t, admin("PATCH", "/roles/"+ownID, map[string]any{"requireTwoFactor": false}), http.StatusOK)
	})
}

// TestPasswordSetOnAnotherUserIsAuditedByName: the audit entry of a password set through the users
// collection names the field (issue 40, item 4b), never the value; with other fields, all of them.
func TestPasswordSetOnAnotherUserIsAuditedByName(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	res := admin("POST", "/users", map[string]any{"firstName": "A", "lastName": "U", "username": "audited", "password": "first-pass-1"})
	mustStatus(t, res, http.StatusCreated)
	id := res.Get("result.id").(string)
	const secret1, secret2 = "Reset-by-admin-7731", "Reset-again-8842"
	mustStatus(t, admin("PATCH", "/users/"+id, map[string]any{"password": secret1}), http.StatusOK)
	mustStatus(t, admin("PATCH", "/users/"+id, map[string]any{"password": secret2, "email": "audited@example.org"}), http.StatusOK)
	// An empty password keeps the old one: nothing to name.
	mustStatus(t, admin("PATCH", "/users/"+id, map[string]any{"password": "", "phone": "5551234567"}), http.StatusOK)

	log := admin("GET", "/audit-log?collection=users&action=update", nil)
	mustStatus(t, log, http.StatusOK)
	var got []string
	for _, e := range log.Get("result").([]any) {
		var names []string
		changed, _ := e.(map[string]any)["changed"].([]any)
		for _, n := range changed {
			names = append(names, n.(string))
		}
		got = append(got, strings.Join(names, ","))
	}
	// Newest first.
	want := []string{"phone", "email,password", "password"}
	if !slices.Equal(got, want) {
		t.Fatalf("changed %q, want %q", got, want)
	}
	if raw := string(log.Raw); strings.Contains(raw, secret1) || strings.Contains(raw, secret2) || strings.Contains(raw, "$argon2") {
		t.Fatal("the audit log holds a password or its hash")
	}
	// The versions kept name it too, without the value.
	versions := admin("GET", "/users/"+id+"/versions", nil)
	if strings.Contains(string(versions.Raw), secret1) || strings.Contains(string(versions.Raw), "$argon2") {
		t.Fatal("a version holds a password or its hash")
	}
}
