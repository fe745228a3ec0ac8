package adversarial_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

// The newsletter's routes (issue 33) under attack: telling subscribed addresses apart by the
// answer, a confirmation link used twice or on another tenant's website, header injection
// through a newsletter's subject, oversized content.

var newsletterSite struct {
	once sync.Once
	h    http.Handler
	err  error
}

// siteVisit posts (or gets) path on the tenant's website and returns the status and body.
func siteVisit(t *testing.T, method, tenant, path string, form url.Values) (int, string) {
	t.Helper()
	newsletterSite.once.Do(func() {
		newsletterSite.h, newsletterSite.err = website.Build(testkit.Deps(t), website.Options{LocalHosts: true})
	})
	if newsletterSite.err != nil {
		t.Fatal(newsletterSite.err)
	}
	var r *http.Request
	if form != nil {
		r = httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	r.Host, r.RemoteAddr = tenant+".localhost:8080", "192.0.2.77:1"
	w := httptest.NewRecorder()
	newsletterSite.h.ServeHTTP(w, r.WithContext(context.Background()))
	return w.Code, w.Body.String()
}

var confirmTokenRE = regexp.MustCompile(`/newsletter/confirm\?token=([A-Za-z0-9_-]+)`)

func confirmToken(t *testing.T, tenant, address string) string {
	t.Helper()
	for _, e := range testkit.Outbox(t, tenant) {
		if e.To == address && e.Kind == mail.KindNewsletterConfirm {
			if m := confirmTokenRE.FindStringSubmatch(e.Text); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no confirmation mail to %s", address)
	return ""
}

func subscription(t *testing.T, tn testkit.Tenant, address string) string {
	t.Helper()
	res := send(t, call{Method: "GET", Path: "/newsletter-signups?limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	for _, r := range res.Get("result").([]any) {
		if m := r.(map[string]any); m["email"] == address {
			s, _ := m["subscription"].(string)
			return s
		}
	}
	return ""
}

// TestNewsletterTokenReuseAndOtherTenant: a confirmation token works once, on its own tenant's
// website only; the other tenant's signups are untouched.
func TestNewsletterTokenReuseAndOtherTenant(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	addr := "victim@" + tn.ID + ".example.org"
	if st, body := siteVisit(t, "POST", tn.ID, "/newsletter", url.Values{"email": {addr}}); st != http.StatusOK {
		t.Fatalf("signup: %d %.300s", st, body)
	}
	if st, _ := siteVisit(t, "POST", other.ID, "/newsletter", url.Values{"email": {addr}}); st != http.StatusOK {
		t.Fatalf("signup on the other tenant: %d", st)
	}
	token := confirmToken(t, tn.ID, addr)
	form := url.Values{"token": {token}}
	if st, body := siteVisit(t, "POST", other.ID, "/newsletter/confirm", form); st != http.StatusBadRequest || !strings.Contains(body, "This link is invalid or has expired.") {
		t.Fatalf("another tenant's website accepted the token: %d", st)
	}
	if got := subscription(t, other, addr); got != "pending" {
		t.Fatalf("the other tenant's signup is %q", got)
	}
	if st, _ := siteVisit(t, "POST", tn.ID, "/newsletter/confirm", form); st != http.StatusOK {
		t.Fatalf("confirm: %d", st)
	}
	if st, _ := siteVisit(t, "POST", tn.ID, "/newsletter/confirm", form); st != http.StatusBadRequest {
		t.Fatalf("a used token was accepted again: %d", st)
	}
	for _, bad := range []string{"", "x", strings.Repeat("A", 5000), token + "x"} {
		if st, _ := siteVisit(t, "POST", tn.ID, "/newsletter/confirm", url.Values{"token": {bad}}); st != http.StatusBadRequest {
			t.Errorf("token %.20q: %d, want 400", bad, st)
		}
	}
	if got := subscription(t, tn, addr); got != "confirmed" {
		t.Fatalf("signup is %q", got)
	}
}

// TestNewsletterSignupNoEnumeration: the public API answers a new, a pending and a confirmed
// address with the same status and body.
func TestNewsletterSignupNoEnumeration(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	addr := "known@" + tn.ID + ".example.org"
	siteVisit(t, "POST", tn.ID, "/newsletter", url.Values{"email": {addr}})
	siteVisit(t, "POST", tn.ID, "/newsletter/confirm", url.Values{"token": {confirmToken(t, tn.ID, addr)}})
	answer := func(email string) (int, string) {
		res := send(t, call{Method: "POST", Path: "/api/v1/public/newsletter-signups", Tenant: tn.ID, Body: map[string]any{"email": email}})
		return res.Status, strings.ReplaceAll(string(res.Raw), email, "")
	}
	s1, b1 := answer("fresh@" + tn.ID + ".example.org")
	s2, b2 := answer("fresh@" + tn.ID + ".example.org")
	s3, b3 := answer(addr)
	if s1 != s2 || s2 != s3 || b1 != b2 || b2 != b3 {
		t.Fatalf("answers differ: %d %s / %d %s / %d %s", s1, b1, s2, b2, s3, b3)
	}
}

// TestNewsletterSubjectInjectionAndOversize: a subject with a line break (a header of its own)
// and content over the limit are refused with a 4xx, nothing written.
func TestNewsletterSubjectInjectionAndOversize(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, subject := range []string{"Hi\r\nBcc: all@evil.example", "Hi\nX-Injected: 1", "Hi\x00", strings.Repeat("s", 300)} {
		res := send(t, call{Method: "POST", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"subject": subject, "content": "<p>x</p>"}})
		refused(t, fmt.Sprintf("subject %.10q", subject), res, http.StatusBadRequest)
	}
	ok := send(t, call{Method: "POST", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"subject": "Fine", "content": "<p>x</p>"}})
	if ok.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", ok.Status, ok.Raw)
	}
	id := ok.Get("result.id").(string)
	patch := send(t, call{Method: "PATCH", Path: "/newsletters/" + id, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"subject": "A\r\nBcc: x@evil.example", "version": 1}})
	refused(t, "patched subject", patch, http.StatusBadRequest)
	big := send(t, call{Method: "POST", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"subject": "Big", "content": "<p>" + strings.Repeat("a", 70_000) + "</p>"}})
	refused(t, "oversized content", big, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
	// Derived fields cannot be forged.
	forged := send(t, call{Method: "POST", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"subject": "F", "content": "<p>x</p>", "state": "sent", "sentCount": 5}})
	if forged.Status == http.StatusCreated && (forged.Get("result.state") != "draft" || forged.Get("result.sentCount") != 0.0) {
		t.Fatalf("forged state stored: %s", forged.Raw)
	}
	list := send(t, call{Method: "GET", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken})
	if n := len(list.Get("result").([]any)); n > 2 {
		t.Fatalf("%d newsletters stored, want at most 2", n)
	}
}
