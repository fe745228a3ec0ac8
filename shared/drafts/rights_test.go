package drafts_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestPublishRights: the catalogue offers CMS_PUBLISH_{CATEGORY} for the workflow collections
// only; the Administrator role every tenant starts with holds them; they are granted under the
// rule of every right (nobody grants a right they do not hold).
func TestPublishRights(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	perms := must(t, as(t, tn, tn.AdminToken, "GET", "/permissions", nil), 200)
	var codes []string
	for _, p := range perms.Get("permissions").([]any) {
		codes = append(codes, p.(map[string]any)["code"].(string))
	}
	for _, code := range []string{"CMS_PUBLISH_PAGE", "CMS_PUBLISH_EVENT", "CMS_PUBLISH_NOTICE"} {
		if !slices.Contains(codes, code) {
			t.Fatalf("%s not offered: %v", code, codes)
		}
	}
	if slices.Contains(codes, "CMS_PUBLISH_FAQ") {
		t.Fatal("a collection without workflow offers a publish right")
	}
	testkit.Expect(t, as(t, tn, tn.AdminToken, "POST", "/roles", map[string]any{"name": "FAQ publishers", "permissionIds": []string{"CMS_PUBLISH_FAQ"}}),
		http.StatusBadRequest, "")
	roles := must(t, as(t, tn, tn.AdminToken, "GET", "/roles", nil), 200)
	admin := roles.Get("result.0.permissionIds").([]any)
	if !slices.Contains(admin, any("CMS_PUBLISH_PAGE")) || !slices.Contains(admin, any("CMS_PUBLISH_NOTICE")) {
		t.Fatalf("the Administrator role lacks the publish rights: %s", roles.Raw)
	}
	// A manager of roles who cannot publish cannot make a role that can.
	manager := testkit.NewUser(t, tn, "CMS_VIEW_ROLE", "CMS_CREATE_ROLE", "CMS_EDIT_ROLE", "CMS_EDIT_PAGE", "CMS_VIEW_PAGE")
	testkit.Expect(t, as(t, tn, manager, "POST", "/roles", map[string]any{"name": "Publishers", "permissionIds": []string{"CMS_PUBLISH_PAGE"}}),
		http.StatusForbidden, "You cannot grant permissions you do not hold.")
	must(t, as(t, tn, manager, "POST", "/roles", map[string]any{"name": "Editors", "permissionIds": []string{"CMS_EDIT_PAGE"}}), http.StatusCreated)
	// A role holding the right makes its users reviewers.
	role := must(t, as(t, tn, tn.AdminToken, "POST", "/roles", map[string]any{"name": "Communications", "permissionIds": []string{"CMS_VIEW_NOTICE", "CMS_EDIT_NOTICE", "CMS_PUBLISH_NOTICE"}}), 201)
	must(t, as(t, tn, tn.AdminToken, "POST", "/users", map[string]any{"firstName": "Com", "lastName": "Office", "username": "comms",
		"password": "staff-pass-1", "roleId": role.Get("result.id")}), 201)
	comms := testkit.Login(t, tn.ID, "comms", "staff-pass-1")
	setReview(t, tn, true)
	writer := testkit.NewUser(t, tn, "CMS_VIEW_NOTICE", "CMS_CREATE_NOTICE", "CMS_EDIT_NOTICE")
	id := must(t, as(t, tn, writer, "POST", "/notices/draft", map[string]any{"title": "Graduation", "message": "On 3 July"}), 201).Get("result.id").(string)
	must(t, as(t, tn, writer, "POST", "/notices/"+id+"/draft/submit", nil), 200)
	must(t, as(t, tn, comms, "POST", "/notices/"+id+"/draft/approve", nil), 200)
	must(t, as(t, tn, writer, "POST", "/notices/"+id+"/draft/publish", nil), http.StatusForbidden)
	must(t, as(t, tn, comms, "POST", "/notices/"+id+"/draft/publish", nil), 200)
	must(t, as(t, tn, writer, "GET", "/notices/"+id, nil), 200)
}

// TestDraftAnswerSaysWhoMayPublish: GET …/draft says whether review is required and whether the
// caller may publish (the editor's buttons follow it; an author may not read the Site settings).
func TestDraftAnswerSaysWhoMayPublish(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	author := testkit.NewUser(t, tn, "CMS_VIEW_EVENT", "CMS_CREATE_EVENT", "CMS_EDIT_EVENT")
	id := must(t, as(t, tn, author, "POST", "/events/draft", map[string]any{"title": "Open day", "startDate": "2030-05-01"}), 201).Get("result.id").(string)
	check := func(token string, review, may bool) {
		t.Helper()
		res := must(t, as(t, tn, token, "GET", "/events/"+id+"/draft", nil), 200)
		if res.Get("result.requireReview") != review || res.Get("result.mayPublish") != may {
			t.Fatalf("want requireReview %v, mayPublish %v: %s", review, may, res.Raw)
		}
	}
	check(author, false, true)
	check(tn.AdminToken, false, true)
	setReview(t, tn, true)
	check(author, true, false)
	check(tn.AdminToken, true, true)
}
