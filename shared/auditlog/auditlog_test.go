package auditlog_test

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

func must(t *testing.T, res testkit.Response, status int) testkit.Response {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d: %s", res.Status, status, res.Raw)
	}
	return res
}

// entries reads the log (query is what follows ?), as action/collection/changed strings.
func entries(t *testing.T, tn testkit.Tenant, query string) ([]map[string]any, string) {
	t.Helper()
	res := must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log?" + query, Tenant: tn.ID, Token: tn.AdminToken}), 200)
	var out []map[string]any
	for _, it := range res.Body["result"].([]any) {
		out = append(out, it.(map[string]any))
	}
	next, _ := res.Body["nextCursor"].(string)
	return out, next
}

func summary(list []map[string]any) string {
	var parts []string
	for _, e := range list {
		parts = append(parts, fmt.Sprintf("%v %v %v", e["action"], e["collection"], e["changed"]))
	}
	return strings.Join(parts, "; ")
}

// TestEveryWriteAndSignInIsRecorded: creates, edits, deletes, restores and sign-ins (failed ones
// too) each leave one entry, newest first, with who and from where and which fields, never a
// value; a refused write leaves none.
func TestEveryWriteAndSignInIsRecorded(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	do := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	id := must(t, do("POST", "/faqs", map[string]any{"question": "Q", "answer": "secret answer"}), 201).Get("result.id").(string)
	must(t, do("PATCH", "/faqs/"+id, map[string]any{"answer": "another", "version": 1}), 200)
	must(t, do("PATCH", "/faqs/"+id, map[string]any{"answer": "stale", "version": 1}), 409)
	must(t, do("POST", "/faqs/"+id+"/versions/1/restore", map[string]any{"version": 2}), 200)
	must(t, do("DELETE", "/faqs/"+id, nil), 200)
	must(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "admin", "password": "wrong-pass-1"}}), 401)
	token := testkit.Login(t, tn.ID, tn.AdminUsername, tn.AdminPassword)
	must(t, testkit.Call(t, call{Method: "POST", Path: "/auth/logout", Tenant: tn.ID, Token: token}), 200)

	list, _ := entries(t, tn, "limit=20")
	got := summary(list)
	want := "logout  <nil>; login  <nil>; login-failed  <nil>; delete faqs <nil>; restore faqs [answer]; update faqs [answer]; create faqs <nil>"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("log:\n%s\nwant it to start with\n%s", got, want)
	}
	if l, _ := entries(t, tn, "collection=tenant"); len(l) != 1 || l[0]["username"] != "cmsctl" || l[0]["recordId"] != tn.ID {
		t.Fatalf("the tenant's creation: %v", l)
	}
	for _, e := range list[:7] {
		if e["username"] != "admin" || e["address"] == nil || e["address"] == "" {
			t.Fatalf("entry without who or where: %v", e)
		}
	}
	if strings.Contains(string(must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log", Tenant: tn.ID, Token: tn.AdminToken}), 200).Raw), "secret answer") {
		t.Fatal("the log holds a value")
	}
}

// TestFiltersAndPaging: by user, collection, action and date, a page at a time by cursor.
func TestFiltersAndPaging(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	do := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	for i := range 5 {
		must(t, do("POST", "/faqs", map[string]any{"question": fmt.Sprint("Q", i), "answer": "A"}), 201)
	}
	must(t, do("POST", "/notices", map[string]any{"title": "N", "message": "M"}), 201)
	if l, _ := entries(t, tn, "collection=faqs&action=create"); len(l) != 5 {
		t.Fatalf("faq creates: %s", summary(l))
	}
	if l, _ := entries(t, tn, "collection=notices"); len(l) != 1 {
		t.Fatalf("notices: %s", summary(l))
	}
	if l, _ := entries(t, tn, "user="+tn.AdminID+"&collection=notices"); len(l) != 1 {
		t.Fatalf("the admin's notices: %s", summary(l))
	}
	tomorrow := time.Now().AddDate(0, 0, 1).Format(time.DateOnly)
	if l, _ := entries(t, tn, "from="+tomorrow); len(l) != 0 {
		t.Fatalf("from tomorrow: %s", summary(l))
	}
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		l, next := entries(t, tn, "collection=faqs&limit=2&cursor="+cursor)
		pages++
		for _, e := range l {
			if seen[e["id"].(string)] {
				t.Fatalf("entry %v twice", e["id"])
			}
			seen[e["id"].(string)] = true
		}
		if next == "" || pages > 5 {
			break
		}
		cursor = next
	}
	if len(seen) != 5 || pages != 3 {
		t.Fatalf("paged %d entries in %d pages", len(seen), pages)
	}
	for _, q := range []string{"limit=0", "limit=101", "from=yesterday", "user=not-an-id", "cursor=garbage", "collection=a%23b"} {
		must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log?" + q, Tenant: tn.ID, Token: tn.AdminToken}), 400)
	}
}

// TestTheLogIsTheTenantsAndNeedsItsRight: another tenant's token gets nothing, a user without
// the right gets a 403, with it the log and its export; no route writes to it.
func TestTheLogIsTheTenantsAndNeedsItsRight(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	must(t, testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: a.ID, Token: a.AdminToken, Body: map[string]any{"question": "=HYPERLINK(1)", "answer": "A"}}), 201)
	must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log", Tenant: a.ID, Token: b.AdminToken}), 401)
	if l, _ := entries(t, b, "collection=faqs"); len(l) != 0 {
		t.Fatalf("tenant b sees %s", summary(l))
	}
	nobody := testkit.NewUser(t, a)
	must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log", Tenant: a.ID, Token: nobody}), 403)
	must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log/export", Tenant: a.ID, Token: nobody}), 403)
	auditor := testkit.NewUser(t, a, "CMS_VIEW_AUDIT_LOG")
	must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log", Tenant: a.ID, Token: auditor}), 200)
	res := must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log/export?collection=faqs", Tenant: a.ID, Token: auditor}), 200)
	rows, err := csv.NewReader(strings.NewReader(string(res.Raw))).ReadAll()
	if err != nil || len(rows) != 2 || rows[0][0] != "When" || rows[1][2] != "create" || rows[1][3] != "faqs" {
		t.Fatalf("export: %v %q", err, res.Raw)
	}
	if l, _ := entries(t, a, "action=export"); len(l) != 1 {
		t.Fatalf("the export is not in the log: %s", summary(l))
	}
	for _, m := range []string{"POST", "PATCH", "DELETE", "PUT"} {
		if r := testkit.Call(t, call{Method: m, Path: "/audit-log", Tenant: a.ID, Token: a.AdminToken, Body: map[string]any{}}); r.Status != http.StatusMethodNotAllowed {
			t.Errorf("%s /audit-log: %d", m, r.Status)
		}
	}
}

// TestProfileChangesAreRecorded: a user's change to their own profile is in the log, naming the
// fields (a new password among them) and never a value.
func TestProfileChangesAreRecorded(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	must(t, testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"username": "admin", "email": "head@example.org", "phone": "5551234567", "password": "new-secret-pass-9", "currentPassword": tn.AdminPassword}}), 200)
	list, _ := entries(t, tn, "collection=users&action=update")
	if len(list) != 1 || fmt.Sprint(list[0]["changed"]) != "[email phone password]" || list[0]["recordId"] != tn.AdminID {
		t.Fatalf("log: %v", list)
	}
	res := must(t, testkit.Call(t, call{Method: "GET", Path: "/audit-log/export", Tenant: tn.ID, Token: tn.AdminToken}), 200)
	if strings.Contains(string(res.Raw), "new-secret-pass-9") || strings.Contains(string(res.Raw), "head@example.org") {
		t.Fatal("the log holds a value")
	}
}
