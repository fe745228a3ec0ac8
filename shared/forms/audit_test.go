package forms_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// TestVisitorSubmissionIsAudited (issue 39, item 5): a visitor's submission (the public website's
// route) is a write like any other: its audit entry names the form and submission, with no user
// and the visitor's address, in the submission's own transaction; it is found by its values.
func TestVisitorSubmissionIsAudited(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := createForm(t, tn, everyType[:1])
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	visitor := &auth.Caller{Scope: scope, Client: audit.Client{Address: "192.0.2.77"}}
	sub, err := forms.Submit(context.Background(), testkit.Deps(t).Store, visitor, formID, map[string]json.RawMessage{"Name": json.RawMessage(`"Grace Hopper"`)})
	if err != nil {
		t.Fatal(err)
	}
	log := testkit.Call(t, call{Method: "GET", Path: "/audit-log?collection=custom-form-submissions&action=create", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, log, 200, "")
	if n := len(log.Get("result").([]any)); n != 1 || log.Get("result.0.recordId") != formID+"/"+sub["id"].(string) ||
		log.Get("result.0.username") != "" || log.Get("result.0.address") != "192.0.2.77" {
		t.Fatalf("audit log of the submission: %s", log.Raw)
	}
	found := testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&search=hopper", Tenant: tn.ID, Token: tn.AdminToken})
	if found.Get("totalCount") != float64(1) {
		t.Fatalf("search by value: %s", found.Raw)
	}
}
