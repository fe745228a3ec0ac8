package redirects_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/redirects"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// Upsert writes through the engine (a version and an audit entry per change), finds its own
// redirect again with one read, updates it only when the target or status differ, and leaves a
// person's redirect from the same path alone.
func TestUpsert(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tn := testkit.NewTenant(t)
	svc, caller := service(t), testkit.AdminCaller(t, tn)
	scope, _ := store.NewScope(tn.ID)

	changed, err := redirects.Upsert(ctx, svc, caller, "/2019/05/hello-world/", "/notices/01ARZ3NDEKTSV4RRFFQ69G5FAV", 301)
	if err != nil || !changed {
		t.Fatalf("first Upsert = %v, %v", changed, err)
	}
	id := redirects.RecordID(scope, "/2019/05/hello-world")
	wantMarker(t, tn.ID, "/2019/05/hello-world", id, "/notices/01ARZ3NDEKTSV4RRFFQ69G5FAV", 301)
	rec := as(t, tn, "GET", "/redirects/"+id, nil)
	testkit.Expect(t, rec, 200, "")
	if rec.Get("result.fromPath") != "/2019/05/hello-world" || rec.Get("result.statusCode") != "301" {
		t.Fatalf("stored %s", rec.Raw)
	}

	// Again, spelled another way: nothing to do.
	res, err := redirects.Put(ctx, svc, caller, "/2019/05/hello-world", "/notices/01ARZ3NDEKTSV4RRFFQ69G5FAV", 301)
	if err != nil || res != (redirects.Result{ID: id}) {
		t.Fatalf("second Put = %+v, %v", res, err)
	}
	// A new target: updated, its former state kept as a version.
	res, err = redirects.Put(ctx, svc, caller, "/2019/05/hello-world/", "/news", 302)
	if err != nil || res != (redirects.Result{ID: id, Changed: true}) {
		t.Fatalf("third Put = %+v, %v", res, err)
	}
	wantMarker(t, tn.ID, "/2019/05/hello-world", id, "/news", 302)
	versions := as(t, tn, "GET", "/redirects/"+id+"/versions", nil)
	testkit.Expect(t, versions, 200, "")
	if n := len(versions.Get("result").([]any)); n < 1 {
		t.Fatalf("no version kept: %s", versions.Raw)
	}
	audit := as(t, tn, "GET", "/audit-log?limit=5", nil)
	if audit.Get("result.0.action") != "update" || audit.Get("result.0.recordId") != id || audit.Get("result.1.action") != "create" {
		t.Fatalf("audit log %s", audit.Raw)
	}

	// A person's redirect from a path: kept as it is.
	mine := create(t, tn, map[string]any{"fromPath": "/?p=42", "to": "/admissions"}).Get("result.id").(string)
	res, err = redirects.Put(ctx, svc, caller, "/?p=42", "/somewhere-else", 301)
	if err != nil || res != (redirects.Result{ID: mine, Kept: true}) {
		t.Fatalf("Put over a person's redirect = %+v, %v", res, err)
	}
	if changed, err := redirects.Upsert(ctx, svc, caller, "/?p=42", "/somewhere-else", 301); err != nil || changed {
		t.Fatalf("Upsert over a person's redirect = %v, %v", changed, err)
	}
	wantMarker(t, tn.ID, "/?p=42", mine, "/admissions", 301)

	// Its own redirect given another path by a person: kept too, not made twice.
	testkit.Expect(t, as(t, tn, "PATCH", "/redirects/"+id, map[string]any{"fromPath": "/hello"}), 200, "")
	res, err = redirects.Put(ctx, svc, caller, "/2019/05/hello-world", "/news", 302)
	if err != nil || res != (redirects.Result{ID: id, Kept: true}) {
		t.Fatalf("Put after a person moved it = %+v, %v", res, err)
	}
	noMarker(t, tn.ID, "/2019/05/hello-world")

	// Bad input: the save's field errors, nothing written.
	for _, c := range []struct {
		from, to string
		status   int
		field    string
	}{
		{"no-slash", "/x", 301, "fromPath"},
		{"/", "/x", 301, "fromPath"},
		{"/loop/", "/loop", 301, "to"},
		{"/x", "javascript:alert(1)", 301, "to"},
		{"/x", "/y", 307, "statusCode"},
	} {
		_, err := redirects.Upsert(ctx, svc, caller, c.from, c.to, c.status)
		if e := api.AsError(err); err == nil || e.Status != http.StatusBadRequest || e.Fields[c.field] == "" {
			t.Errorf("Upsert(%q, %q, %d) = %v, want a 400 on %s", c.from, c.to, c.status, err, c.field)
		}
	}
	if n := as(t, tn, "GET", "/redirects?limit=10", nil).Get("totalCount"); n != float64(2) {
		t.Fatalf("%v redirects, want 2", n)
	}
}
