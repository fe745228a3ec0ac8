package tenants

import (
	"context"

	"github.com/campuscms/panel/shared/store"
)

// TenantPartitions lists the partitions a deletion or an export of the tenant reads.
func TenantPartitions(ctx context.Context, st *store.Store, scope store.Scope) ([]string, error) {
	return tenantPartitions(ctx, st, scope)
}
