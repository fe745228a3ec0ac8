package store

import (
	"errors"
	"fmt"
	"strings"

	"github.com/campuscms/panel/shared/lazyre"
)

// ErrBadTenant is returned for a tenant id that is empty or malformed.
var ErrBadTenant = errors.New("store: invalid tenant id")

var tenantPattern = lazyre.New(`^[a-z0-9-]{2,40}$`)

// ValidTenantID reports whether id is a well-formed tenant id: [a-z0-9-]{2,40}. It contains no '#',
// so the key of tenant "acme" can never be a prefix match for tenant "acme-corp".
func ValidTenantID(id string) bool { return tenantPattern().MatchString(id) }

// Scope builds the keys of one tenant. Every DynamoDB key starts with T#{tenant}; the zero Scope
// refuses to build any key, so a handler that forgot to resolve its tenant cannot touch data.
type Scope struct{ tenant string }

// NewScope validates the tenant id and returns its key builder.
func NewScope(tenant string) (Scope, error) {
	if !ValidTenantID(tenant) {
		return Scope{}, fmt.Errorf("%w: %q", ErrBadTenant, tenant)
	}
	return Scope{tenant: tenant}, nil
}

// Tenant returns the tenant id.
func (s Scope) Tenant() string { return s.tenant }

// Root is the partition of the tenant's singletons (details, counters, menu, header…).
func (s Scope) Root() string { return s.key() }

// Collection is the partition of one record type, e.g. Collection("faqs").
func (s Scope) Collection(kind string) string { return s.key(kind) }

// Partition joins parts under the tenant: Partition("PAGE", id) is T#{t}#PAGE#{id}.
func (s Scope) Partition(parts ...string) string { return s.key(parts...) }

func (s Scope) key(parts ...string) string {
	if s.tenant == "" {
		panic("store: key requested without a tenant")
	}
	if len(parts) == 0 {
		return "T#" + s.tenant
	}
	return "T#" + s.tenant + "#" + strings.Join(parts, "#")
}
