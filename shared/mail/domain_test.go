package mail_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// TestCheckTenantDomain: a tenant's mail domain is normalised, and refused (ErrBadDomain) when it
// is no DNS name, an IP address, a single label, or the deployment's domain, within it or
// containing it.
func TestCheckTenantDomain(t *testing.T) {
	t.Parallel()
	const deployment = "mail.campus.example"
	for in, want := range map[string]string{
		"mail.school.example":    "mail.school.example",
		" Mail.School.Example. ": "mail.school.example",
		"xn--cole-9oa.example":   "xn--cole-9oa.example",
		"school.example":         "school.example",
		"campus.example.org":     "campus.example.org", // shares a label, not the domain
	} {
		got, err := mail.CheckTenantDomain(in, deployment)
		if err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"":                                   "not a domain name",
		"school":                             "top-level domain",
		"localhost":                          "top-level domain",
		"192.0.2.10":                         "IP address",
		"10.0.0.1.":                          "IP address",
		"1.2.3.4.5":                          "IP address",
		"2001:db8::1":                        "IP address",
		"[2001:db8::1]":                      "IP address",
		"https://mail.school.example":        "not a domain name",
		"mail.school.example/path":           "not a domain name",
		"mail.school.example:25":             "not a domain name",
		"no-reply@mail.school.example":       "not a domain name",
		"*.school.example":                   "not a domain name",
		"mail_school.example":                "not a domain name",
		"-mail.school.example":               "not a domain name",
		"mail..school.example":               "not a domain name",
		"école.example":                      "not a domain name",
		"mail.school.example\r\nBcc: x":      "not a domain name",
		strings.Repeat("a", 64) + ".example": "not a domain name",
		strings.Repeat(strings.Repeat("a", 60)+".", 4) + "example": "not a valid address",
		"mail.campus.example":      "the deployment's own mail domain",
		"MAIL.campus.example.":     "the deployment's own mail domain",
		"news.mail.campus.example": "within the deployment's mail domain",
		"campus.example":           "contains the deployment's mail domain",
	} {
		got, err := mail.CheckTenantDomain(in, deployment)
		if !errors.Is(err, mail.ErrBadDomain) || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %q %v, want a refusal saying %q", in, got, err, why)
		}
	}
}

// sendOne writes a password reset for the tenant into its outbox and returns its key.
func sendOne(t *testing.T, tenant string) {
	t.Helper()
	enqueue(t, scopeOf(t, tenant), reset("someone+"+tenant+"@example.org"))
}

// setDomain stores a tenant's mail domain as set-mail-domain does.
func setDomain(t *testing.T, tenant string, d mail.TenantDomain) {
	t.Helper()
	if _, err := mail.SetTenantDomain(context.Background(), testkit.Deps(t).Store, scopeOf(t, tenant), d, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// fromOf is the From of each tenant's mail the recorder has.
func fromOf(r *recorder) map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]string{}
	for _, e := range r.sent {
		out[e.Tenant] = append(out[e.Tenant], e.From)
	}
	return out
}

// TestFromTenantDomain: in one run of the worker, the mail of a tenant whose own domain SES
// verified is from no-reply@{that domain} with its institution's name; the mail of a tenant whose
// domain is not verified yet, and of a tenant without one, is from the deployment's address. No
// tenant's mail ever takes another's domain, whatever the order.
func TestFromTenantDomain(t *testing.T) {
	t.Parallel()
	verified, pending, plain := testkit.NewTenant(t), testkit.NewTenant(t), testkit.NewTenant(t)
	setDomain(t, verified.ID, mail.TenantDomain{Domain: "mail." + verified.ID + ".example", Verified: true})
	setDomain(t, pending.ID, mail.TenantDomain{Domain: "mail." + pending.ID + ".example"})
	for range 2 {
		for _, tn := range []testkit.Tenant{plain, verified, pending} {
			sendOne(t, tn.ID)
		}
	}
	rec := &recorder{}
	cfg := mail.Config{Domain: "mail.campus.example", Transport: mail.TransportSMTP}
	w := mail.NewWorker(testkit.Deps(t).Store, rec, cfg, slog.New(slog.DiscardHandler)).Only(verified.ID, pending.ID, plain.ID)
	if res, err := w.Deliver(context.Background(), time.Now().Add(time.Second)); err != nil || res.Sent != 6 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	want := map[string]string{
		verified.ID: `"St. Mary's College" <no-reply@mail.` + verified.ID + `.example>`,
		pending.ID:  `"St. Mary's College" <no-reply@mail.campus.example>`,
		plain.ID:    `"St. Mary's College" <no-reply@mail.campus.example>`,
	}
	got := fromOf(rec)
	for tenant, from := range want {
		if len(got[tenant]) != 2 || got[tenant][0] != from || got[tenant][1] != from {
			t.Errorf("%s: from %q, want %q twice", tenant, got[tenant], from)
		}
	}
}

// TestFromTenantDomainThroughSES: the verified tenant's mail reaches SES from its own domain,
// still through the deployment's configuration set and tagged with its tenant.
func TestFromTenantDomainThroughSES(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	domain := "mail." + tn.ID + ".example"
	setDomain(t, tn.ID, mail.TenantDomain{Domain: domain, Verified: true})
	sendOne(t, tn.ID)
	ses := testkit.SES(t)
	w := mail.NewWorker(testkit.Deps(t).Store, ses.Sender(t, "campuscms-mail"), sesConfig(), slog.New(slog.DiscardHandler)).Only(tn.ID)
	if res, err := w.Deliver(context.Background(), time.Now().Add(time.Second)); err != nil || res.Sent != 1 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	reqs := ses.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	b := reqs[0].Body
	if b.FromEmailAddress != `"St. Mary's College" <no-reply@`+domain+`>` || b.ConfigurationSetName != "campuscms-mail" || reqs[0].Tag("tenant") != tn.ID {
		t.Errorf("from %q, configuration set %q, tenant tag %q", b.FromEmailAddress, b.ConfigurationSetName, reqs[0].Tag("tenant"))
	}
}

// TestTenantDomainReadOncePerTTL: the worker reads a tenant's domain once per DomainTTL, not per
// mail: a change made meanwhile is in use after it, not before.
func TestTenantDomainReadOncePerTTL(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	domain := "mail." + tn.ID + ".example"
	setDomain(t, tn.ID, mail.TenantDomain{Domain: domain, Verified: true})
	rec := &recorder{}
	cfg := mail.Config{Domain: "mail.campus.example", Transport: mail.TransportSMTP}
	w := mail.NewWorker(testkit.Deps(t).Store, rec, cfg, slog.New(slog.DiscardHandler)).Only(tn.ID)
	start := time.Now().Add(time.Second)
	deliver := func(at time.Time) string {
		t.Helper()
		sendOne(t, tn.ID)
		if res, err := w.Deliver(context.Background(), at); err != nil || res.Sent != 1 {
			t.Fatalf("deliver %+v %v", res, err)
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.sent[len(rec.sent)-1].From
	}
	own, deployment := `"St. Mary's College" <no-reply@`+domain+`>`, `"St. Mary's College" <no-reply@mail.campus.example>`
	if got := deliver(start); got != own {
		t.Fatalf("first: %q", got)
	}
	setDomain(t, tn.ID, mail.TenantDomain{}) // back to the deployment's address
	if got := deliver(start.Add(mail.DomainTTL / 2)); got != own {
		t.Fatalf("within the TTL: %q, want the domain read before", got)
	}
	if got := deliver(start.Add(mail.DomainTTL + time.Second)); got != deployment {
		t.Fatalf("after the TTL: %q, want %q", got, deployment)
	}
}

// TestSetTenantDomain: the domain and its verification are stored on the tenant item with an
// audit entry naming what changed; storing the same again writes nothing; "" removes both; an
// unknown tenant is refused.
func TestSetTenantDomain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testkit.Deps(t).Store
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	domain := "mail." + tn.ID + ".example"
	auditChanges := func() string {
		t.Helper()
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?collection=tenant&action=update", Tenant: tn.ID, Token: tn.AdminToken})
		testkit.Expect(t, res, 200, "")
		return string(res.Raw)
	}
	steps := []struct {
		set     mail.TenantDomain
		before  mail.TenantDomain
		entries int // audit entries naming mailDomain or mailDomainVerified so far
	}{
		{mail.TenantDomain{Domain: domain}, mail.TenantDomain{}, 1},
		{mail.TenantDomain{Domain: domain}, mail.TenantDomain{Domain: domain}, 1},
		{mail.TenantDomain{Domain: domain, Verified: true}, mail.TenantDomain{Domain: domain}, 2},
		{mail.TenantDomain{Verified: true}, mail.TenantDomain{Domain: domain, Verified: true}, 3},
	}
	for i, s := range steps {
		before, err := mail.SetTenantDomain(ctx, st, scope, s.set, time.Now())
		if err != nil || before != s.before {
			t.Fatalf("step %d: before %+v %v, want %+v", i, before, err, s.before)
		}
		got, err := mail.GetTenantDomain(ctx, st, scope)
		want := s.set
		if want.Domain == "" {
			want.Verified = false
		}
		if err != nil || got != want {
			t.Fatalf("step %d: stored %+v %v, want %+v", i, got, err, want)
		}
		if n := strings.Count(auditChanges(), `"cmsctl"`); n != s.entries {
			t.Fatalf("step %d: %d audit entries by cmsctl, want %d", i, n, s.entries)
		}
	}
	if name := testkit.TenantItem(t, tn.ID).Name; name == "" {
		t.Error("the tenant item lost its name")
	}
	if _, err := mail.SetTenantDomain(ctx, st, scopeOf(t, "no-such-tenant-here"), mail.TenantDomain{Domain: domain}, time.Now()); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("unknown tenant: %v", err)
	}
}

// TestImportLeavesTheMailDomain: a tenant imported under another id does not take the source's
// mail domain (one institution's domain; set it again with set-mail-domain).
func TestImportLeavesTheMailDomain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	setDomain(t, src.ID, mail.TenantDomain{Domain: "mail." + src.ID + ".example", Verified: true})
	sealer, err := secrets.FromEnv(d.AWS)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "archive.tar")
	if _, err := (tenants.Export{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: src.ID, Out: out, Sealer: sealer}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	dst := "t-maildomain-" + strings.ToLower(src.ID[len(src.ID)-6:])
	if _, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: out, Tenant: dst, Sealer: sealer}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := mail.GetTenantDomain(ctx, d.Store, scopeOf(t, dst))
	if err != nil || got != (mail.TenantDomain{}) {
		t.Fatalf("the copy's mail domain %+v %v", got, err)
	}
	if testkit.TenantItem(t, dst).Name == "" {
		t.Fatal("the copy has no details")
	}
}
