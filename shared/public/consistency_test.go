package public_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/pages"
	pub "github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// reads are the tenant's DynamoDB reads since call from, and how many of them were strongly
// consistent.
func reads(t *testing.T, tenant string, from int) (n, consistent int, ops []string) {
	t.Helper()
	for i, c := range testkit.Faults(t).Calls(tenant) {
		if i < from || c.Service != "dynamodb" {
			continue
		}
		switch c.Op {
		case "GetItem", "BatchGetItem", "Query":
			n++
			ops = append(ops, c.Op)
			if strings.Contains(c.Body, `"ConsistentRead":true`) {
				consistent++
			}
		}
	}
	return n, consistent, ops
}

// TestPublicReadsAreEventuallyConsistent: what the website reads (behind a 30-second cache) is
// read eventually consistent, at half the cost of a strongly consistent read: the tenant, the
// slug marker, the page, its sections, its images' media records, the site bundle, lists and the
// sitemap. The panel's own reads, which follow its writes, stay strongly consistent, and so do a
// preview's (a staff member looking at what they just saved) and a visitor's form submission
// (checked against the form's version).
func TestPublicReadsAreEventuallyConsistent(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id := newPage(t, tn, map[string]any{"title": "Visit us", "slug": "visit", "image": img,
		"pageSections": []map[string]any{{"title": "Hero", "pageSectionTypeId": sectionType("slider"),
			"config": config(t, map[string]any{"title": "One", "image": img})}}})
	create(t, tn, "faqs", map[string]any{"question": "Q?", "answer": "A."})

	for _, path := range []string{"/pages/visit", "/site", "/faqs", "/sitemap.xml"} {
		from := len(testkit.Faults(t).Calls(tn.ID))
		expect(t, public(t, req{path: path, tenant: tn.ID}), http.StatusOK)
		n, consistent, ops := reads(t, tn.ID, from)
		if n == 0 || consistent != 0 {
			t.Errorf("GET %s: %d of its %d reads (%v) strongly consistent, want none", path, consistent, n, ops)
		}
	}

	// The panel reads what it wrote.
	from := len(testkit.Faults(t).Calls(tn.ID))
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages/" + id, Tenant: tn.ID, Token: tn.AdminToken}), http.StatusOK, "")
	if n, consistent, ops := reads(t, tn.ID, from); n < 3 || consistent != n {
		t.Errorf("the panel's GET /pages/{id}: %d of its %d reads (%v) strongly consistent", consistent, n, ops)
	}

	// A preview reads the page and its sections strongly consistent.
	st := testkit.Deps(t).Store
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token, _, err := pages.CreatePreview(ctx, st, scope, id, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	rd, err := pub.NewReader(st, "/media/")
	if err != nil {
		t.Fatal(err)
	}
	from = len(testkit.Faults(t).Calls(tn.ID))
	site := rd.Site(scope, "http://example.com")
	pageID, ok, err := rd.PreviewPage(ctx, site, token)
	if err != nil || !ok || pageID != id {
		t.Fatalf("preview: %q %v %v", pageID, ok, err)
	}
	v, err := rd.Visit(ctx, site, pub.Want{PageID: pageID, Tenant: true})
	if err != nil || v.Page == nil {
		t.Fatalf("preview visit: %v %v", v, err)
	}
	// The token, the page and its sections; the site's settings are the website's.
	if n, consistent, ops := reads(t, tn.ID, from); consistent != 3 {
		t.Errorf("a preview: %d of its %d reads (%v) strongly consistent, want the token, the page and its sections", consistent, n, ops)
	}
}
