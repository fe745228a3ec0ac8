package collections_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

type call = testkit.Request

func mustStatus(t *testing.T, res testkit.Response, status int) {
	t.Helper()
	testkit.Expect(t, res, status, "")
}

// TestEveryCollection runs one scenario table per declared collection, generated from its
// declaration: create, get, list and search, patch, stale patch, each required field missing,
// cross-tenant access, permissions, delete.
func TestEveryCollection(t *testing.T) {
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range reg.Keys() {
		c := reg[key]
		if c.Singleton != "" {
			continue // singleton_test.go
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
			rec := testkit.CreateRecord(t, tn, reg, c, 1)
			id := rec["id"].(string)
			path := "/" + key + "/" + id
			as := func(method, path string, body any) testkit.Response {
				return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
			}

			t.Run("create", func(t *testing.T) {
				if rec["version"] != float64(1) || rec["createdAt"] == nil || rec["password"] != nil || rec["passwordHash"] != nil {
					t.Fatalf("created record %v", rec)
				}
			})
			t.Run("get", func(t *testing.T) {
				res := as("GET", path, nil)
				mustStatus(t, res, 200)
				if res.Get("result."+c.NameField) != rec[c.NameField] {
					t.Fatalf("got %s", res.Raw)
				}
			})
			t.Run("list and search", func(t *testing.T) {
				res := as("GET", "/"+key, nil)
				mustStatus(t, res, 200)
				if res.Get("totalCount") == nil || res.Get("result.0.id") == nil {
					t.Fatalf("list %s", res.Raw)
				}
				name := fmt.Sprint(rec[c.NameField])
				res = as("GET", "/"+key+"?search="+strings.ToUpper(name[:4]), nil)
				if res.Get("result.0.id") != id {
					t.Fatalf("search %q: %s", name[:4], res.Raw)
				}
				res = as("GET", "/"+key+"?search=zz-no-such-thing", nil)
				if res.Get("totalCount") != float64(0) {
					t.Fatalf("search nothing: %s", res.Raw)
				}
			})
			t.Run("required fields", func(t *testing.T) {
				for _, f := range c.Fields {
					if !f.Required {
						continue
					}
					b := testkit.SampleBody(t, tn, reg, c, 2)
					delete(b, f.Name)
					res := as("POST", "/"+key, b)
					mustStatus(t, res, 400)
					if res.Message() != f.Label+" is required!" {
						t.Fatalf("missing %s: %q", f.Name, res.Message())
					}
					b[f.Name] = ""
					if res := as("POST", "/"+key, b); res.Status != 400 {
						t.Fatalf("empty %s: %d", f.Name, res.Status)
					}
				}
			})
			t.Run("unknown and read-only fields", func(t *testing.T) {
				res := as("PATCH", path, map[string]any{"tenantId": "other"})
				mustStatus(t, res, 400)
				res = as("PATCH", path, map[string]any{"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "createdAt": "x"})
				mustStatus(t, res, 200)
				if res.Get("result.id") != id {
					t.Fatal("id was overwritten")
				}
			})
			t.Run("patch and stale patch", func(t *testing.T) {
				cur := as("GET", path, nil)
				v := cur.Get("result.version").(float64)
				// The status switch where the collection has one (most do), else its name.
				field, value, again := "status", any(false), any("1")
				if _, ok := c.Field("status"); !ok {
					field, value, again = c.NameField, "Patched name", "Patched again"
				}
				res := as("PATCH", path, map[string]any{field: value, "version": v})
				mustStatus(t, res, 200)
				if res.Message() != c.Title+" updated successfully!" || res.Get("result."+field) != value {
					t.Fatalf("patch: %s", res.Raw)
				}
				res = as("PATCH", path, map[string]any{field: again, "version": v})
				mustStatus(t, res, 409)
			})
			t.Run("cross-tenant", func(t *testing.T) {
				for _, r := range []call{
					{Method: "GET", Path: path, Tenant: tn.ID, Token: other.AdminToken},
					{Method: "GET", Path: "/" + key, Tenant: tn.ID, Token: other.AdminToken},
					{Method: "PATCH", Path: path, Tenant: tn.ID, Token: other.AdminToken, Body: map[string]any{"status": false}},
					{Method: "DELETE", Path: path, Tenant: tn.ID, Token: other.AdminToken},
					{Method: "POST", Path: "/" + key, Tenant: tn.ID, Token: other.AdminToken, Body: map[string]any{}},
					{Method: "GET", Path: path, Tenant: tn.ID},
				} {
					mustStatus(t, testkit.Call(t, r), 401)
				}
				// The other tenant's own admin, on its own tenant, cannot see this id.
				mustStatus(t, testkit.Call(t, call{Method: "GET", Path: path, Tenant: other.ID, Token: other.AdminToken}), 404)
				mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: path, Tenant: other.ID, Token: other.AdminToken}), 404)
			})
			t.Run("permissions", func(t *testing.T) {
				viewer := testkit.NewUser(t, tn, c.Permission("VIEW"))
				mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: tn.ID, Token: viewer}), 200)
				mustStatus(t, testkit.Call(t, call{Method: "POST", Path: "/" + key, Tenant: tn.ID, Token: viewer, Body: testkit.SampleBody(t, tn, reg, c, 3)}), 403)
				mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: path, Tenant: tn.ID, Token: viewer}), 403)
				nobody := testkit.NewUser(t, tn)
				mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/" + key, Tenant: tn.ID, Token: nobody}), 403)
			})
			t.Run("delete", func(t *testing.T) {
				res := as("DELETE", path, nil)
				mustStatus(t, res, 200)
				if res.Message() != c.Title+" Deleted Successfully!" {
					t.Fatalf("delete: %s", res.Raw)
				}
				mustStatus(t, as("GET", path, nil), 404)
				mustStatus(t, as("DELETE", path, nil), 404)
			})
		})
	}
}
