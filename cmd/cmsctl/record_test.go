package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/testkit"
)

// TestResetsAreRecorded (issue 39, item 5): cmsctl's password, passcode and two-factor resets are
// writes like any other: each keeps the user's state it replaces as a version and leaves an audit
// entry, both by the operator's fixed user, naming what changed and never its value.
func TestResetsAreRecorded(t *testing.T) {
	tn := testkit.NewTenant(t)
	testkit.EnableTwoFactor(t, tn.ID, tn.AdminToken, tn.AdminPassword)
	who := "--tenant " + tn.ID + " --username " + tn.AdminUsername
	runSteps(t, []step{
		{"reset password", "user reset-password " + who + " --password reset-pass-9", "", "reset"},
		{"set passcode", "user set-passcode " + who + " --passcode 246813", "", "set"},
		{"reset two-factor", "user reset-2fa " + who, "", "is off"},
	})
	token := testkit.Login(t, tn.ID, tn.AdminUsername, "reset-pass-9")
	get := func(path string) testkit.Response {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: path, Tenant: tn.ID, Token: token})
		testkit.Expect(t, res, 200, "")
		return res
	}
	var versions []string
	for _, v := range get("/users/" + tn.AdminID + "/versions").Body["result"].([]any) {
		if v := v.(map[string]any); v["by"] == auth.OperatorID {
			versions = append(versions, fmt.Sprint(v["changed"]))
		}
	}
	var entries []string
	for _, e := range get("/audit-log?user=" + auth.OperatorID + "&collection=users&action=update").Body["result"].([]any) {
		if e := e.(map[string]any); e["recordId"] == tn.AdminID && e["username"] == "cmsctl" {
			entries = append(entries, fmt.Sprint(e["changed"]))
		}
	}
	want := []string{"[twoFactor]", "[passcode]", "[password]"}
	if !slices.Equal(versions, want) || !slices.Equal(entries, want) {
		t.Fatalf("the operator's versions %v and audit entries %v, want %v each", versions, entries, want)
	}
}
