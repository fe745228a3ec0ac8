package tenants

import (
	"context"
	"fmt"
	"time"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// SetSuspended suspends (or resumes) a tenant, with an audit entry by cmsctl in the same
// transaction. Suspended, the panel refuses its sign-in and every token (api.ErrSuspended), and
// its public API and website answer 503 with Retry-After (public.ErrSuspended); nothing is
// deleted, and resuming gives everything back as it was (its users sign in again). It returns
// whether the tenant was suspended before.
func SetSuspended(ctx context.Context, st *store.Store, tenant string, suspended bool) (bool, error) {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return false, err
	}
	t, err := st.GetTenant(ctx, scope)
	if err != nil {
		return false, fmt.Errorf("tenants: tenant %q: %w", tenant, err)
	}
	if t.Suspended == suspended {
		return t.Suspended, nil
	}
	now := time.Now().UTC()
	upd := st.Table.Update("PK", scope.Root()).Range("SK", store.SKTenant).Set("updatedAt", now).If("attribute_exists(PK)")
	if suspended {
		upd.Set("suspended", true)
	} else {
		upd.Remove("suspended")
	}
	entry := audit.Item(scope, audit.Entry{At: now, Username: "cmsctl", Action: collections.ActionUpdate,
		Collection: "tenant", RecordID: tenant, Changed: []string{"suspended"}})
	if err := st.WriteTx().Update(upd).Put(st.Table.Put(entry)).Run(ctx); err != nil {
		return false, store.Wrap("suspend "+tenant, err)
	}
	return t.Suspended, nil
}
