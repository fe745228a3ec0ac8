package collections_test

import (
	"fmt"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

// TestEverySingleton runs one scenario table per singleton collection (header, footer, theme
// settings, SEO defaults): defaults on the first GET, save and reload, stale version, bad input,
// cross-tenant access, permissions.
func TestEverySingleton(t *testing.T) {
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range reg.Keys() {
		c := reg[key]
		if c.Singleton == "" {
			continue
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
			as := func(method, path string, body any) testkit.Response {
				return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
			}
			// Signed in before the save: a saved setting may change how users sign in (security).
			viewer, nobody := testkit.NewUser(t, tn, c.Permission("VIEW")), testkit.NewUser(t, tn)
			if key == "security-settings" {
				// Requiring two-factor sign-in ends the sessions of users without it (issue 40).
				for tok, password := range map[string]string{tn.AdminToken: tn.AdminPassword, viewer: "staff-pass-1", nobody: "staff-pass-1"} {
					testkit.EnableTwoFactor(t, tn.ID, tok, password)
				}
			}
			first := as("GET", "/"+key, nil)
			mustStatus(t, first, 200)
			for _, f := range c.Fields {
				if _, ok := first.Body["result"].(map[string]any)[f.Name]; !ok {
					t.Fatalf("first GET lacks %s: %s", f.Name, first.Raw)
				}
			}
			if first.Get("result.id") != tn.ID {
				t.Fatalf("id %v", first.Get("result.id"))
			}
			b := map[string]any{}
			for _, f := range c.Fields {
				if c.Hooks == "" { // hooked fields (the active theme) have their own tests
					b[f.Name] = testkit.SampleValue(t, tn, reg, f, 1)
				} else if f.Type != collections.TypeText {
					b[f.Name] = testkit.SampleValue(t, tn, reg, f, 1)
				}
			}
			b["version"] = first.Get("result.version")
			res := as("PATCH", "/"+key, b)
			mustStatus(t, res, 200)
			if res.Message() != c.SavedMessage {
				t.Fatalf("message %q", res.Message())
			}
			again := as("GET", "/"+key+"/"+tn.ID, nil)
			for name, v := range b {
				if name != "version" && fmt.Sprint(again.Get("result."+name)) != fmt.Sprint(v) {
					t.Fatalf("%s reloaded as %v, want %v", name, again.Get("result."+name), v)
				}
			}
			mustStatus(t, as("PATCH", "/"+key+"/"+tn.ID, map[string]any{"version": first.Get("result.version")}), 409)
			mustStatus(t, as("PATCH", "/"+key, map[string]any{"tenantId": "x"}), 400)
			for _, f := range c.Fields {
				if f.Type == collections.TypeColor {
					mustStatus(t, as("PATCH", "/"+key, map[string]any{f.Name: "red"}), 400)
				}
			}
			// Cross-tenant: the other tenant's token is unknown here; its admin cannot name this id.
			mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: tn.ID}), 401)
			mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: tn.ID, Token: other.AdminToken}), 401)
			mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/" + key, Tenant: tn.ID, Token: other.AdminToken, Body: map[string]any{}}), 401)
			mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key + "/" + tn.ID, Tenant: other.ID, Token: other.AdminToken}), 404)
			mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/" + key + "/" + tn.ID, Tenant: other.ID, Token: other.AdminToken, Body: map[string]any{}}), 404)
			if res := testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: other.ID, Token: other.AdminToken}); res.Get("result.version") != first.Get("result.version") {
				t.Fatalf("the other tenant's %s changed: %s", key, res.Raw)
			}
			mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: tn.ID, Token: viewer}), 200)
			mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/" + key, Tenant: tn.ID, Token: viewer, Body: map[string]any{}}), 403)
			mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: tn.ID, Token: nobody}), 403)
			// No list, create or delete on a singleton.
			for _, m := range []string{"POST", "DELETE"} {
				if res := as(m, "/"+key+"/"+tn.ID, nil); res.Status != 405 {
					t.Fatalf("%s: %d", m, res.Status)
				}
			}
		})
	}
}
