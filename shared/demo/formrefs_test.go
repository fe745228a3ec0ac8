package demo_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestTheDemoFormCountsThePagesShowingIt: the demo's pages are written through the engine's own
// create, so the contact form counts the two pages whose sections show it (about and contact),
// as a form shown by the panel's pages does, and cannot be deleted while they show it.
func TestTheDemoFormCountsThePagesShowingIt(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	seed(t, tn.ID)
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, http.StatusOK, "")
	id, _ := list.Get("result.0.id").(string)
	if id == "" {
		t.Fatalf("no demo form: %s", list.Raw)
	}
	res := testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusConflict, "This Form is still used by 2 record(s) (Pages). Delete or reassign them first.")
}
