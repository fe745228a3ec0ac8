package redirects_test

import (
	"context"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/redirects"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// as calls the API as the tenant's administrator.
func as(t *testing.T, tn testkit.Tenant, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
}

// create makes a redirect through the API and returns it.
func create(t *testing.T, tn testkit.Tenant, body map[string]any) testkit.Response {
	t.Helper()
	res := as(t, tn, "POST", "/redirects", body)
	testkit.Expect(t, res, 201, "Redirect created successfully!")
	return res
}

// marker reads the marker of fromPath (ok false when there is none).
func marker(t *testing.T, tenant, fromPath string) (redirects.Marker, bool) {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	var m redirects.Marker
	err = testkit.Deps(t).Store.Get(context.Background(), redirects.MarkerKey(scope, fromPath), &m)
	if store.IsNotFound(err) {
		return m, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return m, true
}

// wantMarker fails unless fromPath's marker holds exactly this redirect, target and status.
func wantMarker(t *testing.T, tenant, fromPath, id, to string, status int) {
	t.Helper()
	m, ok := marker(t, tenant, fromPath)
	if !ok || m.RedirectID != id || m.To != to || m.StatusCode != status {
		t.Fatalf("marker of %s: %+v (found %v), want %s → %s %d", fromPath, m, ok, id, to, status)
	}
}

func noMarker(t *testing.T, tenant, fromPath string) {
	t.Helper()
	if m, ok := marker(t, tenant, fromPath); ok {
		t.Fatalf("marker of %s still there: %+v", fromPath, m)
	}
}

func service(t *testing.T) *collections.Service {
	t.Helper()
	svc, err := collections.SharedService(testkit.Deps(t), modules.Linked())
	if err != nil {
		t.Fatal(err)
	}
	return svc
}
