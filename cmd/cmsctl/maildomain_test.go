package main

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

const (
	deploymentDomain = "mail.campus.example"
	configSet        = "campuscms-mail"
)

// sesCommand points set-mail-domain at an SES stand-in, as a deployment with a mail domain and
// configuration set would run it, and returns the stand-in and a runner of the command.
func sesCommand(t *testing.T) (*testkit.SESStandIn, func(args ...string) (string, error)) {
	t.Helper()
	ses := testkit.SES(t)
	t.Setenv("AWS_ENDPOINT_URL_SESV2", ses.URL)
	t.Setenv("MAIL_DOMAIN", deploymentDomain)
	t.Setenv("MAIL_CONFIGURATION_SET", configSet)
	return ses, cmsctl
}

// cmsctl runs one command line and returns what it printed.
func cmsctl(args ...string) (string, error) {
	var out bytes.Buffer
	err := run(context.Background(), args, &out)
	return out.String(), err
}

// opsSince are the operations the stand-in received from the n-th request on.
func opsSince(ses *testkit.SESStandIn, n int) []string {
	var ops []string
	for _, r := range ses.Requests()[n:] {
		ops = append(ops, r.Op)
	}
	return ops
}

func storedDomain(t *testing.T, tenant string) mail.TenantDomain {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	d, err := mail.GetTenantDomain(context.Background(), testkit.Deps(t).Store, scope)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// contains checks that out has each of wants, runs of spaces (a table's alignment) as one.
func contains(t *testing.T, out string, wants ...string) {
	t.Helper()
	squeeze := func(s string) string {
		return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' }), " ")
	}
	for _, w := range wants {
		if !strings.Contains(squeeze(out), squeeze(w)) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestSetMailDomain: the first run creates the SES identity (Easy DKIM with 2048-bit keys, the
// deployment's configuration set, the tenant's tag), prints its three DKIM CNAME records and
// that it is not verified yet, and stores the domain unverified; running it again changes nothing
// in SES; once SES verifies the domain, the next run stores it verified and the tenant's mail is
// from no-reply@{its domain} (through the configuration set); --domain "" goes back.
func TestSetMailDomain(t *testing.T) {
	ses, set := sesCommand(t)
	tn := testkit.NewTenant(t)
	domain := "mail." + tn.ID + ".example"

	out, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", strings.ToUpper(domain)+".")
	if err != nil {
		t.Fatal(err)
	}
	if ops := opsSince(ses, 0); !slices.Equal(ops, []string{"GetEmailIdentity", "CreateEmailIdentity"}) {
		t.Fatalf("SES calls %v", ops)
	}
	create := ses.Requests()[1]
	b := create.Body
	if create.Method != "POST" || create.Path != "/v2/email/identities" || create.Header.Get("Authorization") == "" {
		t.Errorf("%s %s signed %v", create.Method, create.Path, create.Header.Get("Authorization") != "")
	}
	if b.EmailIdentity != domain || b.ConfigurationSetName != configSet {
		t.Errorf("identity %q, configuration set %q", b.EmailIdentity, b.ConfigurationSetName)
	}
	if k := b.DkimSigningAttributes; k == nil || k.NextSigningKeyLength != "RSA_2048_BIT" || k.DomainSigningPrivateKey != "" || k.DomainSigningSelector != "" {
		t.Errorf("not Easy DKIM with 2048-bit keys: %s", create.Raw)
	}
	if len(b.Tags) != 1 || b.Tags[0].Key != "campuscms:tenant" || b.Tags[0].Value != tn.ID {
		t.Errorf("tags %+v", b.Tags)
	}
	identity, ok := ses.Identity(domain)
	if !ok || len(identity.Tokens) != 3 {
		t.Fatalf("stand-in identity %+v", identity)
	}
	records := func() []string {
		var r []string
		for _, tok := range identity.Tokens {
			r = append(r, tok+"._domainkey."+domain+"  CNAME  "+tok+".dkim.amazonses.com")
		}
		return r
	}()
	contains(t, out, append(records,
		"SES: identity "+domain+" created with Easy DKIM",
		"verified for sending: no; DKIM: PENDING",
		"_dmarc."+domain+"  TXT    \"v=DMARC1; p=none\"",
		"its mail is still sent from no-reply@"+deploymentDomain,
		"run the same command again")...)
	if got := storedDomain(t, tn.ID); got != (mail.TenantDomain{Domain: domain}) {
		t.Fatalf("stored %+v", got)
	}

	t.Run("again: nothing changes in SES", func(t *testing.T) {
		n := len(ses.Requests())
		out, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
		if err != nil {
			t.Fatal(err)
		}
		if ops := opsSince(ses, n); !slices.Equal(ops, []string{"GetEmailIdentity"}) {
			t.Fatalf("SES calls %v", ops)
		}
		contains(t, out, append(records, "SES: identity "+domain+" exists", "verified for sending: no", "still sent from no-reply@"+deploymentDomain)...)
	})

	t.Run("verified: stored, and the tenant's mail is from its domain", func(t *testing.T) {
		ses.Verify(domain)
		out, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
		if err != nil {
			t.Fatal(err)
		}
		contains(t, out, "verified for sending: yes; DKIM: SUCCESS", "tenant "+tn.ID+": mail is sent from no-reply@"+domain)
		if got := storedDomain(t, tn.ID); got != (mail.TenantDomain{Domain: domain, Verified: true}) {
			t.Fatalf("stored %+v", got)
		}
		// set-mail-domain's writes are in the tenant's audit log, by cmsctl.
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?collection=tenant&action=update", Tenant: tn.ID, Token: tn.AdminToken})
		testkit.Expect(t, res, 200, "")
		if !strings.Contains(string(res.Raw), `"mailDomain"`) || !strings.Contains(string(res.Raw), `"mailDomainVerified"`) {
			t.Errorf("audit log %s", res.Raw)
		}

		other := testkit.NewTenant(t)
		st := testkit.Deps(t).Store
		for _, id := range []string{tn.ID, other.ID} {
			scope, _ := store.NewScope(id)
			msg := mail.Message{To: "reader+" + id + "@example.org", FromName: "St. Mary's College", Subject: "Hello",
				Text: "Hello.", Kind: mail.KindPasswordReset}
			o, err := mail.Enqueue(st, scope, msg)
			if err != nil {
				t.Fatal(err)
			}
			tx := st.WriteTx()
			store.AddToTx(tx, o.Put)
			if err := tx.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		n := len(ses.Requests())
		cfg := mail.Config{Domain: deploymentDomain, Transport: mail.TransportSES, ConfigurationSet: configSet}
		w := mail.NewWorker(st, ses.Sender(t, configSet), cfg, slog.New(slog.DiscardHandler)).Only(tn.ID, other.ID)
		if res, err := w.Deliver(context.Background(), time.Now().Add(time.Second)); err != nil || res.Sent != 2 {
			t.Fatalf("deliver %+v %v", res, err)
		}
		from := map[string]string{}
		for _, r := range ses.Requests()[n:] {
			if r.Body.ConfigurationSetName != configSet {
				t.Errorf("configuration set %q", r.Body.ConfigurationSetName)
			}
			from[r.Tag("tenant")] = r.Body.FromEmailAddress
		}
		if from[tn.ID] != `"St. Mary's College" <no-reply@`+domain+`>` {
			t.Errorf("the tenant's mail is from %q", from[tn.ID])
		}
		if from[other.ID] != `"St. Mary's College" <no-reply@`+deploymentDomain+`>` {
			t.Errorf("another tenant's mail is from %q", from[other.ID])
		}
	})

	t.Run(`--domain "" goes back to the deployment's address`, func(t *testing.T) {
		n := len(ses.Requests())
		out, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", "")
		if err != nil {
			t.Fatal(err)
		}
		contains(t, out, "mail domain "+domain+" removed", "sent from no-reply@"+deploymentDomain+" again")
		if got := storedDomain(t, tn.ID); got != (mail.TenantDomain{}) {
			t.Fatalf("stored %+v", got)
		}
		if ops := opsSince(ses, n); len(ops) != 0 {
			t.Errorf("SES calls %v", ops)
		}
		out, err = set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", "")
		if err != nil || !strings.Contains(out, "had no mail domain of its own") {
			t.Fatalf("%v\n%s", err, out)
		}
	})
}

// TestSetMailDomainExistingIdentity: an identity that exists already is kept; one without the
// deployment's configuration set is associated with it; its custom MAIL FROM domain's records
// are printed; one set up for another tenant is refused, and an SES refusal stores nothing.
func TestSetMailDomainExistingIdentity(t *testing.T) {
	ses, set := sesCommand(t)
	tn := testkit.NewTenant(t)

	t.Run("associated with the configuration set", func(t *testing.T) {
		domain := "news." + tn.ID + ".example"
		ses.PutIdentity(domain, testkit.SESIdentity{ConfigurationSet: "another-set", MailFromDomain: "bounce." + domain, MailFromStatus: "SUCCESS"})
		n := len(ses.Requests())
		out, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
		if err != nil {
			t.Fatal(err)
		}
		if ops := opsSince(ses, n); !slices.Equal(ops, []string{"GetEmailIdentity", "PutEmailIdentityConfigurationSetAttributes"}) {
			t.Fatalf("SES calls %v", ops)
		}
		put := ses.Requests()[n+1]
		if put.Method != "PUT" || put.Path != "/v2/email/identities/"+domain+"/configuration-set" || put.Body.ConfigurationSetName != configSet {
			t.Errorf("%s %s %s", put.Method, put.Path, put.Raw)
		}
		if id, _ := ses.Identity(domain); id.ConfigurationSet != configSet {
			t.Errorf("configuration set %q", id.ConfigurationSet)
		}
		contains(t, out, "SES: identity "+domain+" exists", "its configuration set is now "+configSet+" (was another-set)",
			"MAIL FROM domain bounce."+domain+" (success)",
			"bounce."+domain+"  MX    10 feedback-smtp.us-east-1.amazonses.com",
			"bounce."+domain+`  TXT   "v=spf1 include:amazonses.com ~all"`)
		if got := storedDomain(t, tn.ID); got != (mail.TenantDomain{Domain: domain}) {
			t.Fatalf("stored %+v", got)
		}
	})

	t.Run("another tenant's identity", func(t *testing.T) {
		domain := "taken." + tn.ID + ".example"
		ses.PutIdentity(domain, testkit.SESIdentity{Verified: true, ConfigurationSet: configSet, Tags: map[string]string{"campuscms:tenant": "someone-else"}})
		before := storedDomain(t, tn.ID)
		n := len(ses.Requests())
		_, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
		if err == nil || !strings.Contains(err.Error(), "was set up for tenant someone-else") || !strings.Contains(err.Error(), "nothing stored") {
			t.Fatalf("error %v", err)
		}
		if ops := opsSince(ses, n); !slices.Equal(ops, []string{"GetEmailIdentity"}) {
			t.Errorf("SES calls %v", ops)
		}
		if got := storedDomain(t, tn.ID); got != before {
			t.Fatalf("stored %+v, was %+v", got, before)
		}
	})

	t.Run("SES refuses", func(t *testing.T) {
		domain := "limit." + tn.ID + ".example"
		ses.FailOp("CreateEmailIdentity", http.StatusBadRequest, "LimitExceededException")
		defer ses.FailOp("CreateEmailIdentity", 0, "")
		before := storedDomain(t, tn.ID)
		_, err := set("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
		if err == nil || !strings.Contains(err.Error(), "LimitExceeded") || !strings.Contains(err.Error(), "nothing stored") {
			t.Fatalf("error %v", err)
		}
		if got := storedDomain(t, tn.ID); got != before {
			t.Fatalf("stored %+v, was %+v", got, before)
		}
	})
}

// TestSetMailDomainRefusesBadInput: a domain that is none, an IP address, or the deployment's own
// (or within or around it) is refused before SES is asked anything, and the tenant keeps the
// domain it had; so are an unknown tenant and a missing flag.
func TestSetMailDomainRefusesBadInput(t *testing.T) {
	ses, set := sesCommand(t)
	tn := testkit.NewTenant(t)
	kept := mail.TenantDomain{Domain: "mail." + tn.ID + ".example", Verified: true}
	scope, _ := store.NewScope(tn.ID)
	if _, err := mail.SetTenantDomain(context.Background(), testkit.Deps(t).Store, scope, kept, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--id", tn.ID, "--domain", "192.0.2.7"}, "is an IP address"},
		{[]string{"--id", tn.ID, "--domain", "[2001:db8::7]"}, "is an IP address"},
		{[]string{"--id", tn.ID, "--domain", "https://mail.school.example/"}, "is not a domain name"},
		{[]string{"--id", tn.ID, "--domain", "no-reply@school.example"}, "is not a domain name"},
		{[]string{"--id", tn.ID, "--domain", "mail school.example"}, "is not a domain name"},
		{[]string{"--id", tn.ID, "--domain", "school"}, "top-level domain"},
		{[]string{"--id", tn.ID, "--domain", deploymentDomain}, "the deployment's own mail domain"},
		{[]string{"--id", tn.ID, "--domain", "news." + deploymentDomain}, "within the deployment's mail domain"},
		{[]string{"--id", tn.ID, "--domain", "campus.example"}, "contains the deployment's mail domain"},
		{[]string{"--id", "no-such-tenant-here", "--domain", "mail.school.example"}, "not found"},
		{[]string{"--id", "Bad#Id", "--domain", "mail.school.example"}, "invalid tenant id"},
		{[]string{"--id", tn.ID}, "--domain is required"},
		{[]string{"--domain", "mail.school.example"}, "usage:"},
		{[]string{"--id", tn.ID, "--domain", "mail.school.example", "extra"}, "usage:"},
	} {
		_, err := set(append([]string{"tenant", "set-mail-domain"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	if n := len(ses.Requests()); n != 0 {
		t.Errorf("SES was asked %d times: %v", n, opsSince(ses, 0))
	}
	if got := storedDomain(t, tn.ID); got != kept {
		t.Errorf("stored %+v, want %+v kept", got, kept)
	}
}

// TestSetMailDomainWithoutSES: locally, where nothing answers as SES at the endpoint, the domain
// is stored unverified and the output says it will be verified in AWS.
func TestSetMailDomainWithoutSES(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_SESV2", "http://127.0.0.1:1")
	t.Setenv("MAIL_DOMAIN", deploymentDomain)
	tn := testkit.NewTenant(t)
	domain := "mail." + tn.ID + ".example"
	out, err := cmsctl("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "SES is not available at AWS_ENDPOINT_URL", "the domain is stored and will be verified in AWS",
		"its mail is still sent from no-reply@"+deploymentDomain)
	if got := storedDomain(t, tn.ID); got != (mail.TenantDomain{Domain: domain}) {
		t.Fatalf("stored %+v", got)
	}
}

// TestSetMailDomainAgainstTheEmulator: the local emulator's SES v2 takes the identity (it verifies
// nothing and gives no DKIM tokens): the command works there as in AWS, without a configuration
// set (make dev has none).
func TestSetMailDomainAgainstTheEmulator(t *testing.T) {
	t.Setenv("MAIL_DOMAIN", "")
	t.Setenv("MAIL_CONFIGURATION_SET", "")
	tn := testkit.NewTenant(t)
	domain := "mail." + tn.ID + ".example"
	out, err := cmsctl("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "SES: identity "+domain+" created with Easy DKIM", "no configuration set given",
		"still sent from no-reply@"+mail.DefaultDomain)
	out, err = cmsctl("tenant", "set-mail-domain", "--id", tn.ID, "--domain", domain)
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "SES: identity "+domain+" exists")
	if got := storedDomain(t, tn.ID); got != (mail.TenantDomain{Domain: domain}) {
		t.Fatalf("stored %+v", got)
	}
	_, err = cmsctl("tenant", "set-mail-domain", "--id", tn.ID, "--domain", mail.DefaultDomain)
	if err == nil || !strings.Contains(err.Error(), "the deployment's own mail domain") {
		t.Fatalf("the local deployment's domain: %v", err)
	}
}

// TestUsageNamesSetMailDomain: the usage text lists the command.
func TestUsageNamesSetMailDomain(t *testing.T) {
	_, err := cmsctl()
	if err == nil || !strings.Contains(err.Error(), "cmsctl tenant set-mail-domain --id ID --domain mail.school.example") {
		t.Fatalf("usage: %v", err)
	}
}
