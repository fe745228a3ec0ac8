package adversarial_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// forged are the server-owned fields a client may try to set, with the values it would like.
var forged = map[string]any{
	"id":            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
	"version":       99,
	"createdAt":     "2000-01-01T00:00:00Z",
	"updatedAt":     "2000-01-01T00:00:00Z",
	"tenantId":      "someone-else",
	"isAdmin":       true,
	"permissionIds": []string{"CMS_DELETE_USER"},
	"passwordHash":  "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
	"PK":            "T#someone-else",
	"SK":            "TENANT",
	"refCount":      -5,
}

// rawItem reads a record straight from the table, with every attribute it has.
func rawItem(t *testing.T, tenant, kind, id string) map[string]any {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	var item map[string]any
	if err := testkit.Deps(t).Store.Get(context.Background(), store.Key{PK: scope.Collection(kind), SK: id}, &item); err != nil {
		t.Fatalf("read %s/%s: %v", kind, id, err)
	}
	return item
}

// checkNotStored fails if the stored record carries a forged value of field.
func checkNotStored(t *testing.T, item map[string]any, field string) {
	t.Helper()
	v, ok := item[field]
	switch field {
	case "PK", "SK", "id", "createdAt", "updatedAt", "passwordHash", "isAdmin", "permissionIds", "refCount":
		if ok && fmt.Sprint(v) == fmt.Sprint(forged[field]) {
			t.Errorf("%s stored as %v", field, v)
		}
	case "version":
		if ok && fmt.Sprint(v) == "99" {
			t.Errorf("version stored as %v", v)
		}
	default:
		if ok {
			t.Errorf("%s stored as %v", field, v)
		}
	}
}

// TestEveryCollection attacks every declared collection: mass assignment of server-owned fields
// on create and patch, each field with a wrong type and as a 100k-char string, and checks that
// refused writes leave counts and records as they were.
func TestEveryCollection(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	tn := testkit.NewTenant(t)
	for _, key := range reg.Keys() {
		c := reg[key]
		if c.Singleton != "" {
			continue // no create or delete: collections/singleton_test.go covers singletons
		}
		t.Run(key, func(t *testing.T) {
			as := func(method, path string, body any) testkit.Response {
				return send(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
			}
			target := testkit.CreateRecord(t, tn, reg, c, next())["id"].(string)
			for field, value := range forged {
				if _, declared := c.Field(field); declared {
					continue // settable here where a permission allows it: the rights rule's tests cover it
				}
				b := testkit.SampleBody(t, tn, reg, c, next())
				b[field] = value
				res := as("POST", "/"+key, b)
				switch res.Status {
				case http.StatusCreated:
					id := res.Get("result.id").(string)
					checkNotStored(t, rawItem(t, tn.ID, key, id), field)
					if res.Get("result.version") != float64(1) {
						t.Errorf("create with %s: version %v", field, res.Get("result.version"))
					}
				case http.StatusBadRequest:
					totals.refused.Add(1)
				default:
					t.Errorf("create with %s: %d %.200s", field, res.Status, res.Raw)
				}

				res = as("PATCH", "/"+key+"/"+target, map[string]any{field: value})
				switch res.Status {
				case http.StatusOK:
					checkNotStored(t, rawItem(t, tn.ID, key, target), field)
				case http.StatusBadRequest, http.StatusConflict: // version 99 is a stale version
					totals.refused.Add(1)
				default:
					t.Errorf("patch with %s: %d %.200s", field, res.Status, res.Raw)
				}
			}

			// Refused writes change nothing.
			rec := testkit.CreateRecord(t, tn, reg, c, next())
			id := rec["id"].(string)
			before := snapshotCollection(t, tn, key, id)
			huge := strings.Repeat("a", 100_000)
			for _, f := range c.Fields {
				for name, v := range map[string]any{"wrong type": map[string]any{"x": 1}, "100k chars": huge, "list": []any{1, "x"}} {
					if f.Type == collections.TypeJSON && name == "100k chars" {
						v = `"` + huge + `"`
					}
					for _, method := range []string{"POST", "PATCH"} {
						path := "/" + key
						if method == "PATCH" {
							path += "/" + id
						}
						res := as(method, path, map[string]any{f.Name: v})
						if res.Status/100 == 2 {
							// Allowed where the type takes it: a long rich text, any JSON in a json
							// field. It was a real write, so it becomes the state to compare with.
							allowed := (name == "100k chars" && f.Type == collections.TypeRichText) || f.Type == collections.TypeJSON
							if !allowed {
								t.Errorf("%s %s.%s (%s) accepted: %.200s", method, key, f.Name, name, res.Raw)
							}
							before = snapshotCollection(t, tn, key, id)
							continue
						}
						refused(t, method+" "+f.Name+" "+name, res, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
					}
				}
			}
			sameSnapshot(t, key+" after refused writes", before, snapshotCollection(t, tn, key, id))
		})
	}
}

// snapshotCollection is a collection's count and one record as the API shows them.
func snapshotCollection(t *testing.T, tn testkit.Tenant, key, id string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, path := range map[string]string{"count": "/" + key + "?limit=5", "record": "/" + key + "/" + id, "counters": "/misc/masters"} {
		res := send(t, call{Method: "GET", Path: path, Tenant: tn.ID, Token: tn.AdminToken})
		out[name] = fmt.Sprint(res.Status, " ", res.Get("totalCount"), " ", res.Get("result.version"), " ", res.Get("result.updatedAt"), " ", res.Get("result.dashboardStats"))
	}
	return out
}

// TestNoRightsGained: a user who may manage users but is no administrator cannot make anyone an
// administrator, grant codes it does not hold, or raise its own rights.
func TestNoRightsGained(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := fmt.Sprintf("manager-%d", next())
	mine := []string{"CMS_VIEW_USER", "CMS_CREATE_USER", "CMS_EDIT_USER"}
	res := send(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "Man", "lastName": "Ager", "username": name, "password": "manager-pass-1", "permissionIds": mine}})
	if res.Status != http.StatusCreated {
		t.Fatalf("create manager: %d %s", res.Status, res.Raw)
	}
	me := res.Get("result.id").(string)
	token := testkit.Login(t, tn.ID, name, "manager-pass-1")
	as := func(method, path string, body any) testkit.Response {
		return send(t, call{Method: method, Path: path, Tenant: tn.ID, Token: token, Body: body})
	}
	refused(t, "create an administrator", as("POST", "/users", map[string]any{"firstName": "A", "lastName": "B",
		"username": fmt.Sprintf("boss-%d", next()), "password": "boss-pass-12", "isAdmin": true}), http.StatusForbidden)
	refused(t, "grant a code not held", as("POST", "/users", map[string]any{"firstName": "A", "lastName": "B",
		"username": fmt.Sprintf("helper-%d", next()), "password": "help-pass-12", "permissionIds": []string{"CMS_DELETE_USER"}}), http.StatusForbidden)
	refused(t, "raise own rights", as("PATCH", "/users/"+me, map[string]any{"permissionIds": append(mine, "CMS_DELETE_USER")}), http.StatusForbidden, http.StatusBadRequest)
	refused(t, "make self admin", as("PATCH", "/users/"+me, map[string]any{"isAdmin": true}), http.StatusForbidden, http.StatusBadRequest)
	refused(t, "profile cannot carry rights", as("PATCH", "/auth/me", map[string]any{"username": name, "email": "a@b.co", "phone": "0123456789", "isAdmin": true}),
		http.StatusBadRequest)
	after := as("GET", "/auth/me", nil)
	if after.Get("result.isAdmin") != false || fmt.Sprint(after.Get("result.permissions")) != fmt.Sprint([]any{"CMS_VIEW_USER", "CMS_CREATE_USER", "CMS_EDIT_USER"}) {
		t.Fatalf("rights after the attempts: %s", after.Raw)
	}
}
