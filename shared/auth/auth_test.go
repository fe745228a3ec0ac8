package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

type call = testkit.Request

var expect = testkit.Expect

func TestLogin(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	cases := []struct {
		name    string
		req     call
		status  int
		message string
	}{
		{"success", call{Body: map[string]any{"username": "admin", "password": tn.AdminPassword}}, 200, "Logged in Successfully!"},
		{"username is case-insensitive", call{Body: map[string]any{"username": "ADMIN", "password": tn.AdminPassword}}, 200, "Logged in Successfully!"},
		{"wrong password", call{Body: map[string]any{"username": "admin", "password": "nope-nope"}}, 401, "Invalid username or password!"},
		{"unknown user", call{Body: map[string]any{"username": "ghost", "password": "whatever1"}}, 401, "Invalid username or password!"},
		{"missing password", call{Body: map[string]any{"username": "admin", "password": ""}}, 400, "Please Fill Details!"},
		{"missing username", call{Body: map[string]any{"password": "x"}}, 400, "Please Fill Details!"},
		{"malformed JSON", call{Body: `{"username": "admin",`}, 400, "Malformed JSON in request body."},
		{"wrong type", call{Body: `{"username": 5, "password": "x"}`}, 400, `Field "username" must be of type string.`},
		{"unknown field", call{Body: map[string]any{"username": "admin", "password": "x", "isAdmin": true}}, 400, `Field "isAdmin" is not allowed here.`},
		{"empty body", call{Body: ""}, 400, "Request body is required."},
		{"two objects", call{Body: `{"username":"a","password":"b"}{}`}, 400, ""},
		{"oversize body", call{Body: `{"username":"` + strings.Repeat("a", 2<<20) + `"}`}, 413, ""},
		{"not JSON", call{Body: "username=admin", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 415, ""},
		{"unknown tenant", call{Tenant: "no-such-tenant", Body: map[string]any{"username": "admin", "password": "x"}}, 404, "Could not find institution!"},
		{"no tenant header", call{Tenant: "-", Body: map[string]any{"username": "admin", "password": "x"}}, 404, "Could not find institution!"},
		{"malformed tenant", call{Tenant: "T#" + tn.ID, Body: map[string]any{"username": "admin", "password": "x"}}, 404, "Could not find institution!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.req.Method, c.req.Path = "POST", "/auth/login"
			switch c.req.Tenant {
			case "":
				c.req.Tenant = tn.ID
			case "-":
				c.req.Tenant = ""
			}
			res := testkit.Call(t, c.req)
			expect(t, res, c.status, c.message)
			if c.status == 200 {
				if res.Get("result.token") == nil || res.Get("result.user.username") != "admin" || res.Get("result.user.passwordHash") != nil {
					t.Fatalf("bad login result %s", res.Raw)
				}
			}
		})
	}
}

func TestLockoutAfterFiveFailures(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	login := func(pw string) testkit.Response {
		return testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "admin", "password": pw}})
	}
	for i := 0; i < 5; i++ {
		expect(t, login("wrong-pass"), 401, "")
	}
	res := login(tn.AdminPassword)
	expect(t, res, 429, "")
	if !strings.Contains(res.Message(), "Try again in") {
		t.Fatalf("lockout message %q says not when to retry", res.Message())
	}
	// Another tenant's user of the same name is not locked.
	other := testkit.NewTenant(t)
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: other.ID,
		Body: map[string]any{"username": "admin", "password": other.AdminPassword}}), 200, "")
}

func TestFailuresBelowLimitAreClearedByASuccess(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	login := func(pw string) testkit.Response {
		return testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "admin", "password": pw}})
	}
	for round := 0; round < 2; round++ {
		for i := 0; i < 4; i++ {
			expect(t, login("wrong-pass"), 401, "")
		}
		expect(t, login(tn.AdminPassword), 200, "")
	}
}

func TestPasscodeLogin(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	if err := tenants.SetPasscode(context.Background(), testkit.Deps(t).Store, tn.ID, "admin", "246810"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		body    map[string]any
		status  int
		message string
	}{
		{"right passcode", map[string]any{"username": "admin", "passcode": "246810"}, 200, "Logged in Successfully!"},
		{"wrong passcode", map[string]any{"username": "admin", "passcode": "111111"}, 401, "Invalid username or password!"},
		{"not six digits", map[string]any{"username": "admin", "passcode": "12ab"}, 400, "Passcode must be exactly 6 digits!"},
		{"password is no passcode", map[string]any{"username": "admin", "passcode": tn.AdminPassword}, 400, "Passcode must be exactly 6 digits!"},
		{"missing", map[string]any{"username": "admin"}, 400, "Please Fill Details!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "POST", Path: "/auth/passcode", Tenant: tn.ID, Body: c.body})
			expect(t, res, c.status, c.message)
			if c.status == 200 && res.Get("result.token") == nil {
				t.Fatalf("no token: %s", res.Raw)
			}
		})
	}
	// A user without a passcode cannot log in with one.
	other := testkit.NewTenant(t)
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/passcode", Tenant: other.ID,
		Body: map[string]any{"username": "admin", "passcode": "000000"}}), 401, "")
}

func TestMeAndCrossTenant(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	cases := []struct {
		name   string
		tenant string
		token  string
		status int
	}{
		{"own token", a.ID, a.AdminToken, 200},
		{"no token", a.ID, "", 401},
		{"garbage token", a.ID, "garbage", 401},
		{"forged token with a real user id", a.ID, a.AdminID + "." + strings.Repeat("A", 43), 401},
		{"tenant A token on tenant B", b.ID, a.AdminToken, 401},
		{"tenant B token on tenant A", a.ID, b.AdminToken, 401},
		{"unknown tenant", "nobody-here", a.AdminToken, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: c.tenant, Token: c.token})
			expect(t, res, c.status, "")
			if c.status == 200 && res.Get("result.id") != a.AdminID {
				t.Fatalf("me returned %s", res.Raw)
			}
			if c.status != 200 && res.Get("result") != nil {
				t.Fatalf("failure leaked a result: %s", res.Raw)
			}
		})
	}
}

func TestProfileValidation(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	good := func(over map[string]any) map[string]any {
		body := map[string]any{"username": "admin", "email": "admin@example.org", "phone": "5551234567"}
		for k, v := range over {
			body[k] = v
		}
		return body
	}
	cases := []struct {
		name    string
		body    any
		status  int
		message string
	}{
		{"valid", good(nil), 200, "Profile updated!"},
		{"missing username", good(map[string]any{"username": ""}), 400, "Please fillup mandatory fields!"},
		{"missing email", good(map[string]any{"email": " "}), 400, "Please fillup mandatory fields!"},
		{"missing phone", good(map[string]any{"phone": ""}), 400, "Please fillup mandatory fields!"},
		{"bad email", good(map[string]any{"email": "not-an-email"}), 400, "Please enter a valid email!"},
		{"punctuation counts", good(map[string]any{"phone": "(555)12-34"}), 200, "Profile updated!"},
		{"short phone", good(map[string]any{"phone": "12345"}), 400, "Please enter a 10 digit phone number!"},
		{"letters in phone", good(map[string]any{"phone": "12345abcde"}), 400, "Please enter a 10 digit phone number!"},
		{"short password", good(map[string]any{"password": "abc"}), 400, "Password should be atleast 6 characters!"},
		{"passcode-shaped password", good(map[string]any{"password": "123456"}), 400, "Password cannot be just 6 digits: that is the shape of a passcode!"},
		{"bad passcode", good(map[string]any{"passcode": "12345"}), 400, "Passcode must be exactly 6 digits!"},
		{"forged isAdmin", good(map[string]any{"isAdmin": true}), 400, `Field "isAdmin" is not allowed here.`},
		{"forged permissionIds", good(map[string]any{"permissionIds": []string{"CMS_VIEW_FAQ"}}), 400, `Field "permissionIds" is not allowed here.`},
		{"forged tenant", good(map[string]any{"tenantId": "other"}), 400, `Field "tenantId" is not allowed here.`},
		{"phone as number", good(map[string]any{"phone": 5551234567}), 400, `Field "phone" must be of type string.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken, Body: c.body})
			expect(t, res, c.status, c.message)
		})
	}
	me := testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken})
	if me.Get("result.email") != "admin@example.org" || me.Get("result.isAdmin") != true {
		t.Fatalf("profile after updates: %s", me.Raw)
	}
}

func TestUsernameChangeIsUniqueAndMovesLogin(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	ctx, st := context.Background(), testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	if _, err := auth.NewUsers(st, collections.NewUserRecorder(st)).Create(ctx, auth.OperatorCaller(scope), auth.NewUserInput{Username: "editor", Password: "editor-pass"}); err != nil {
		t.Fatal(err)
	}
	body := func(username string) map[string]any {
		return map[string]any{"username": username, "email": "a@example.org", "phone": "5551234567"}
	}
	res := testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken, Body: body("Editor")})
	expect(t, res, 409, "Username is already taken!")
	expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken, Body: body("principal")}), 200, "")
	testkit.Login(t, tn.ID, "principal", tn.AdminPassword)
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID,
		Body: map[string]any{"username": "admin", "password": tn.AdminPassword}}), 401, "")
	// The users list finds the account under its new name, not its old one (the first name,
	// Admin, stays).
	expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: testkit.Login(t, tn.ID, "principal", tn.AdminPassword),
		Body: body("headteacher")}), 200, "")
	for search, want := range map[string]float64{"headt": 1, "princ": 0, "admin head": 1} {
		list := testkit.Call(t, call{Method: "GET", Path: "/users?search=" + url.QueryEscape(search), Tenant: tn.ID, Token: tn.AdminToken})
		if list.Get("totalCount") != want {
			t.Fatalf("users matching %q: %s", search, list.Raw)
		}
	}
}

func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	other := testkit.Login(t, tn.ID, "admin", tn.AdminPassword)
	res := testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"username": "admin", "email": "a@example.org", "phone": "5551234567", "password": "brand-new-pw", "currentPassword": tn.AdminPassword}})
	expect(t, res, 200, "Profile updated!")
	expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
	expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: other}), 401, "")
	testkit.Login(t, tn.ID, "admin", "brand-new-pw")
}

func TestLogoutEndsTheSession(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/logout", Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
	expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken}), 401, "")
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/logout", Tenant: tn.ID}), 401, "")
}

func TestDisabledUserIsSignedOut(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	ctx, st := context.Background(), testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	k := auth.UserKey(scope, tn.AdminID)
	if err := st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("status", false).Run(ctx); err != nil {
		t.Fatal(err)
	}
	expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken}), 401, "")
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID,
		Body: map[string]any{"username": "admin", "password": tn.AdminPassword}}), 403, "")
}

func TestTenantInfo(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: tn.ID})
	expect(t, res, 200, "")
	for _, field := range []string{"name", "logoFull", "planId", "themeSetting", "seoSetting", "appIconLogo", "fullWidthAppLogo"} {
		if _, ok := res.Get("result").(map[string]any)[field]; !ok {
			t.Errorf("tenant-info lacks %s: %s", field, res.Raw)
		}
	}
	if res.Get("objectUrlPrefix") != "/media/"+tn.ID+"/" || res.Get("result.name") != "Test "+tn.ID {
		t.Fatalf("tenant-info: %s", res.Raw)
	}
	expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: "ghost-school"}), 404, "Could not find institution!")
	expect(t, testkit.Call(t, call{Method: "GET", Path: "/auth/tenant-info"}), 404, "Could not find institution!")
}

func TestPasswordHashing(t *testing.T) {
	t.Parallel()
	h1, err := auth.HashSecret("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := auth.HashSecret("correct horse")
	// The test binary's cheap parameters (testkit); TestHashesUseOWASPParameters checks the real ones.
	if h1 == h2 || !strings.HasPrefix(h1, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hashes %q %q: want salted argon2id", h1, h2)
	}
	cases := []struct {
		name, hash, secret string
		want               bool
	}{
		{"match", h1, "correct horse", true},
		{"mismatch", h1, "correct horsE", false},
		{"empty hash", "", "", false},
		{"garbage hash", "$argon2id$garbage", "x", false},
	}
	for _, c := range cases {
		if got := auth.VerifySecret(c.hash, c.secret); got != c.want {
			t.Errorf("%s: got %v", c.name, got)
		}
	}
}

func TestUnknownRouteIsJSON404(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "GET", Path: "/auth/nothing-here", Tenant: tn.ID})
	expect(t, res, http.StatusNotFound, "Not found.")
	res = testkit.Call(t, call{Method: "DELETE", Path: "/auth/login", Tenant: tn.ID})
	expect(t, res, http.StatusMethodNotAllowed, "Method not allowed.")
}

// TestLoginShowsTheRolesPermissions: the sign-in answer lists the permissions of the user's role
// beside its own, as /auth/me does, so the panel shows what the user may do from the start.
func TestLoginShowsTheRolesPermissions(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	role := testkit.Call(t, call{Method: "POST", Path: "/roles", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "FAQ editors", "permissionIds": []string{"CMS_VIEW_FAQ", "CMS_EDIT_FAQ"}}})
	testkit.Expect(t, role, 201, "")
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "R", "lastName": "U", "username": "roleuser", "password": "role-pass-123", "roleId": role.Get("result.id")}}), 201, "")
	res := testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "roleuser", "password": "role-pass-123"}})
	testkit.Expect(t, res, 200, "")
	if got := fmt.Sprint(res.Get("result.user.permissions")); got != "[CMS_VIEW_FAQ CMS_EDIT_FAQ]" {
		t.Fatalf("login permissions %s: %s", got, res.Raw)
	}
}
