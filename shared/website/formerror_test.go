package website_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// TestAFormSectionThatCannotBeReadIsNotCached: a form section whose form cannot be read
// (throttled, or any fault) fails the page with an error page that is never cached, instead of
// caching the page without its form for everyone; a form that is gone still leaves only its
// section empty.
func TestAFormSectionThatCannotBeReadIsNotCached(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	form := staff(t, tn, "POST", "/custom-forms", map[string]any{"name": "Enquiry",
		"fields": `[{"id":"NEW_1","label":"Your name","fieldType":"text","required":true}]`}).Get("result.id").(string)
	res := staff(t, tn, "POST", "/pages", map[string]any{"title": "Contact"})
	id, slug := res.Get("result.id").(string), res.Get("result.slug").(string)
	staff(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": []map[string]any{
		{"pageSectionTypeId": "6", "title": "Write to us", "config": `[{"id":"i1","title":"Form","formId":"` + form + `"}]`}}})
	must(t, get(t, tn, "/"+slug), http.StatusOK, "Your name")

	for _, code := range []string{"ProvisionedThroughputExceededException", "ValidationException"} {
		undo := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Op: "GetItem", Match: form, Status: 400, Code: code})
		p := get(t, tn, "/"+slug)
		undo()
		if p.status < 500 {
			t.Fatalf("%s: status %d, want a 5xx: %.300s", code, p.status, p.body)
		}
		if cc := p.header.Get("Cache-Control"); cc != "no-store" || p.header.Get("ETag") != "" {
			t.Fatalf("%s: a failed read is cached: %v", code, p.header)
		}
	}
	must(t, get(t, tn, "/"+slug), http.StatusOK, "Your name")

	// Gone: the page stays, without the form. The panel no longer deletes a form a page shows
	// (409), so the form goes behind its back, as one deleted before forms counted their pages.
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/custom-forms/" + form, Tenant: tn.ID, Token: tn.AdminToken}),
		http.StatusConflict, "This Form is still used by 1 record(s) (Pages). Delete or reassign them first.")
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := testkit.Deps(t).Store.Table.Delete("PK", scope.Collection("custom-forms")).Range("SK", form).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	p := get(t, tn, "/"+slug)
	must(t, p, http.StatusOK, "Write to us")
	if p.header.Get("ETag") == "" {
		t.Fatalf("a page without its deleted form is an ordinary page: %v", p.header)
	}
}
