package collections_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func do(t *testing.T, tn testkit.Tenant, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
}

// TestHistoryKeepsEveryReplacedState: each edit keeps the state it replaced, newest first, with
// who and which fields; a kept state reads back whole; a restore writes it back as a new version
// through the edit's rules and is itself kept.
func TestHistoryKeepsEveryReplacedState(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := do(t, tn, "POST", "/faqs", map[string]any{"question": "Q1", "answer": "A1", "position": 1})
	mustStatus(t, res, 201)
	id := res.Get("result.id").(string)
	path := "/faqs/" + id
	if res := do(t, tn, "GET", path+"/versions", nil); res.Get("totalCount") != float64(0) {
		t.Fatalf("a new record has history: %s", res.Raw)
	}
	mustStatus(t, do(t, tn, "PATCH", path, map[string]any{"question": "Q2", "version": 1}), 200)
	mustStatus(t, do(t, tn, "PATCH", path, map[string]any{"answer": "A3", "position": 3, "version": 2}), 200)
	list := do(t, tn, "GET", path+"/versions", nil)
	mustStatus(t, list, 200)
	if list.Get("totalCount") != float64(2) || list.Get("result.0.version") != float64(2) || list.Get("result.1.version") != float64(1) {
		t.Fatalf("versions: %s", list.Raw)
	}
	if list.Get("result.0.byName") != "admin" || list.Get("result.0.action") != "update" ||
		fmt.Sprint(list.Get("result.0.changed")) != "[answer position]" || fmt.Sprint(list.Get("result.1.changed")) != "[question]" {
		t.Fatalf("version details: %s", list.Raw)
	}
	v1 := do(t, tn, "GET", path+"/versions/1", nil)
	if v1.Get("result.question") != "Q1" || v1.Get("result.answer") != "A1" || v1.Get("result.version") != float64(1) {
		t.Fatalf("version 1: %s", v1.Raw)
	}
	// A stale screen's restore is refused and keeps nothing.
	mustStatus(t, do(t, tn, "POST", path+"/versions/1/restore", map[string]any{"version": 2}), http.StatusConflict)
	mustStatus(t, do(t, tn, "POST", path+"/versions/1/restore", map[string]any{}), http.StatusBadRequest)
	restored := do(t, tn, "POST", path+"/versions/1/restore", map[string]any{"version": 3})
	mustStatus(t, restored, 200)
	if restored.Get("result.question") != "Q1" || restored.Get("result.answer") != "A1" || restored.Get("result.version") != float64(4) ||
		!strings.Contains(restored.Message(), "restored to version 1") {
		t.Fatalf("restore: %s", restored.Raw)
	}
	list = do(t, tn, "GET", path+"/versions", nil)
	if list.Get("totalCount") != float64(3) || list.Get("result.0.action") != "restore" || list.Get("result.0.restoredFrom") != float64(1) {
		t.Fatalf("after the restore: %s", list.Raw)
	}
	for _, p := range []string{path + "/versions/9", path + "/versions/0", path + "/versions/x"} {
		mustStatus(t, do(t, tn, "GET", p, nil), 404)
	}
}

// TestHistoryKeepsTheLastFifty: a record keeps its last 50 versions; older ones are gone.
func TestHistoryKeepsTheLastFifty(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := do(t, tn, "POST", "/faqs", map[string]any{"question": "Q0", "answer": "A"})
	id := res.Get("result.id").(string)
	for v := 1; v <= 55; v++ {
		mustStatus(t, do(t, tn, "PATCH", "/faqs/"+id, map[string]any{"question": fmt.Sprint("Q", v), "version": v}), 200)
	}
	list := do(t, tn, "GET", "/faqs/"+id+"/versions", nil)
	if list.Get("totalCount") != float64(50) || list.Get("result.0.version") != float64(55) || list.Get("result.49.version") != float64(6) {
		t.Fatalf("kept: %v, newest %v, oldest %v", list.Get("totalCount"), list.Get("result.0.version"), list.Get("result.49.version"))
	}
	mustStatus(t, do(t, tn, "GET", "/faqs/"+id+"/versions/5", nil), 404)
	if v := do(t, tn, "GET", "/faqs/"+id+"/versions/6", nil); v.Get("result.question") != "Q5" {
		t.Fatalf("version 6: %s", v.Raw)
	}
}

// TestHistoryOfSingletonsAndUsers: a singleton keeps its saves and restores like a record; a
// user's versions never hold a password or its hash, and a restore leaves the password alone.
func TestHistoryOfSingletonsAndUsers(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	mustStatus(t, do(t, tn, "PATCH", "/footer", map[string]any{"copyrightText": "First"}), 200)
	mustStatus(t, do(t, tn, "PATCH", "/footer", map[string]any{"copyrightText": "Second"}), 200)
	list := do(t, tn, "GET", "/footer/"+tn.ID+"/versions", nil)
	first := list.Get("result.0.version")
	if list.Get("totalCount") != float64(2) || fmt.Sprint(list.Get("result.0.changed")) != "[copyrightText]" {
		t.Fatalf("footer versions: %s", list.Raw)
	}
	cur := do(t, tn, "GET", "/footer", nil).Get("result.version")
	restored := do(t, tn, "POST", fmt.Sprintf("/footer/%s/versions/%v/restore", tn.ID, first), map[string]any{"version": cur})
	if restored.Status != 200 || restored.Get("result.copyrightText") != "First" {
		t.Fatalf("footer restore: %s", restored.Raw)
	}
	mustStatus(t, do(t, tn, "GET", "/footer/someone-else/versions", nil), 404)

	uid := testkit.NewUser(t, tn)
	_ = uid
	users := do(t, tn, "GET", "/users?limit=5&sort=username&order=desc", nil)
	var userID string
	for _, u := range users.Body["result"].([]any) {
		if m := u.(map[string]any); m["id"] != tn.AdminID {
			userID = m["id"].(string)
		}
	}
	mustStatus(t, do(t, tn, "PATCH", "/users/"+userID, map[string]any{"password": "changed-pass-1", "email": "new@example.org", "version": 1}), 200)
	v := do(t, tn, "GET", "/users/"+userID+"/versions/1", nil)
	if v.Status != 200 || strings.Contains(string(v.Raw), "password") || strings.Contains(string(v.Raw), "Hash") {
		t.Fatalf("a user's version: %s", v.Raw)
	}
	scope, _ := store.NewScope(tn.ID)
	var raw []map[string]any
	if err := testkit.Deps(t).Store.Table.Get("PK", scope.Partition("HIST", "users", userID)).All(context.Background(), &raw); err != nil {
		t.Fatal(err)
	}
	for _, it := range raw {
		for k := range it {
			if strings.Contains(strings.ToLower(k), "password") || strings.Contains(strings.ToLower(k), "passcode") {
				t.Fatalf("a version item holds %s", k)
			}
		}
	}
}

// TestHistoryRoutesAreTheTenantsAndNeedTheRights: another tenant's token finds nothing, a user
// without the collection's VIEW cannot read the history nor without EDIT restore it.
func TestHistoryRoutesAreTheTenantsAndNeedTheRights(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	res := do(t, a, "POST", "/faqs", map[string]any{"question": "Q", "answer": "A"})
	id := res.Get("result.id").(string)
	mustStatus(t, do(t, a, "PATCH", "/faqs/"+id, map[string]any{"question": "Q2", "version": 1}), 200)
	for _, c := range []struct{ method, path string }{
		{"GET", "/faqs/" + id + "/versions"}, {"GET", "/faqs/" + id + "/versions/1"}, {"POST", "/faqs/" + id + "/versions/1/restore"},
	} {
		if r := do(t, b, c.method, c.path, map[string]any{"version": 2}); r.Status != 404 {
			t.Errorf("%s %s with another tenant's token: %d", c.method, c.path, r.Status)
		}
		if r := testkit.Call(t, call{Method: c.method, Path: c.path, Tenant: a.ID, Token: b.AdminToken, Body: map[string]any{"version": 2}}); r.Status != 401 {
			t.Errorf("%s %s with a token of another tenant on this one: %d", c.method, c.path, r.Status)
		}
	}
	viewer := testkit.NewUser(t, a, "CMS_VIEW_FAQ")
	if r := testkit.Call(t, call{Method: "GET", Path: "/faqs/" + id + "/versions", Tenant: a.ID, Token: viewer}); r.Status != 200 {
		t.Errorf("a viewer reading history: %d", r.Status)
	}
	if r := testkit.Call(t, call{Method: "POST", Path: "/faqs/" + id + "/versions/1/restore", Tenant: a.ID, Token: viewer, Body: map[string]any{"version": 2}}); r.Status != 403 {
		t.Errorf("a viewer restoring: %d", r.Status)
	}
	nobody := testkit.NewUser(t, a)
	if r := testkit.Call(t, call{Method: "GET", Path: "/faqs/" + id + "/versions", Tenant: a.ID, Token: nobody}); r.Status != 403 {
		t.Errorf("reading history without VIEW: %d", r.Status)
	}
}
