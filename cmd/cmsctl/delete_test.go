package main

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestDeleteCommand(t *testing.T) {
	t.Setenv("WEBSITE_DISTRIBUTION_ID", "")
	tn := testkit.NewTenant(t)
	id := tn.ID
	runSteps(t, []step{
		{"dry run", "tenant delete --id " + id, "", "nothing was deleted; run again with --confirm " + id},
		{"still there", "tenant delete --id " + id, "", "root:TENANT"},
		{"wrong confirmation", "tenant delete --id " + id + " --confirm someone-else", "--confirm must repeat the tenant id", ""},
		{"delete", "tenant delete --id " + id + " --confirm " + id, "", "tenant " + id + " deleted"},
		{"again", "tenant delete --id " + id + " --confirm " + id, "", "items: 0"},
	})
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/auth/tenant-info", Tenant: id}), 404, "")
}
