package main

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// A user who lost the phone: reset-2fa turns two-factor sign-in off and ends the user's sessions,
// so the password alone signs in again.
func TestResetTwoFactor(t *testing.T) {
	tn := testkit.NewTenant(t)
	call := func(token, method, path string, body any) testkit.Response {
		return testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: token, Body: body})
	}
	testkit.EnableTwoFactor(t, tn.ID, tn.AdminToken, tn.AdminPassword)
	if res := call("", "POST", "/auth/login", map[string]any{"username": tn.AdminUsername, "password": tn.AdminPassword}); res.Get("result.twoFactor") != "code" {
		t.Fatalf("sign-in answered %s", res.Raw)
	}
	runSteps(t, []step{
		{"reset", "user reset-2fa --tenant " + tn.ID + " --username " + tn.AdminUsername, "", "two-factor sign-in of admin in " + tn.ID + " is off"},
		{"reset unknown", "user reset-2fa --tenant " + tn.ID + " --username ghost", "not found", ""},
		{"reset without user", "user reset-2fa --tenant " + tn.ID, "usage:", ""},
	})
	testkit.Expect(t, call(tn.AdminToken, "GET", "/auth/me", nil), 401, "")
	token := testkit.Login(t, tn.ID, tn.AdminUsername, tn.AdminPassword)
	if res := call(token, "GET", "/auth/me", nil); res.Get("result.twoFactor.enabled") != false {
		t.Fatalf("me: %s", res.Raw)
	}
}
