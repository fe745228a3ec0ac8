package collections_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestRichTextIsSizedOnceFormatted: the sanitiser expands ' into &#39; (5 bytes), so 100,000
// apostrophes become 500,000 bytes, over DynamoDB's item limit. The size is checked after
// sanitising, with a 413 that says so, and nothing is written.
func TestRichTextIsSizedOnceFormatted(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	before := testkit.Call(t, call{Method: "GET", Path: "/albums", Tenant: tn.ID, Token: tn.AdminToken})
	res := testkit.Call(t, call{Method: "POST", Path: "/albums", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Quotes", "description": strings.Repeat("'", 100_000)}})
	testkit.Expect(t, res, http.StatusRequestEntityTooLarge, "Description is too large (at most 97 KB once formatted).")
	if res.Get("errors.description") == nil {
		t.Fatalf("no field error: %s", res.Raw)
	}
	after := testkit.Call(t, call{Method: "GET", Path: "/albums", Tenant: tn.ID, Token: tn.AdminToken})
	if before.Get("totalCount") != after.Get("totalCount") {
		t.Fatalf("a refused create changed the count: %v → %v", before.Get("totalCount"), after.Get("totalCount"))
	}
	// A text that stays small once formatted is fine.
	res = testkit.Call(t, call{Method: "POST", Path: "/albums", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Quotes", "description": strings.Repeat("'", 1000)}})
	testkit.Expect(t, res, http.StatusCreated, "")
}

// TestControlCharactersAreRefused: a NUL (or any C0 control but tab, newline, return) in any
// string field of any collection is a 400 on that field.
func TestControlCharactersAreRefused(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, s := range []string{"a\x00b", "\x1b[31mred", "bell\x07"} {
		res := testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"question": s, "answer": "fine"}})
		testkit.Expect(t, res, http.StatusBadRequest, `Field "question" must not contain control characters.`)
	}
	res := testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"question": "Two\tlines\r\nhere?", "answer": "fine"}})
	testkit.Expect(t, res, http.StatusCreated, "")
}

// TestMarkReadBumpsVersion: marking notifications read is an edit like any other: version and
// updatedAt move, so an editor holding the old version gets a 409 instead of overwriting it.
func TestMarkReadBumpsVersion(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "POST", Path: "/notifications", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Hello", "message": "World"}})
	testkit.Expect(t, res, http.StatusCreated, "")
	id, updated := res.Get("result.id").(string), res.Get("result.updatedAt")
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"notificaitonIds": []string{id}, "passcode": ""}}), http.StatusOK, "")
	got := testkit.Call(t, call{Method: "GET", Path: "/notifications/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	if got.Get("result.read") != true || got.Get("result.version") != float64(2) || got.Get("result.updatedAt") == updated {
		t.Fatalf("after mark-read: %s", got.Raw)
	}
	// The old version is now stale.
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Edited", "version": 1}}), http.StatusConflict, "")
}
