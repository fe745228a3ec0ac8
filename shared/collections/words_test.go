package collections_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/testkit"
)

// titles lists a search's page titles in order.
func titles(t *testing.T, tn testkit.Tenant, path, search string) (string, float64) {
	t.Helper()
	res := get(t, tn, path+"?search="+url.QueryEscape(search))
	mustStatus(t, res, 200)
	var out []string
	for _, it := range res.Body["result"].([]any) {
		m := it.(map[string]any)
		name := m["title"]
		if name == nil {
			name = m["username"]
		}
		out = append(out, fmt.Sprint(name))
	}
	n, _ := res.Get("totalCount").(float64)
	return strings.Join(out, "|"), n
}

// TestWordSearch: every typed word begins some word of the name, in any order, accents, case and
// punctuation ignored; renames and deletes move the index with the record, in its transaction
// (a write refused under a fault leaves the index as it was); another tenant's index is not
// read; people are found by first name, last name or username.
func TestWordSearch(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	post := func(tn testkit.Tenant, title string) string {
		res := testkit.Call(t, call{Method: "POST", Path: "/pages", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"title": title}})
		mustStatus(t, res, 201)
		return res.Get("result.id").(string)
	}
	openDay := post(tn, "Café & Crème: Über 2026 — Open Day!!")
	post(tn, "Open evening")
	post(other, "Open Day elsewhere")
	for search, want := range map[string]string{
		"open day":  "Café & Crème: Über 2026 — Open Day!!",
		"DAY OPEN":  "Café & Crème: Über 2026 — Open Day!!",
		"cafe":      "Café & Crème: Über 2026 — Open Day!!",
		"uber":      "Café & Crème: Über 2026 — Open Day!!",
		"crème,":    "Café & Crème: Über 2026 — Open Day!!",
		"open":      "Open evening|Café & Crème: Über 2026 — Open Day!!",
		"pen":       "",
		"elsewhere": "",
	} {
		if got, _ := titles(t, tn, "/pages", search); got != want {
			t.Errorf("search %q: %q, want %q", search, got, want)
		}
	}

	// A rename refused under a fault changes nothing; the next one moves the words.
	undo := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Status: 400, Code: "ValidationException"})
	if res := testkit.Call(t, call{Method: "PATCH", Path: "/pages/" + openDay, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Graduation", "version": 1}}); res.Status < 400 {
		t.Fatalf("rename under a fault: %d", res.Status)
	}
	undo()
	if got, _ := titles(t, tn, "/pages", "graduation"); got != "" {
		t.Fatalf("a refused rename is searchable: %q", got)
	}
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/pages/" + openDay, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Graduation Day", "version": 1}}), 200)
	if got, _ := titles(t, tn, "/pages", "grad day"); got != "Graduation Day" {
		t.Fatalf("after the rename: %q", got)
	}
	if got, _ := titles(t, tn, "/pages", "cafe"); got != "" {
		t.Fatalf("the old name is still found: %q", got)
	}
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/pages/" + openDay, Tenant: tn.ID, Token: tn.AdminToken}), 200)
	if got, n := titles(t, tn, "/pages", "day"); got != "" || n != 0 {
		t.Fatalf("a deleted page is found: %q %v", got, n)
	}

	// People by any of their names.
	mustStatus(t, testkit.Call(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "Émile", "lastName": "Zola", "username": "ezola", "password": "zola-pass-123"}}), 201)
	for _, q := range []string{"emile", "zola", "ezo", "zola emi"} {
		if got, _ := titles(t, tn, "/users", q); got != "ezola" {
			t.Errorf("user search %q: %q", q, got)
		}
	}
}

// TestWordSearchPages: a search longer than a page is read a page at a time by cursor, each
// match once.
func TestWordSearchPages(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for i := range 12 {
		mustStatus(t, testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"question": fmt.Sprintf("Where is room %d?", i), "answer": "A"}}), 201)
	}
	seen := map[string]bool{}
	cursor := ""
	for range 5 {
		res := get(t, tn, "/faqs?search=room+where&limit=5&cursor="+url.QueryEscape(cursor))
		mustStatus(t, res, 200)
		if res.Get("totalCount") != float64(12) {
			t.Fatalf("total %v", res.Get("totalCount"))
		}
		for _, it := range res.Body["result"].([]any) {
			id := it.(map[string]any)["id"].(string)
			if seen[id] {
				t.Fatalf("%s twice", id)
			}
			seen[id] = true
		}
		cursor, _ = res.Body["nextCursor"].(string)
		if cursor == "" {
			break
		}
	}
	if len(seen) != 12 {
		t.Fatalf("paged %d of 12", len(seen))
	}
	mustStatus(t, get(t, tn, "/faqs?search=room&cursor=wZZZ"), 400)
}
