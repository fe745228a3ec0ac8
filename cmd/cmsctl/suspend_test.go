package main

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestSuspendAndResume(t *testing.T) {
	tn := testkit.NewTenant(t)
	id := tn.ID
	runSteps(t, []step{
		{"suspend", "tenant suspend --id " + id, "", "tenant " + id + " is suspended"},
		{"suspend again", "tenant suspend --id " + id, "", "was already suspended"},
		{"suspend unknown", "tenant suspend --id nobody-here", "not found", ""},
		{"suspend without id", "tenant suspend", "usage:", ""},
	})
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/auth/me", Tenant: id, Token: tn.AdminToken}), 403,
		"This institution's account is suspended. Please contact support.")
	runSteps(t, []step{{"resume", "tenant resume --id " + id, "", "tenant " + id + " is active"}})
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/auth/me", Tenant: id, Token: tn.AdminToken}), 200, "")
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?collection=tenant&action=update", Tenant: id, Token: tn.AdminToken})
	if strings.Count(string(res.Raw), `"suspended"`) != 2 {
		t.Fatalf("audit log: %s", res.Raw)
	}
}
