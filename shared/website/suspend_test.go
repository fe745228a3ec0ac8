package website_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// A suspended tenant's website answers the maintenance page (503, Retry-After, never cached) on
// every path, its public API a 503 too, and its panel a clear refusal; resuming gives it all back.
func TestSuspendedTenant(t *testing.T) {
	tn := testkit.NewTenant(t)
	other := testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	must(t, get(t, tn, "/"), http.StatusOK)
	if _, err := tenants.SetSuspended(context.Background(), st, tn.ID, true); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/events", "/no-such-page", "/robots.txt", "/sitemap.xml"} {
		p := get(t, tn, path)
		must(t, p, http.StatusServiceUnavailable, "This website is temporarily unavailable. Please try again later.")
		if p.header.Get("Retry-After") != "3600" || p.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%s: headers %v", path, p.header)
		}
	}
	pub := testkit.Call(t, testkit.Request{Method: "GET", Path: "/api/v1/public/faqs", Tenant: tn.ID})
	testkit.Expect(t, pub, http.StatusServiceUnavailable, "This website is temporarily unavailable. Please try again later.")
	if pub.Header.Get("Retry-After") != "3600" {
		t.Fatalf("public API headers %v", pub.Header)
	}
	suspended := "This institution's account is suspended. Please contact support."
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/login", Tenant: tn.ID,
		Body: map[string]any{"username": tn.AdminUsername, "password": tn.AdminPassword}}), http.StatusForbidden, suspended)
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken}), http.StatusForbidden, suspended)
	// Another tenant goes on.
	must(t, get(t, other, "/"), http.StatusOK)
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: other.ID, Token: other.AdminToken}), http.StatusOK, "")

	if _, err := tenants.SetSuspended(context.Background(), st, tn.ID, false); err != nil {
		t.Fatal(err)
	}
	must(t, get(t, tn, "/"), http.StatusOK)
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken}), http.StatusOK, "")
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/api/v1/public/faqs", Tenant: tn.ID}), http.StatusOK, "")
}
