package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// resetUser creates an active staff user with an address of its own (unique to the test) and
// returns its username, id and address.
func resetUser(t *testing.T, tn testkit.Tenant, extra map[string]any) (name, id, email string) {
	t.Helper()
	name = fmt.Sprintf("rs%d", time.Now().UnixNano()%1e10)
	email = name + "." + strings.ToLower(tn.ID) + "@example.org"
	in := map[string]any{"firstName": "Reset", "lastName": "Me", "username": name, "password": "staff-pass-1", "email": email}
	for k, v := range extra {
		in[k] = v
	}
	res := testkit.Call(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: in})
	expect(t, res, http.StatusCreated, "")
	return name, res.Get("result.id").(string), email
}

func askReset(t *testing.T, tenant, username string) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: tenant, Body: map[string]any{"username": username}})
}

func confirmReset(t *testing.T, tenant, token, password string) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: "POST", Path: "/auth/password-reset/confirm", Tenant: tenant, Body: map[string]any{"token": token, "password": password}})
}

var linkPattern = regexp.MustCompile(`https?://[^\s"<>]+/reset-password\?[^\s"<>]+`)

// resetLinkOf delivers the tenant's mail and returns the link of the n-th reset mail to address
// (n counting from 1) with its token.
func resetLinkOf(t *testing.T, tenant, address string, n int) (link, token string) {
	t.Helper()
	testkit.DeliverMail(t, tenant)
	mails := testkit.Mailbox(t).WaitFor(t, address, n)
	m := mails[n-1]
	if m.Subject != auth.ResetSubject {
		t.Fatalf("subject %q", m.Subject)
	}
	link = linkPattern.FindString(m.Text)
	if link == "" {
		t.Fatalf("no reset link in the text part: %s", m.Text)
	}
	if !strings.Contains(m.HTML, strings.ReplaceAll(link, "&", "&amp;")) {
		t.Fatalf("the HTML part lacks the link %s: %s", link, m.HTML)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if u.Query().Get("tenant") != tenant {
		t.Fatalf("link %s names tenant %q", link, u.Query().Get("tenant"))
	}
	return link, u.Query().Get("token")
}

func outboxTo(t *testing.T, tenant, address string) int {
	t.Helper()
	n := 0
	for _, e := range testkit.Outbox(t, tenant) {
		if e.To == address {
			n++
		}
	}
	return n
}

// TestResetSameAnswer: an existing user, an unknown name, a disabled user and a user without an
// email get the one answer; only the existing, active user with an email gets mail, which is
// found by username or by email (any case).
func TestResetSameAnswer(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name, _, email := resetUser(t, tn, nil)
	off, _, offEmail := resetUser(t, tn, map[string]any{"status": false})
	bare, _, _ := resetUser(t, tn, map[string]any{"email": ""})
	for _, who := range []string{name, "nobody-here", off, bare, "no.one@example.org", strings.ToUpper(email)} {
		expect(t, askReset(t, tn.ID, who), http.StatusOK, auth.MsgResetSent)
	}
	if n := outboxTo(t, tn.ID, email); n != 2 {
		t.Fatalf("%d mails to the user asked for by name and by email, want 2", n)
	}
	if n := outboxTo(t, tn.ID, offEmail); n != 0 {
		t.Fatalf("a disabled user got %d mails", n)
	}
	if n := len(testkit.Outbox(t, tn.ID)); n != 2 {
		t.Fatalf("%d mails in the outbox, want 2", n)
	}
	// Another tenant's user is unknown here.
	other := testkit.NewTenant(t)
	expect(t, askReset(t, other.ID, name), http.StatusOK, auth.MsgResetSent)
	if n := len(testkit.Outbox(t, other.ID)); n != 0 {
		t.Fatalf("%d mails for a user of another tenant", n)
	}
}

// TestResetInputRefused: no name, a name no account can have (a line break: header injection),
// and an oversized body are 4xx and write nothing.
func TestResetInputRefused(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, bad := range []string{"", "  ", "admin\r\nBcc: victim@example.org", "admin\nSubject: x", "a@b.org\r\nBcc: c@d.org", strings.Repeat("a", 300)} {
		res := askReset(t, tn.ID, bad)
		if res.Status != http.StatusBadRequest || res.Get("errors.username") == nil {
			t.Fatalf("%q: %d %s", bad, res.Status, res.Raw)
		}
	}
	big := `{"username":"` + strings.Repeat("a", 2<<20) + `"}`
	if res := testkit.Call(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: tn.ID, Body: big}); res.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversize body: %d", res.Status)
	}
	if res := testkit.Call(t, call{Method: "POST", Path: "/auth/password-reset", Tenant: tn.ID, Body: map[string]any{"username": "admin", "isAdmin": true}}); res.Status != http.StatusBadRequest {
		t.Fatalf("unknown field: %d", res.Status)
	}
	if n := len(testkit.Outbox(t, tn.ID)); n != 0 {
		t.Fatalf("%d mails after refused requests", n)
	}
	if res := askReset(t, "no-such-tenant-x", "admin"); res.Status != http.StatusNotFound {
		t.Fatalf("unknown tenant: %d", res.Status)
	}
}

// TestResetLimit: a fourth request within the hour answers the same and sends nothing.
func TestResetLimit(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name, _, email := resetUser(t, tn, nil)
	for range 4 {
		expect(t, askReset(t, tn.ID, name), http.StatusOK, auth.MsgResetSent)
	}
	expect(t, askReset(t, tn.ID, email), http.StatusOK, auth.MsgResetSent)
	if n := outboxTo(t, tn.ID, email); n != auth.MaxResetMails {
		t.Fatalf("%d mails after 5 requests, want %d", n, auth.MaxResetMails)
	}
}

// TestResetFlow: the mail's link sets a new password under the rules, once; every session of
// the user ends; the old password no longer works and the new one does; the change is kept as
// a version and audited, with no secret in either.
func TestResetFlow(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name, id, email := resetUser(t, tn, nil)
	session := testkit.Login(t, tn.ID, name, "staff-pass-1")
	expect(t, askReset(t, tn.ID, name), http.StatusOK, auth.MsgResetSent)
	link, token := resetLinkOf(t, tn.ID, email, 1)
	if !strings.HasPrefix(link, testkit.URL(t)+"/reset-password?token=") {
		t.Fatalf("link %s is not the panel's /reset-password on the request's origin %s", link, testkit.URL(t))
	}
	mails := testkit.Mailbox(t).Messages(t, email)
	if from := mails[0].Header("from"); !strings.Contains(from, "Test "+tn.ID) || !strings.Contains(from, "no-reply@") {
		t.Fatalf("from %q", from)
	}

	// The password rules, then a malformed token, before anything is spent.
	res := confirmReset(t, tn.ID, token, "short")
	if res.Status != http.StatusBadRequest || res.Get("errors.password") == nil {
		t.Fatalf("short password: %d %s", res.Status, res.Raw)
	}
	expect(t, confirmReset(t, tn.ID, token, "123456"), http.StatusBadRequest, "")
	expect(t, confirmReset(t, tn.ID, "not-a-token", "new-pass-123"), http.StatusBadRequest, auth.MsgResetLinkBad)

	expect(t, confirmReset(t, tn.ID, token, "new-pass-123"), http.StatusOK, auth.MsgResetDone)
	// Single use.
	expect(t, confirmReset(t, tn.ID, token, "other-pass-456"), http.StatusBadRequest, auth.MsgResetLinkBad)
	// The session is over; the old password is refused, the new one signs in.
	if res := testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: session}); res.Status != http.StatusUnauthorized {
		t.Fatalf("a session from before the reset: %d", res.Status)
	}
	if res := login(t, tn.ID, name, "staff-pass-1"); res.Status != http.StatusUnauthorized {
		t.Fatalf("old password: %d", res.Status)
	}
	testkit.Login(t, tn.ID, name, "new-pass-123")

	versions := versionsOf(t, tn, id)
	if len(versions) != 1 || versions[0]["version"] != float64(1) || versions[0]["by"] != id || !strings.Contains(fmt.Sprint(versions[0]["changed"]), "password") {
		t.Fatalf("versions after the reset: %v", versions)
	}
	entries := auditOf(t, tn, id)
	found := false
	for _, e := range entries {
		raw := fmt.Sprint(e)
		noSecret(t, "audit entry", raw)
		if e["action"] == "update" && e["userId"] == id && strings.Contains(raw, "password") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no audit entry of the reset by the user: %v", entries)
	}
	if strings.Contains(fmt.Sprint(keptState(t, tn.ID, id, 1)), "$argon2") {
		t.Fatal("a kept version holds a hash")
	}
}

// TestResetTokenBound: a token is refused on another tenant (and stays good on its own), and an
// expired one is refused.
func TestResetTokenBound(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	name, _, email := resetUser(t, a, nil)
	expect(t, askReset(t, a.ID, name), http.StatusOK, auth.MsgResetSent)
	expect(t, askReset(t, a.ID, name), http.StatusOK, auth.MsgResetSent)
	_, first := resetLinkOf(t, a.ID, email, 1)
	_, second := resetLinkOf(t, a.ID, email, 2)
	expect(t, confirmReset(t, b.ID, first, "new-pass-123"), http.StatusBadRequest, auth.MsgResetLinkBad)

	// Expired: the stored item's time is past (the table's TTL would remove it later).
	scope, _ := store.NewScope(a.ID)
	k := auth.ResetTokenKey(scope, second)
	err := testkit.Deps(t).Store.Table.Update("PK", k.PK).Range("SK", k.SK).Set("expiresAt", time.Now().Add(-time.Minute).Unix()).
		If("attribute_exists(PK)").Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	expect(t, confirmReset(t, a.ID, second, "new-pass-123"), http.StatusBadRequest, auth.MsgResetLinkBad)
	testkit.Login(t, a.ID, name, "staff-pass-1")

	expect(t, confirmReset(t, a.ID, first, "new-pass-123"), http.StatusOK, auth.MsgResetDone)
	testkit.Login(t, a.ID, name, "new-pass-123")
}

// TestResetKeepsTwoFactor: after a reset the new password still leads to the code, not to a
// session.
func TestResetKeepsTwoFactor(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name, _, email := resetUser(t, tn, nil)
	enrol(t, tn.ID, testkit.Login(t, tn.ID, name, "staff-pass-1"))
	expect(t, askReset(t, tn.ID, name), http.StatusOK, auth.MsgResetSent)
	_, token := resetLinkOf(t, tn.ID, email, 1)
	expect(t, confirmReset(t, tn.ID, token, "new-pass-123"), http.StatusOK, auth.MsgResetDone)
	res := login(t, tn.ID, name, "new-pass-123")
	if res.Status != http.StatusOK || res.Get("result.token") != nil || res.Get("result.challenge") == nil {
		t.Fatalf("sign-in after the reset skipped the code: %d %s", res.Status, res.Raw)
	}
}

// TestResetIgnoresSuppression: an address on the tenant's suppression list (a bounce of a
// newsletter) still gets its reset.
func TestResetIgnoresSuppression(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name, _, email := resetUser(t, tn, nil)
	scope, _ := store.NewScope(tn.ID)
	if err := mail.Suppress(context.Background(), testkit.Deps(t).Store, scope, email, "bounce", "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	expect(t, askReset(t, tn.ID, name), http.StatusOK, auth.MsgResetSent)
	resetLinkOf(t, tn.ID, email, 1)
}
