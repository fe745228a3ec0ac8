package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants/distributiontest"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func TestOpsCommands(t *testing.T) {
	t.Setenv("WEBSITE_DISTRIBUTION_ID", "") // local use: the table only
	steps := []step{
		{"create", "tenant create --id ops-school --name Ops-School --admin boss --password first-pass-1", "", "created tenant ops-school"},
		{"create again", "tenant create --id ops-school --name Ops-School --admin boss --password first-pass-1", "already exists", ""},
		{"create on a plan", "tenant create --id ops-premium --name Premium --admin boss --password first-pass-1 --plan premium", "", "created tenant ops-premium"},
		{"unknown plan", "tenant create --id ops-gold --name Gold --admin boss --password first-pass-1 --plan gold", "unknown plan", ""},
		{"bad id", "tenant create --id Ops#School --name X --admin boss --password first-pass-1", "invalid tenant id", ""},
		{"weak password", "tenant create --id ops-two --name X --admin boss --password 123", "Password should be atleast 6 characters!", ""},
		{"list", "tenant list", "", "ops-school"},
		{"reset password", "user reset-password --tenant ops-school --username boss --password second-pass-2", "", "reset"},
		{"reset unknown user", "user reset-password --tenant ops-school --username ghost --password second-pass-2", "not found", ""},
		{"set passcode", "user set-passcode --tenant ops-school --username boss --passcode 135790", "", "set"},
		{"bad passcode", "user set-passcode --tenant ops-school --username boss --passcode 12", "exactly 6 digits", ""},
		{"set domains", "tenant set-domains --id ops-school --domains WWW.Ops-School.example,ops-school.example", "", "www.ops-school.example, ops-school.example"},
		{"set domains locally", "tenant set-domains --id ops-school --domains ops-school.example", "", "CloudFront distribution was not touched"},
		{"bad domain", "tenant set-domains --id ops-school --domains https://ops.example/x", "not a host name", ""},
		// A downgrade keeps the domain it has; a new one is refused on a plan without custom domains.
		{"set plan", "tenant set-plan --id ops-school --plan starter", "", "tenant ops-school: plan starter (was premium)"},
		{"set unknown plan", "tenant set-plan --id ops-school --plan gold", "unknown plan", ""},
		{"set plan, no plan", "tenant set-plan --id ops-school", "--plan is required", ""},
		{"set plan, unknown tenant", "tenant set-plan --id ops-nobody --plan starter", "not found", ""},
		{"new domain on starter", "tenant set-domains --id ops-school --domains ops-school.example,new.ops-school.example", "Your plan (Starter) does not include a custom domain", ""},
		{"kept domain on starter", "tenant set-domains --id ops-school --domains ops-school.example", "", "ops-school.example"},
		{"clear domains", "tenant set-domains --id ops-school --domains ,", "", "no website domains"},
		{"unknown command", "tenant explode", "usage:", ""},
	}
	runSteps(t, steps)
	// The reset password and the passcode both sign in through the API.
	testkit.Login(t, "ops-school", "boss", "second-pass-2")
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/passcode", Tenant: "ops-school",
		Body: map[string]any{"username": "boss", "passcode": "135790"}})
	testkit.Expect(t, res, 200, "Logged in Successfully!")
	// set-plan left an audit entry by cmsctl naming the field it changed.
	token := testkit.Login(t, "ops-school", "boss", "second-pass-2")
	res = testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?collection=tenant&action=update", Tenant: "ops-school", Token: token})
	testkit.Expect(t, res, 200, "")
	if !strings.Contains(string(res.Raw), `"planId"`) || !strings.Contains(string(res.Raw), `"cmsctl"`) {
		t.Errorf("no audit entry of set-plan: %s", res.Raw)
	}
	// Every tenant has a plan: the catalogue's default (premium) unless --plan or set-plan chose another.
	for tenant, plan := range map[string]string{"ops-school": "starter", "ops-premium": "premium"} {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/auth/tenant-info", Tenant: tenant})
		if got := res.Get("result.planId"); got != plan {
			t.Errorf("%s: planId %v, want %s", tenant, got, plan)
		}
	}
}

// TestReindex: records written before the word index existed (their entries gone here) are
// found again after tenant reindex, which can run twice.
func TestReindex(t *testing.T) {
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"question": "Where is the library?", "answer": "North wing"}})
	testkit.Expect(t, res, 201, "")
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	var keys []store.Key
	if err := st.Table.Get("PK", scope.Collection("faqs")+"#WORDS").All(context.Background(), &keys); err != nil || len(keys) != 4 {
		t.Fatalf("index entries %v %v", keys, err)
	}
	for _, k := range keys {
		if err := st.Table.Delete("PK", k.PK).Range("SK", k.SK).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// Its name-order key as the old collation wrote it.
	id := res.Get("result.id").(string)
	if err := st.Table.Update("PK", scope.Collection("faqs")).Range("SK", id).Set("GSI2SK", "where is the library?#"+id).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	found := func() any {
		return testkit.Call(t, testkit.Request{Method: "GET", Path: "/faqs?search=libr", Tenant: tn.ID, Token: tn.AdminToken}).Get("totalCount")
	}
	if found() != float64(0) {
		t.Fatal("found without an index")
	}
	runSteps(t, []step{
		{"reindex", "tenant reindex --id " + tn.ID, "", "records indexed for search"},
		{"again", "tenant reindex --id " + tn.ID, "", "records indexed for search"},
		{"no tenant", "tenant reindex --id Bad#Id", "invalid tenant id", ""},
	})
	if found() != float64(1) {
		t.Fatal("not found after reindex")
	}
	var rec struct {
		Key string `dynamo:"GSI2SK"`
	}
	if err := st.Get(context.Background(), store.Key{PK: scope.Collection("faqs"), SK: id}, &rec); err != nil || rec.Key != "where+is+the+library!"+id {
		t.Fatalf("name key after reindex %q %v", rec.Key, err)
	}
}

// TestSeedDemo: seed-demo fills a tenant the CLI created with the demo site, which the panel
// then lists; a second run writes nothing; a tenant that does not exist is refused.
func TestSeedDemo(t *testing.T) {
	steps := []step{
		{"create", "tenant create --id ops-demo --name Riverside --admin boss --password first-pass-1", "", "created tenant ops-demo"},
		{"seed", "tenant seed-demo --id ops-demo", "", "media 40"},
		{"seed again", "tenant seed-demo --id ops-demo", "", "already seeded"},
		{"unknown tenant", "tenant seed-demo --id ops-nobody", "not found", ""},
		{"no id", "tenant seed-demo", "invalid tenant id", ""},
	}
	runSteps(t, steps)
	token := testkit.Login(t, "ops-demo", "boss", "first-pass-1")
	pages := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages", Tenant: "ops-demo", Token: token})
	header := testkit.Call(t, testkit.Request{Method: "GET", Path: "/header", Tenant: "ops-demo", Token: token})
	if pages.Get("totalCount") != 4.0 || header.Get("result.title") != "Riverside" {
		t.Fatalf("after seed-demo: pages %s, header %s", pages.Raw, header.Raw)
	}
}

// TestSetDomainsAttachesTheWebsite runs set-domains against the table (the emulator) and a
// stand-in for CloudFront, and checks both, in the order setDomains documents.
func TestSetDomainsAttachesTheWebsite(t *testing.T) {
	const dist = "EWEBSITES12345"
	cf := distributiontest.New(t, dist)
	t.Setenv("AWS_ENDPOINT_URL_CLOUDFRONT", cf.URL)
	t.Setenv("WEBSITE_DISTRIBUTION_ID", dist)
	t.Setenv("WEBSITE_CONNECTION_GROUP_ID", distributiontest.GroupID)
	tn := testkit.NewTenant(t)
	name := "campus-" + tn.ID
	setDomains := func(domains string, extra ...string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"tenant", "set-domains", "--id", tn.ID, "--domains", domains}, extra...), &out)
		return out.String(), err
	}

	www, apex := "www."+tn.ID+".example", tn.ID+".example"
	out, err := setDomains(www + "," + apex)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"CloudFront: distribution tenant " + name + " created",
		www + "  CNAME  " + distributiontest.GroupEndpoint,
		apex + "      CNAME  " + distributiontest.GroupEndpoint,
		"certificate: pending-validation",
		"validated over HTTP by CloudFront itself",
		apex + "/.well-known/pki-validation/",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	got, ok := cf.Tenant(name)
	if !ok || !slices.Equal(got.Domains, []string{www, apex}) || got.Certificate == nil || got.Certificate.TokenHost != "cloudfront" || got.ConnectionGroupID != distributiontest.GroupID {
		t.Fatalf("distribution tenant %+v (present %v)", got, ok)
	}
	if d := testkit.TenantItem(t, tn.ID).Domains; !slices.Equal(d, []string{www, apex}) {
		t.Fatalf("table domains %v", d)
	}

	t.Run("a CloudFront read failure changes nothing", func(t *testing.T) {
		cf.Fail("GetDistributionTenant", distributiontest.Failure{Status: 403, Code: "AccessDenied", Message: "User is not authorized"})
		_, err := setDomains(apex)
		cf.Clear()
		if err == nil || !strings.Contains(err.Error(), "nothing changed") || !strings.Contains(err.Error(), "AccessDenied") {
			t.Fatalf("error %v", err)
		}
		if d := testkit.TenantItem(t, tn.ID).Domains; !slices.Equal(d, []string{www, apex}) {
			t.Errorf("table domains %v changed", d)
		}
	})

	t.Run("a CloudFront write failure says the table changed", func(t *testing.T) {
		cf.Fail("UpdateDistributionTenant", distributiontest.Failure{Status: 412, Code: "PreconditionFailed", Message: "etag"})
		_, err := setDomains(apex)
		cf.Clear()
		if err == nil {
			t.Fatal("no error")
		}
		for _, want := range []string{"the table now lists " + apex + " for tenant " + tn.ID, "CloudFront was not brought in step", "PreconditionFailed", "run the same command again"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
		if d := testkit.TenantItem(t, tn.ID).Domains; !slices.Equal(d, []string{apex}) {
			t.Errorf("table domains %v, want what the message says", d)
		}
		if got, _ := cf.Tenant(name); len(got.Domains) != 2 {
			t.Errorf("CloudFront changed: %v", got.Domains)
		}
		// Running it again brings CloudFront in step.
		out, err := setDomains(apex)
		if err != nil || !strings.Contains(out, "distribution tenant "+name+" updated") {
			t.Fatalf("retry: %v\n%s", err, out)
		}
		if got, _ := cf.Tenant(name); !slices.Equal(got.Domains, []string{apex}) {
			t.Errorf("CloudFront domains %v after the retry", got.Domains)
		}
	})

	t.Run("a host another tenant holds touches no CloudFront tenant", func(t *testing.T) {
		other := testkit.NewTenant(t)
		var out bytes.Buffer
		err := run(context.Background(), []string{"tenant", "set-domains", "--id", other.ID, "--domains", apex}, &out)
		if err == nil || !strings.Contains(err.Error(), "another tenant") {
			t.Fatalf("error %v", err)
		}
		if _, ok := cf.Tenant("campus-" + other.ID); ok {
			t.Error("a distribution tenant was created for the refused host")
		}
	})

	t.Run("the --distribution flag wins over the environment", func(t *testing.T) {
		_, err := setDomains(apex, "--distribution", "ENOSUCH")
		if err == nil || !strings.Contains(err.Error(), "belongs to distribution "+dist+", not ENOSUCH") {
			t.Fatalf("error %v", err)
		}
	})

	t.Run("no domains removes the distribution tenant", func(t *testing.T) {
		out, err := setDomains("")
		if err != nil || !strings.Contains(out, "no website domains") || !strings.Contains(out, "distribution tenant "+name+" deleted") {
			t.Fatalf("%v\n%s", err, out)
		}
		if _, ok := cf.Tenant(name); ok {
			t.Error("still there")
		}
	})
}

// step is one cmsctl command line and what it must print or fail with.
type step struct{ name, args, wantErr, wantOut string }

// runSteps runs the steps in order, each as a subtest.
func runSteps(t *testing.T, steps []step) {
	t.Helper()
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), strings.Fields(s.args), &out)
			switch {
			case s.wantErr != "" && (err == nil || !strings.Contains(err.Error(), s.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, s.wantErr)
			case s.wantErr == "" && err != nil:
				t.Fatal(err)
			case !strings.Contains(out.String(), s.wantOut):
				t.Fatalf("output %q, want %q", out.String(), s.wantOut)
			}
		})
	}
}
