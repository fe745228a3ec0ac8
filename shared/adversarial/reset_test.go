package adversarial_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

// The password reset routes (issue 33) under attack: telling accounts apart by the answer or by
// its time, a link used twice, a link used on another tenant, header injection through the name,
// oversized bodies.

const resetSent = "If the account exists, we have sent an email"

var resetLinkRE = regexp.MustCompile(`/reset-password\?[^\s"<>]+`)

// resetToken is the token of the newest reset mail to address in the tenant's outbox.
func resetToken(t *testing.T, tenant, address string) string {
	t.Helper()
	for _, e := range slices.Backward(testkit.Outbox(t, tenant)) {
		if e.To != address {
			continue
		}
		link := resetLinkRE.FindString(e.Text)
		u, err := url.Parse(link)
		if link == "" || err != nil || u.Query().Get("token") == "" {
			t.Fatalf("no reset link in the mail to %s: %s", address, e.Text)
		}
		return u.Query().Get("token")
	}
	t.Fatalf("no reset mail to %s", address)
	return ""
}

// resetStaff creates an active user with an email and returns its name and address.
func resetStaff(t *testing.T, tn testkit.Tenant, seq int) (name, email string) {
	t.Helper()
	name = fmt.Sprintf("forgot%d", seq)
	email = name + "." + tn.ID + "@example.org"
	res := send(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "For", "lastName": "Got", "username": name, "password": "staff-pass-1", "email": email, "permissionIds": []string{}}})
	testkit.Expect(t, res, http.StatusCreated, "")
	return name, email
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestResetEnumeration: existing, unknown and disabled accounts get byte-identical answers, and
// the median time of requests for existing accounts is close to that of unknown ones (a ratio,
// not a wall-clock limit: the emulator's speed varies, the difference must not).
func TestResetEnumeration(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	const rounds = 12
	var known, unknown []time.Duration
	var answers = map[string]bool{}
	for i := range rounds {
		// A fresh account each round, so its hourly allowance never runs out (that would be less work).
		name, email := resetStaff(t, tn, i)
		for j, who := range []string{name, fmt.Sprintf("nobody%d", i)} {
			start := time.Now()
			res := send(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: tn.ID, Body: map[string]any{"username": who}})
			took := time.Since(start)
			testkit.Expect(t, res, http.StatusOK, resetSent)
			answers[string(res.Raw)] = true
			if j == 0 {
				known = append(known, took)
			} else {
				unknown = append(unknown, took)
			}
		}
		// And by email.
		res := send(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: tn.ID, Body: map[string]any{"username": strings.ToUpper(email)}})
		answers[string(res.Raw)] = true
	}
	if len(answers) != 1 {
		t.Fatalf("the answers differ: %v", answers)
	}
	k, u := median(known), median(unknown)
	ratio := float64(k) / float64(u)
	t.Logf("median: existing %v, unknown %v (ratio %.2f)", k, u, ratio)
	if ratio > 1.5 || ratio < 1/1.5 {
		t.Fatalf("existing accounts answer in %v (median), unknown ones in %v: the time tells them apart", k, u)
	}
}

// TestResetTokenAbuse: a link works once, never on another tenant, never in another shape; the
// name cannot carry a header; oversized bodies are refused; none of it is a 5xx.
func TestResetTokenAbuse(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	name, email := resetStaff(t, a, 1)
	// b has an account of the same name: a's token must not reset it.
	resetStaff(t, b, 1)
	testkit.Expect(t, send(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: a.ID, Body: map[string]any{"username": name}}), http.StatusOK, resetSent)
	token := resetToken(t, a.ID, email)
	confirm := func(tenant, tok, pw string) testkit.Response {
		return send(t, call{Method: "POST", Path: "/auth/password-reset/confirm", Tenant: tenant, Body: map[string]any{"token": tok, "password": pw}})
	}
	if res := confirm(b.ID, token, "taken-over-1"); res.Status != http.StatusBadRequest {
		t.Fatalf("a's token on b: %d %s", res.Status, res.Raw)
	}
	testkit.Login(t, b.ID, name, "staff-pass-1")
	for _, bad := range []string{"", token + "x", token[:42], strings.Repeat("A", 43), "../" + token[3:], token[:40] + "\r\n"} {
		if res := confirm(a.ID, bad, "new-pass-123"); res.Status != http.StatusBadRequest {
			t.Fatalf("token %q: %d %s", bad, res.Status, res.Raw)
		}
	}
	testkit.Expect(t, confirm(a.ID, token, "new-pass-123"), http.StatusOK, "")
	// Reuse, also racing: every later use is refused.
	results := make(chan int, 5)
	for range 5 {
		go func() {
			results <- testkit.Call(t, call{Method: "POST", Path: "/auth/password-reset/confirm", Tenant: a.ID, Body: map[string]any{"token": token, "password": "again-pass-1"}}).Status
		}()
	}
	for range 5 {
		if st := <-results; st != http.StatusBadRequest {
			t.Fatalf("a used token: %d", st)
		}
	}
	testkit.Login(t, a.ID, name, "new-pass-123")

	// Header injection through the name, and names no account can have: 400, no mail.
	before := len(testkit.Outbox(t, a.ID))
	for _, bad := range []string{name + "\r\nBcc: victim@example.org", email + "\nBcc: victim@example.org", name + "\x00", "<" + email + ">", "Ada <" + email + ">"} {
		if res := send(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: a.ID, Body: map[string]any{"username": bad}}); res.Status != http.StatusBadRequest {
			t.Fatalf("name %q: %d %s", bad, res.Status, res.Raw)
		}
	}
	if after := len(testkit.Outbox(t, a.ID)); after != before {
		t.Fatalf("%d mails written by refused requests", after-before)
	}
	// Oversized bodies.
	for _, path := range []string{"/auth/password-reset", "/auth/password-reset/confirm"} {
		big := `{"username":"` + strings.Repeat("x", 2<<20) + `"}`
		if res := send(t, call{Method: "POST", Path: path, Tenant: a.ID, Body: big}); res.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("%s oversized: %d", path, res.Status)
		}
	}
	if res := confirm(a.ID, token, strings.Repeat("p", 300)); res.Status != http.StatusBadRequest {
		t.Fatalf("an overlong password: %d", res.Status)
	}
}
