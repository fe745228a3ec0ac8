package tenants

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
)

// domainsAllowed refuses a host the tenant does not have yet when its plan includes no custom
// domain (plans.ErrNoCustomDomain, naming the plan). Hosts it already has stay (a downgrade
// removes nothing), and clearing them is always allowed.
func domainsAllowed(t store.Tenant, hosts []string) error {
	p, err := plans.Of(t.PlanID)
	if err != nil {
		return err
	}
	for _, h := range hosts {
		if !slices.Contains(t.Domains, h) {
			return p.DomainRefusal()
		}
	}
	return nil
}

// SetPlan moves a tenant to another plan of the catalogue, with an audit entry (by cmsctl) in
// the same transaction. Nothing is deleted on a downgrade: records, files and domains past the
// new plan's limits stay, and only new ones are refused. It returns the plan it replaced.
func SetPlan(ctx context.Context, st *store.Store, tenant, plan string) (string, error) {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return "", err
	}
	if err := plans.Check(plan); err != nil {
		return "", err
	}
	t, err := st.GetTenant(ctx, scope)
	if err != nil {
		return "", fmt.Errorf("tenants: tenant %q: %w", tenant, err)
	}
	now := time.Now().UTC()
	upd := st.Table.Update("PK", scope.Root()).Range("SK", store.SKTenant).Set("planId", plan).Set("updatedAt", now).
		If("attribute_exists(PK)")
	entry := audit.Item(scope, audit.Entry{At: now, Username: "cmsctl", Action: collections.ActionUpdate,
		Collection: "tenant", RecordID: tenant, Changed: []string{"planId"}})
	if err := st.WriteTx().Update(upd).Put(st.Table.Put(entry)).Run(ctx); err != nil {
		return "", store.Wrap("set plan of "+tenant, err)
	}
	return t.PlanID, nil
}
