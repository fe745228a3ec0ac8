package tenants_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// TestReindexCountsTheFormsPagesShow: a form shown by a page saved before pages counted their
// forms (no count: deletable while shown) counts that page after the tenant's reindex.
func TestReindexCountsTheFormsPagesShow(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	call := func(method, path string, body any, status int) testkit.Response {
		t.Helper()
		res := testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
		testkit.Expect(t, res, status, "")
		return res
	}
	form := call("POST", "/custom-forms", map[string]any{"name": "Enquiry", "fields": "[]"}, http.StatusCreated).Get("result.id").(string)
	page := call("POST", "/pages", map[string]any{"title": "Contact"}, http.StatusCreated).Get("result.id").(string)
	call("PATCH", "/pages/"+page, map[string]any{"version": 1, "pageSections": []map[string]any{
		{"pageSectionTypeId": "6", "title": "Write", "config": `[{"id":"i1","title":"F","formId":"` + form + `"}]`}}}, http.StatusOK)
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, st := context.Background(), testkit.Deps(t).Store
	if err := st.Table.Update("PK", scope.Collection("custom-forms")).Range("SK", form).Remove("refCount").Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := tenants.Reindex(ctx, st, tn.ID); err != nil {
		t.Fatal(err)
	}
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/custom-forms/" + form, Tenant: tn.ID, Token: tn.AdminToken}),
		http.StatusConflict, "This Form is still used by 1 record(s) (Pages). Delete or reassign them first.")
}
