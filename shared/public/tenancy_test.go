package public_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// TestTenantByHeaderAndHost: the header names the tenant; without it the host does; an unknown
// tenant or host is a 404 and no tenant ever sees another's records.
func TestTenantByHeaderAndHost(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	fa := create(t, a, "faqs", map[string]any{"question": "A?", "answer": "a"})
	fb := create(t, b, "faqs", map[string]any{"question": "B?", "answer": "b"})
	hostA, hostB := a.ID+".school.example", "www."+b.ID+".example"
	testkit.SetDomains(t, a.ID, hostA, "ALIAS-"+a.ID+".example.")
	testkit.SetDomains(t, b.ID, hostB)
	cases := []struct {
		name   string
		q      req
		status int
		want   []string
	}{
		{"header a", req{tenant: a.ID}, 200, []string{fa}},
		{"header b", req{tenant: b.ID}, 200, []string{fb}},
		{"host a", req{host: hostA}, 200, []string{fa}},
		{"host a with port and case", req{host: "Alias-" + a.ID + ".Example:443"}, 200, []string{fa}},
		{"host b", req{host: hostB}, 200, []string{fb}},
		{"forwarded host b (CloudFront)", req{host: "abc.execute-api.example", header: map[string]string{"X-Site-Host": hostB}}, 200, []string{fb}},
		{"header wins over host", req{tenant: b.ID, host: hostA}, 200, []string{fb}},
		{"unknown tenant", req{tenant: "no-such-tenant"}, 404, nil},
		{"malformed tenant", req{tenant: "T#" + a.ID}, 404, nil},
		{"unknown tenant never falls back to host", req{tenant: "no-such-tenant", host: hostA}, 404, nil},
		{"unknown host", req{host: "unknown.example"}, 404, nil},
		{"bad host", req{host: "bad_host!.example"}, 404, nil},
		{"no tenant", req{}, 404, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.q.path = "/faqs"
			res := public(t, c.q)
			expect(t, res, c.status)
			if c.status == 200 && !slices.Equal(res.ids(), c.want) {
				t.Fatalf("ids %v, want %v", res.ids(), c.want)
			}
			if c.status == 404 && res.body["message"] != "Could not find institution!" {
				t.Fatalf("message %v", res.body["message"])
			}
		})
	}
}

func TestSetDomains(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	ctx := context.Background()
	old, kept, added := "old-"+a.ID+".example", "kept-"+a.ID+".example", "new-"+a.ID+".example"
	testkit.SetDomains(t, a.ID, old, kept)
	testkit.SetDomains(t, a.ID, kept, added)
	if id, err := st.TenantOfHost(ctx, old); err == nil {
		t.Fatalf("removed domain still maps to %s", id)
	}
	for _, h := range []string{kept, added} {
		if id, err := st.TenantOfHost(ctx, h); err != nil || id != a.ID {
			t.Fatalf("%s maps to %q, %v", h, id, err)
		}
	}
	// A host another tenant holds is refused, and nothing of b's request is written.
	_, err := tenants.SetDomains(ctx, st, b.ID, []string{"b-" + b.ID + ".example", kept})
	if !errors.Is(err, tenants.ErrDomainTaken) {
		t.Fatalf("taken domain: %v", err)
	}
	if _, err := st.TenantOfHost(ctx, "b-"+b.ID+".example"); err == nil {
		t.Fatal("a refused set-domains wrote a lookup item")
	}
	for _, bad := range []string{"https://x.example", "x.example/path", "x..example", "-x.example", string(make([]byte, 254))} {
		if _, err := tenants.SetDomains(ctx, st, a.ID, []string{bad}); err == nil {
			t.Errorf("host %q accepted", bad)
		}
	}
	if _, err := tenants.SetDomains(ctx, st, "no-such-tenant", []string{"z.example"}); err == nil {
		t.Error("domains set on a tenant that does not exist")
	}
}

// TestCacheHeaders: reads carry Cache-Control and an ETag; If-None-Match answers 304 until the
// content changes; submissions and errors are never cached.
func TestCacheHeaders(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id := create(t, tn, "faqs", map[string]any{"question": "Q", "answer": "A"})
	first := public(t, req{path: "/faqs", tenant: tn.ID})
	expect(t, first, http.StatusOK)
	etag := first.header.Get("ETag")
	if etag == "" || first.header.Get("Cache-Control") != "public, max-age=30, stale-while-revalidate=30" {
		t.Fatalf("headers %v", first.header)
	}
	again := public(t, req{path: "/faqs", tenant: tn.ID, header: map[string]string{"If-None-Match": etag}})
	expect(t, again, http.StatusNotModified)
	if len(again.raw) != 0 || again.header.Get("ETag") != etag {
		t.Fatalf("304 with body %q / etag %q", again.raw, again.header.Get("ETag"))
	}
	expect(t, public(t, req{path: "/faqs", tenant: tn.ID, header: map[string]string{"If-None-Match": `"other", W/` + etag}}), http.StatusNotModified)
	patch(t, tn, "faqs", id, map[string]any{"answer": "Changed"})
	changed := public(t, req{path: "/faqs", tenant: tn.ID, header: map[string]string{"If-None-Match": etag}})
	expect(t, changed, http.StatusOK)
	if changed.header.Get("ETag") == etag {
		t.Fatal("ETag unchanged after an edit")
	}
	// Another tenant's answer is a different representation.
	other := testkit.NewTenant(t)
	expect(t, public(t, req{path: "/faqs", tenant: other.ID, header: map[string]string{"If-None-Match": etag}}), http.StatusOK)
	for _, r := range []resp{
		public(t, req{path: "/faqs", tenant: "no-such-tenant"}),
		public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, body: `{"email":"a@example.org"}`}),
	} {
		if r.header.Get("Cache-Control") != "no-store" || r.header.Get("ETag") != "" {
			t.Fatalf("status %d cached: %v", r.status, r.header)
		}
	}
}

// TestDynamoCallsPerRoute pins each public route's DynamoDB calls: bounded whatever the
// tenant's content.
func TestDynamoCallsPerRoute(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	testkit.SetDomains(t, tn.ID, "calls-"+tn.ID+".example")
	album := create(t, tn, "albums", map[string]any{"title": "A"})
	for i := 0; i < 25; i++ {
		create(t, tn, "faqs", map[string]any{"question": "Q", "answer": "A", "position": i})
	}
	cases := []struct {
		name string
		q    req
		want int64
	}{
		{"list by header: tenant + one query", req{path: "/faqs?page=2&limit=10", tenant: tn.ID}, 2},
		{"list by host: lookup + tenant + one query", req{path: "/faqs", host: "calls-" + tn.ID + ".example"}, 3},
		{"album photos: tenant + album + one query", req{path: "/albums/" + album + "/photos", tenant: tn.ID}, 3},
		{"newsletter: tenant + rate counter + footer (the confirmation's reply-to) + one transaction", req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, body: `{"email":"n@example.org"}`}, 4},
	}
	for _, c := range cases {
		res := public(t, c.q)
		if res.status >= 300 || res.calls != c.want {
			t.Errorf("%s: status %d, %d calls, want %d", c.name, res.status, res.calls, c.want)
		}
	}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	pre := public(t, req{method: "OPTIONS", path: "/newsletter-signups"})
	expect(t, pre, http.StatusNoContent)
	if pre.header.Get("Access-Control-Allow-Origin") != "*" || pre.header.Get("Access-Control-Allow-Headers") == "" {
		t.Fatalf("preflight headers %v", pre.header)
	}
	for _, r := range []resp{public(t, req{path: "/faqs", tenant: tn.ID}), public(t, req{path: "/faqs", tenant: "no-such-tenant"})} {
		if r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("status %d without CORS: %v", r.status, r.header)
		}
	}
}
