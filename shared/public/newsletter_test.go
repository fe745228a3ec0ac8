package public_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func signups(t *testing.T, tn testkit.Tenant) (records int, counter float64) {
	t.Helper()
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletter-signups?limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, http.StatusOK, "")
	masters := testkit.Call(t, testkit.Request{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, masters, http.StatusOK, "")
	n, _ := masters.Get("result.dashboardStats.newsletterSignupCount").(float64)
	return len(list.Get("result").([]any)), n
}

func TestNewsletterSignupIsIdempotent(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	sign := func(email, client string) resp {
		return public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, client: client, body: `{"email":"` + email + `"}`})
	}
	first := sign("Ann@Example.org", "192.0.2.1:1000")
	expect(t, first, http.StatusAccepted)
	repeat := sign(" ann@example.ORG ", "192.0.2.2:1000")
	expect(t, repeat, http.StatusAccepted)
	if repeat.body["message"] != first.body["message"] {
		t.Fatalf("a repeat answers differently: %s vs %s", repeat.raw, first.raw)
	}
	expect(t, sign("bob@example.org", "192.0.2.3:1000"), http.StatusAccepted)
	// The dashboard counts confirmed signups: these are pending (double opt-in).
	if records, counter := signups(t, tn); records != 2 || counter != 0 {
		t.Fatalf("%d records, counter %v; want 2 and 0", records, counter)
	}
	// Staff adding the same address in the panel get a conflict, not a duplicate; deleting the
	// signup frees the address.
	dup := testkit.Call(t, testkit.Request{Method: "POST", Path: "/newsletter-signups", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"email": "ANN@example.org"}})
	testkit.Expect(t, dup, http.StatusConflict, "")
	staff := create(t, tn, "newsletter-signups", map[string]any{"email": "carl@example.org"})
	expect(t, sign("carl@example.org", "192.0.2.4:1000"), http.StatusAccepted)
	del := testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/newsletter-signups/" + staff, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, del, http.StatusOK, "")
	expect(t, sign("carl@example.org", "192.0.2.4:1000"), http.StatusAccepted)
	if records, counter := signups(t, tn); records != 3 || counter != 0 {
		t.Fatalf("%d records, counter %v; want 3 and 0", records, counter)
	}
	// A visitor's signup is a create of the collection like any other: in the audit log, with
	// no user and the visitor's address; a repeat writes nothing.
	log := testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?collection=newsletter-signups&action=create", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, log, http.StatusOK, "")
	if n := len(log.Get("result").([]any)); n != 4 || log.Get("result.0.username") != "" || log.Get("result.0.address") != "192.0.2.4" {
		t.Fatalf("audit log of signups: %s", log.Raw)
	}
}

func TestNewsletterBadInput(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for i, body := range []string{`{"email":""}`, `{"email":"not-an-email"}`, `{}`, `{"email":"a@example.org","extra":1}`, `[1]`, `nope`} {
		res := public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, client: fmt.Sprintf("192.0.2.%d:1", i+1), body: body})
		if res.status != http.StatusBadRequest || res.body["message"] == "" {
			t.Errorf("%s: %d %s", body, res.status, res.raw)
		}
	}
	if records, counter := signups(t, tn); records != 0 || counter != 0 {
		t.Fatalf("bad input wrote %d records (counter %v)", records, counter)
	}
	expect(t, public(t, req{method: "POST", path: "/newsletter-signups", tenant: "no-such-tenant", body: `{"email":"a@example.org"}`}), http.StatusNotFound)
}

// TestHoneypotAndRateLimit: a filled _gotcha is answered like a success with nothing stored;
// past the limit a client gets 429 with Retry-After, while another client still gets through.
func TestHoneypotAndRateLimit(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	bot := public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, body: `{"email":"bot@example.org","_gotcha":"http://spam.example"}`})
	expect(t, bot, http.StatusAccepted)
	if records, counter := signups(t, tn); records != 0 || counter != 0 {
		t.Fatalf("honeypot stored %d records", records)
	}
	const client = "198.51.100.9:5555"
	for i := 0; i < 5; i++ {
		res := public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, client: client, body: fmt.Sprintf(`{"email":"p%d@example.org"}`, i)})
		expect(t, res, http.StatusAccepted)
	}
	over := public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, client: client, body: `{"email":"p9@example.org"}`})
	expect(t, over, http.StatusTooManyRequests)
	if s, err := strconv.Atoi(over.header.Get("Retry-After")); err != nil || s < 1 || s > 601 {
		t.Fatalf("Retry-After %q", over.header.Get("Retry-After"))
	}
	// Behind CloudFront the viewer's address is CloudFront-Viewer-Address, not the connection's.
	viaCDN := public(t, req{method: "POST", path: "/newsletter-signups", tenant: tn.ID, client: client,
		header: map[string]string{"CloudFront-Viewer-Address": "2001:db8::7:443"}, body: `{"email":"v6@example.org"}`})
	expect(t, viaCDN, http.StatusAccepted)
	if records, _ := signups(t, tn); records != 6 {
		t.Fatalf("%d records, want 6", records)
	}
}
