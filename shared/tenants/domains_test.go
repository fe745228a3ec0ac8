package tenants_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

const domainRefused = "Your plan (Starter) does not include a custom domain. Upgrade the plan first (cmsctl tenant set-plan)."

// TestCustomDomainNeedsAPlanWithOne: on Starter a new host is refused naming the plan, and no
// lookup is written; after a downgrade the hosts the tenant has keep working and may be kept
// or dropped, but none may be added.
func TestCustomDomainNeedsAPlanWithOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testkit.Deps(t).Store
	tn := testkit.NewTenant(t)
	a, b, c := "a-"+tn.ID+".example.org", "b-"+tn.ID+".example.org", "c-"+tn.ID+".example.org"
	testkit.SetPlan(t, tn.ID, "starter")

	_, err := tenants.SetDomains(ctx, st, tn.ID, []string{a})
	if !errors.Is(err, plans.ErrNoCustomDomain) || err.Error() != domainRefused {
		t.Fatalf("a domain on Starter: %v", err)
	}
	if id, err := st.TenantOfHost(ctx, a); err == nil {
		t.Fatalf("a refused host maps to %s", id)
	}

	testkit.SetPlan(t, tn.ID, "premium")
	testkit.SetDomains(t, tn.ID, a, b)
	testkit.SetPlan(t, tn.ID, "starter") // a downgrade removes nothing
	hostsOf(t, tn.ID, a, b)
	testkit.SetDomains(t, tn.ID, b, a) // the same hosts: allowed
	if _, err := tenants.SetDomains(ctx, st, tn.ID, []string{a, c}); !errors.Is(err, plans.ErrNoCustomDomain) {
		t.Fatalf("a new host after the downgrade: %v", err)
	}
	hostsOf(t, tn.ID, a, b) // nothing of the refused request written
	testkit.SetDomains(t, tn.ID, a)
	hostsOf(t, tn.ID, a)
	testkit.SetDomains(t, tn.ID)
	hostsOf(t, tn.ID)
}

// TestDomainsSetAtOnceLeaveNoStrayLookup: set-domains calls racing on one tenant each read the
// tenant first. Those that lost the race are refused, and every host that maps to the tenant
// is one its list names (a stale read must not leave a lookup item the list no longer holds).
func TestDomainsSetAtOnceLeaveNoStrayLookup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testkit.Deps(t).Store
	tn := testkit.NewTenant(t)
	const n = 8
	hosts := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		hosts[i] = fmt.Sprintf("h%d-%s.example.org", i, tn.ID)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = tenants.SetDomains(ctx, st, tn.ID, []string{hosts[i]})
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, tenants.ErrTenantChanged) && !errors.Is(err, store.ErrConflict):
			t.Errorf("set-domains %d: %v", i, err)
		}
	}
	if won == 0 {
		t.Fatal("no set-domains call succeeded")
	}
	listed := testkit.TenantItem(t, tn.ID).Domains
	if len(listed) != 1 {
		t.Fatalf("domains %v, want the one host of the last call that held", listed)
	}
	for _, h := range hosts {
		id, err := st.TenantOfHost(ctx, h)
		if maps := err == nil && id == tn.ID; maps != slices.Contains(listed, h) {
			t.Errorf("%s: maps to the tenant %v, listed %v (%v)", h, maps, listed, err)
		}
	}
}

// hostsOf checks the tenant lists exactly these hosts and each maps to it.
func hostsOf(t *testing.T, tenant string, want ...string) {
	t.Helper()
	got := testkit.TenantItem(t, tenant).Domains
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("domains %v, want %v", got, want)
	}
	for _, h := range want {
		if id, err := testkit.Deps(t).Store.TenantOfHost(context.Background(), h); err != nil || id != tenant {
			t.Fatalf("%s maps to %q, %v", h, id, err)
		}
	}
}
