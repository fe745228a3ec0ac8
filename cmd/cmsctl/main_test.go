package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func TestOpsCommands(t *testing.T) {
	steps := []struct {
		name    string
		args    string
		wantErr string
		wantOut string
	}{
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
		{"bad domain", "tenant set-domains --id ops-school --domains https://ops.example/x", "not a host name", ""},
		{"clear domains", "tenant set-domains --id ops-school --domains ,", "", "no website domains"},
		{"unknown command", "tenant explode", "usage:", ""},
	}
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
	// The reset password and the passcode both sign in through the API.
	testkit.Login(t, "ops-school", "boss", "second-pass-2")
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/passcode", Tenant: "ops-school",
		Body: map[string]any{"username": "boss", "passcode": "135790"}})
	testkit.Expect(t, res, 200, "Logged in Successfully!")
	// Every tenant has a plan: the catalogue's first unless --plan chose another.
	for tenant, plan := range map[string]string{"ops-school": "starter", "ops-premium": "premium"} {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/auth/tenant-info", Tenant: tenant})
		if got := res.Get("result.planId"); got != plan {
			t.Errorf("%s: planId %v, want %s", tenant, got, plan)
		}
	}
}

// TestSeedDemo: seed-demo fills a tenant the CLI created with the demo site, which the panel
// then lists; a second run writes nothing; a tenant that does not exist is refused.
func TestSeedDemo(t *testing.T) {
	steps := []struct {
		name, args, wantErr, wantOut string
	}{
		{"create", "tenant create --id ops-demo --name Riverside --admin boss --password first-pass-1", "", "created tenant ops-demo"},
		{"seed", "tenant seed-demo --id ops-demo", "", "media 30"},
		{"seed again", "tenant seed-demo --id ops-demo", "", "already seeded"},
		{"unknown tenant", "tenant seed-demo --id ops-nobody", "not found", ""},
		{"no id", "tenant seed-demo", "invalid tenant id", ""},
	}
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
	token := testkit.Login(t, "ops-demo", "boss", "first-pass-1")
	pages := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages", Tenant: "ops-demo", Token: token})
	header := testkit.Call(t, testkit.Request{Method: "GET", Path: "/header", Tenant: "ops-demo", Token: token})
	if pages.Get("totalCount") != 4.0 || header.Get("result.title") != "Riverside" {
		t.Fatalf("after seed-demo: pages %s, header %s", pages.Raw, header.Raw)
	}
}
