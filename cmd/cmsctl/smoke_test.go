package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// The smoke command's failures: a wrong password stops it at "sign in" with a non-zero exit,
// having written nothing. (make test runs it whole against the local stack: scripts/e2e.sh.)
func TestSmokeFailsAtTheStepThatFails(t *testing.T) {
	tn := testkit.NewTenant(t)
	var out bytes.Buffer
	err := run(context.Background(), []string{"smoke", "--url", testkit.URL(t), "--tenant", tn.ID, "--username", tn.AdminUsername, "--password", "wrong-pass-1"}, &out)
	if err == nil || !strings.Contains(err.Error(), "smoke: sign in") {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(out.String(), "ok   tenant-info") || !strings.Contains(out.String(), "FAIL sign in") || strings.Contains(out.String(), "create") {
		t.Fatalf("output:\n%s", out.String())
	}
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken})
	if res.Get("totalCount") != 0.0 {
		t.Fatalf("the failed run wrote: %s", res.Raw)
	}
	runSteps(t, []step{{"usage", "smoke --url " + testkit.URL(t), "usage:", ""}})
}
