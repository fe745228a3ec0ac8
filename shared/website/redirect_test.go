package website_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// wantRedirect fails unless p is a redirect with this status and Location, cached as its status
// says, with a body linking the target.
func wantRedirect(t *testing.T, p page, status int, location string) {
	t.Helper()
	if p.status != status || p.header.Get("Location") != location {
		t.Fatalf("status %d Location %q, want %d %q: %.300s", p.status, p.header.Get("Location"), status, location, p.body)
	}
	want := public.CacheControl
	if status == http.StatusFound {
		want = public.TemporaryCacheControl
	}
	if cc := p.header.Get("Cache-Control"); cc != want {
		t.Fatalf("Cache-Control %q for a %d, want %q", cc, status, want)
	}
	if !strings.Contains(p.body, `href="`+strings.ReplaceAll(location, "&", "&amp;")+`"`) {
		t.Fatalf("body %q does not link %s", p.body, location)
	}
}

// Redirects answer old addresses the new site has nothing at: 301 and 302, a path kept relative,
// an https address as is, WordPress's /?p=123 before the home page; an existing page wins over
// a redirect from its own path; an unknown path is still the 404 page; another method than GET
// or HEAD is not redirected.
func TestRedirects(t *testing.T) {
	tn := testkit.NewTenant(t)
	_, slug := newPage(t, tn, "Admissions", nil)
	for _, r := range []map[string]any{
		{"fromPath": "/about-us/", "to": "/" + slug},
		{"fromPath": "/old-news", "to": "https://news.example.org/latest?x=1&y=2", "statusCode": "302"},
		{"fromPath": "/?p=123", "to": "/" + slug},
		{"fromPath": "/blog?page_id=7", "to": "/notices"},
		{"fromPath": "/" + slug, "to": "/never-taken"},
		{"fromPath": "/über-uns", "to": "/" + slug},
		{"fromPath": "/events/01ARZ3NDEKTSV4RRFFQ69G5FAV", "to": "/events"},
	} {
		staff(t, tn, "POST", "/redirects", r)
	}
	p := get(t, tn, "/about-us")
	wantRedirect(t, p, http.StatusMovedPermanently, "/"+slug)
	if p.calls > 3 {
		t.Errorf("a redirect took %d DynamoDB calls, want at most 3", p.calls)
	}
	wantRedirect(t, get(t, tn, "/about-us/"), http.StatusMovedPermanently, "/"+slug)
	wantRedirect(t, get(t, tn, "/about-us?utm_source=newsletter"), http.StatusMovedPermanently, "/"+slug)
	wantRedirect(t, get(t, tn, "/old-news"), http.StatusFound, "https://news.example.org/latest?x=1&y=2")
	wantRedirect(t, get(t, tn, "/%C3%BCber-uns/"), http.StatusMovedPermanently, "/"+slug)
	// A detail that is not there: its old address redirects.
	wantRedirect(t, get(t, tn, "/events/01ARZ3NDEKTSV4RRFFQ69G5FAV"), http.StatusMovedPermanently, "/events")

	// WordPress's query addresses, on the home page and on a path.
	p = get(t, tn, "/?p=123")
	wantRedirect(t, p, http.StatusMovedPermanently, "/"+slug)
	if p.calls > 2 {
		t.Errorf("/?p=123 took %d DynamoDB calls, want at most 2", p.calls)
	}
	wantRedirect(t, get(t, tn, "/?p=123&preview=true"), http.StatusMovedPermanently, "/"+slug)
	wantRedirect(t, get(t, tn, "/blog/?page_id=7"), http.StatusMovedPermanently, "/notices")
	must(t, get(t, tn, "/?p=124"), http.StatusOK, "Welcome to")
	must(t, get(t, tn, "/?utm_source=x"), http.StatusOK, "Welcome to")
	must(t, get(t, tn, "/"), http.StatusOK, "Welcome to")

	// The new site's paths first.
	must(t, get(t, tn, "/"+slug), http.StatusOK, "<h1>Admissions</h1>")
	// Nothing there and no redirect: the 404 page, at the same cost as before.
	p = get(t, tn, "/no-such-page")
	must(t, p, http.StatusNotFound, "Page not found")
	if p.calls > 2 {
		t.Errorf("a 404 took %d DynamoDB calls, want at most 2", p.calls)
	}
	must(t, get(t, tn, "/old-news/more"), http.StatusNotFound, "Page not found")
	must(t, get(t, tn, "/blog"), http.StatusNotFound, "Page not found")

	// HEAD is redirected without a body; a form posted to an old address is not redirected.
	if p := visit(t, "HEAD", tn.ID+".localhost:8080", "/about-us", nil); p.status != http.StatusMovedPermanently || p.header.Get("Location") != "/"+slug || p.body != "" {
		t.Errorf("HEAD: %d %q %q", p.status, p.header.Get("Location"), p.body)
	}
	must(t, visit(t, "POST", tn.ID+".localhost:8080", "/about-us", nil), http.StatusNotFound, "Page not found")

	// Changed in the panel: the website answers the new target and status.
	id := staff(t, tn, "GET", "/redirects?search=old&limit=5", nil).Get("result.0.id").(string)
	staff(t, tn, "PATCH", "/redirects/"+id, map[string]any{"to": "/faqs", "statusCode": "301"})
	wantRedirect(t, get(t, tn, "/old-news"), http.StatusMovedPermanently, "/faqs")
	// Switched off: as if there were none; on again: answered again.
	staff(t, tn, "PATCH", "/redirects/"+id, map[string]any{"status": false})
	must(t, get(t, tn, "/old-news"), http.StatusNotFound, "Page not found")
	staff(t, tn, "PATCH", "/redirects/"+id, map[string]any{"status": true})
	wantRedirect(t, get(t, tn, "/old-news"), http.StatusMovedPermanently, "/faqs")
	staff(t, tn, "DELETE", "/redirects/"+id, nil)
	must(t, get(t, tn, "/old-news"), http.StatusNotFound, "Page not found")
}

// A redirect of tenant A never answers on tenant B's site, nor on a host A does not own; a
// suspended tenant's redirects are the maintenance page like every other address.
func TestRedirectsAreTenants(t *testing.T) {
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	staff(t, a, "POST", "/redirects", map[string]any{"fromPath": "/only-in-a", "to": "/events"})
	staff(t, a, "POST", "/redirects", map[string]any{"fromPath": "/?p=9", "to": "/faqs"})
	wantRedirect(t, get(t, a, "/only-in-a"), http.StatusMovedPermanently, "/events")
	must(t, get(t, b, "/only-in-a"), http.StatusNotFound, "Page not found")
	must(t, get(t, b, "/?p=9"), http.StatusOK, "Welcome to")
	for _, host := range []string{"nobody-here.localhost", a.ID + ".localhost.evil.com"} {
		if p := visit(t, "GET", host, "/only-in-a", nil); p.status != http.StatusNotFound || p.header.Get("Location") != "" {
			t.Errorf("host %s: %d %q", host, p.status, p.header.Get("Location"))
		}
	}

	st := testkit.Deps(t).Store
	if _, err := tenants.SetSuspended(context.Background(), st, a.ID, true); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/only-in-a", "/?p=9"} {
		p := get(t, a, path)
		must(t, p, http.StatusServiceUnavailable, "This website is temporarily unavailable.")
		if p.header.Get("Location") != "" {
			t.Errorf("%s: a suspended site redirected", path)
		}
	}
	if _, err := tenants.SetSuspended(context.Background(), st, a.ID, false); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, get(t, a, "/?p=9"), http.StatusMovedPermanently, "/faqs")
}
