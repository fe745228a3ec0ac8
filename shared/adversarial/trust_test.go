package adversarial_test

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// The trust boundaries of issue 40, attacked as the suite attacks every route: an archive that
// reaches into another tenant, a borrowed session that tries to take its account, and a host
// header that tries to steer the website's absolute addresses.

// TestBorrowedSessionCannotTakeTheAccount: with the session token alone, nothing that decides how
// the account signs in changes; the owner's password still signs in afterwards.
func TestBorrowedSessionCannotTakeTheAccount(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	as := func(method, path string, body map[string]any) testkit.Response {
		return send(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	refused(t, "new password without the current one", as("PATCH", "/auth/me", map[string]any{"password": "taken-over-pass-1"}), http.StatusBadRequest)
	refused(t, "new password with a wrong current one", as("PATCH", "/auth/me", map[string]any{"password": "taken-over-pass-1", "currentPassword": "guess-1"}), http.StatusBadRequest)
	refused(t, "new passcode without the current password", as("PATCH", "/auth/me", map[string]any{"passcode": "123456"}), http.StatusBadRequest)
	refused(t, "own password through /users", as("PATCH", "/users/"+tn.AdminID, map[string]any{"password": "taken-over-pass-1"}), http.StatusForbidden, http.StatusBadRequest)
	setup := as("POST", "/auth/two-factor/setup", map[string]any{})
	if secret, ok := setup.Get("result.secret").(string); ok {
		refused(t, "two-factor on without the password", as("POST", "/auth/two-factor/enable", map[string]any{"code": testkit.TOTP(t, secret, 0)}), http.StatusBadRequest)
	}
	refused(t, "new recovery codes without the password", as("POST", "/auth/two-factor/recovery-codes", map[string]any{}), http.StatusBadRequest, http.StatusConflict)
	testkit.Login(t, tn.ID, tn.AdminUsername, tn.AdminPassword)
}

// TestHostPortIsNeverEchoed: a request naming the tenant's domain with a port of its choosing
// gets absolute addresses on the domain alone.
func TestHostPortIsNeverEchoed(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	domain := "www." + tn.ID + ".example"
	testkit.SetDomains(t, tn.ID, domain)
	for _, port := range []string{":6666", ":443", ":80@evil.example"} {
		res := send(t, call{Method: "GET", Path: "/api/v1/public/robots.txt", Header: map[string]string{"X-Site-Host": domain + port, "X-Forwarded-Proto": "https"}})
		body := string(res.Raw)
		if res.Status != http.StatusOK || !strings.Contains(body, "Sitemap: https://"+domain+"/") {
			t.Errorf("robots.txt for host %s%s: %d %s", domain, port, res.Status, body)
			continue
		}
		if strings.Contains(body, "6666") || strings.Contains(body, "evil") {
			t.Errorf("robots.txt for host %s%s echoes it: %s", domain, port, body)
			continue
		}
		totals.refused.Add(1)
	}
}

// TestCraftedArchiveCannotReachAnotherTenant: an exported tenant whose user items were moved under
// another tenant's partition, with a manifest rewritten to match, is refused; nobody new signs in
// at the victim and nothing is written under the target id.
func TestCraftedArchiveCannotReachAnotherTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, victim := testkit.NewTenant(t), testkit.NewTenant(t)
	d := testkit.Deps(t)
	exported := filepath.Join(t.TempDir(), "src.tar")
	if _, err := (tenants.Export{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: src.ID, Out: exported}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	crafted := testkit.RewriteArchive(t, exported, src.ID, func(name string, body []byte) []byte {
		if !strings.HasPrefix(name, "items/") {
			return body
		}
		return bytes.ReplaceAll(body, []byte(`"T#`+src.ID+`#users"`), []byte(`"T#`+victim.ID+`#users"`))
	})
	dst := "t-imported-" + strings.ToLower(src.ID[len(src.ID)-6:])
	_, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: crafted, Tenant: dst, TrustUnsigned: true}).Run(ctx)
	if err == nil || !strings.Contains(err.Error(), victim.ID) {
		t.Fatalf("an archive reaching into another tenant: %v, want a refusal naming the item", err)
	}
	totals.refused.Add(1)
	refused(t, "the source's admin among the victim's users", send(t, call{Method: "GET", Path: "/users/" + src.AdminID, Tenant: victim.ID, Token: victim.AdminToken}), http.StatusNotFound)
	testkit.Login(t, victim.ID, victim.AdminUsername, victim.AdminPassword)
	refused(t, "the target tenant after the refused import", send(t, call{Method: "GET", Path: "/auth/tenant-info", Tenant: dst}), http.StatusNotFound)
}
