package tenants_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/visits"
)

// busyTenant gives a tenant one of everything that writes items: edited and deleted records
// (histories, the trash), a page with sections and a preview, forms with submissions (one of them
// in the trash), a scheduled notice, a user, sessions and failed sign-ins (a user's and an unknown
// name's), a newsletter signup, a redirect, a library image, a domain and page views.
func busyTenant(t *testing.T, tn testkit.Tenant) {
	t.Helper()
	call := func(method, path string, body any, status int) testkit.Response {
		t.Helper()
		res := testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
		testkit.Expect(t, res, status, "")
		return res
	}
	faq := call("POST", "/faqs", map[string]any{"question": "Open day?", "answer": "Yes"}, 201).Get("result.id").(string)
	call("PATCH", "/faqs/"+faq, map[string]any{"answer": "Saturday", "version": 1}, 200)
	gone := call("POST", "/faqs", map[string]any{"question": "Gone?", "answer": "Yes"}, 201).Get("result.id").(string)
	call("DELETE", "/faqs/"+gone, nil, 200)
	page := call("POST", "/pages", map[string]any{"title": "Admissions"}, 201).Get("result.id").(string)
	form := func(name string) string {
		return call("POST", "/custom-forms", map[string]any{"name": name,
			"fields": `[{"id":"NEW_1","label":"Your name","fieldType":"text","required":true}]`}, 201).Get("result.id").(string)
	}
	kept, trashed := form("Enquiry"), form("Old enquiry")
	call("PATCH", "/pages/"+page, map[string]any{"version": 1, "pageSections": []map[string]any{
		{"pageSectionTypeId": "6", "title": "Write", "config": `[{"id":"i1","title":"F","formId":"` + kept + `"}]`}}}, 200)
	call("POST", "/pages/"+page+"/preview", nil, 201)
	for _, f := range []string{kept, trashed} {
		testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/api/v1/public/forms/" + f + "/submissions", Tenant: tn.ID,
			Body: map[string]any{"Your name": "Ada"}}), http.StatusCreated, "")
	}
	call("DELETE", "/custom-forms/"+trashed, nil, 200)
	call("POST", "/notices", map[string]any{"title": "Later", "message": "m", "publishAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, 201)
	call("POST", "/redirects", map[string]any{"fromPath": "/?p=123", "to": "/admissions"}, 201) // and its path's marker
	testkit.NewUser(t, tn, "CMS_VIEW_FAQ")
	// A password reset asked for: its token and hourly counter (and its mail).
	call("POST", "/users", map[string]any{"firstName": "Re", "lastName": "Set", "username": "forgetful", "password": "staff-pass-1",
		"email": "forgetful@example.org"}, 201)
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/password-reset", Tenant: tn.ID,
		Body: map[string]any{"username": "forgetful"}}), http.StatusOK, "")
	for _, name := range []string{tn.AdminUsername, "nobody-" + tn.ID[2:8]} {
		testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": name, "password": "wrong-password"}})
	}
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/api/v1/public/newsletter-signups", Tenant: tn.ID,
		Body: map[string]any{"email": "ada@example.org"}}), http.StatusAccepted, "")
	testkit.LibraryJPEG(t, tn.ID, "photo.jpg", imagingtest.Photo(t, 64, 48, 1))
	testkit.SetDomains(t, tn.ID, tn.ID+".example.org")
	// The website's page views (counted by its beacon).
	scope, _ := store.NewScope(tn.ID)
	if err := visits.NewCounter(testkit.Deps(t).Store).Count(context.Background(), scope, visits.View{Path: "/", Referrer: "example.org"}); err != nil {
		t.Fatal(err)
	}
}

// TestTenantPartitionsFindEveryItem: the partitions a deletion and an export Query hold every
// item of the tenant a whole-table Scan finds (the Scan is the test's, never the tools'), and
// nothing of another tenant.
func TestTenantPartitionsFindEveryItem(t *testing.T) {
	ctx := context.Background()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	busyTenant(t, tn)
	busyTenant(t, other)
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	parts, err := tenants.TenantPartitions(ctx, st, scope)
	if err != nil {
		t.Fatal(err)
	}
	if parts[len(parts)-1] != scope.Root() {
		t.Fatalf("the root is not last: %v", parts)
	}
	var keys []store.Key
	root := scope.Root()
	if err := st.Table.Scan().Filter("$ = ? OR begins_with($, ?)", "PK", root, "PK", root+"#").Project("PK", "SK").All(ctx, &keys); err != nil {
		t.Fatal(err)
	}
	var missed []string
	for _, k := range keys {
		if !slices.Contains(parts, k.PK) {
			missed = append(missed, k.PK+" "+k.SK)
		}
	}
	sort.Strings(missed)
	if len(missed) > 0 {
		t.Fatalf("%d items in partitions not listed:\n%v", len(missed), missed)
	}
	for _, p := range parts {
		if p != root && !strings.HasPrefix(p, root+"#") {
			t.Fatalf("partition %s is not the tenant's", p)
		}
	}
	fp, err := deletion(t, tn.ID).Survey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fp.ItemCount != len(keys) {
		t.Fatalf("survey counts %d items, the Scan %d: %s", fp.ItemCount, len(keys), fmt.Sprint(fp.Items))
	}
}
