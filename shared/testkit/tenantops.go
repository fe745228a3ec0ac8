package testkit

import (
	"context"
	"testing"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
)

// SetPlan moves a tenant to a plan of the catalogue, as cmsctl tenant set-plan does.
func SetPlan(t testing.TB, tenant, plan string) {
	t.Helper()
	if _, err := tenants.SetPlan(context.Background(), Deps(t).Store, tenant, plan); err != nil {
		t.Fatalf("set-plan %s: %v", plan, err)
	}
}

// SetDomains replaces a tenant's website hosts, as cmsctl tenant set-domains does in the table.
func SetDomains(t testing.TB, tenant string, hosts ...string) {
	t.Helper()
	if _, err := tenants.SetDomains(context.Background(), Deps(t).Store, tenant, hosts); err != nil {
		t.Fatalf("set-domains %v: %v", hosts, err)
	}
}

// TenantItem reads a tenant's details item from the table.
func TenantItem(t testing.TB, tenant string) store.Tenant {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Deps(t).Store.GetTenant(context.Background(), scope)
	if err != nil {
		t.Fatalf("tenant %s: %v", tenant, err)
	}
	return got
}

// AdminCaller is the tenant's administrator as the engine sees a signed-in caller: for code that
// writes as a person outside a request (importers, jobs).
func AdminCaller(t testing.TB, tn Tenant) *auth.Caller {
	t.Helper()
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	return &auth.Caller{Scope: scope, Tenant: TenantItem(t, tn.ID),
		User: &auth.User{ID: tn.AdminID, Username: tn.AdminUsername, IsAdmin: true, Status: true}}
}
