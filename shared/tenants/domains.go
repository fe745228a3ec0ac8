package tenants

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/store"
	"github.com/guregu/dynamo/v2"
)

// ErrDomainTaken is returned when a host already maps to another tenant.
var ErrDomainTaken = errors.New("tenants: domain belongs to another tenant")

// ErrTenantChanged is returned when the tenant's plan or domains changed between the read that
// checked the request and its write (another set-domains or set-plan at the same moment).
var ErrTenantChanged = errors.New("tenants: the tenant's plan or domains changed meanwhile; run the command again")

// maxDomains keeps set-domains inside one transaction (2 items per host changed, plus the tenant).
const maxDomains = 20

// NormalizeDomains lower-cases, trims and de-duplicates a domain list and checks every host
// strictly (DNS name, at most 253 characters, no scheme, port or path).
func NormalizeDomains(in []string) ([]string, error) {
	var out []string
	for _, d := range in {
		h := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
		if h == "" {
			continue
		}
		if !store.ValidHost(h) {
			return nil, fmt.Errorf("tenants: %q is not a host name (use e.g. www.example.org, no scheme, port or path)", d)
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	if len(out) > maxDomains {
		return nil, fmt.Errorf("tenants: at most %d domains", maxDomains)
	}
	return out, nil
}

// SetDomains replaces the tenant's website hosts: its domain list and the host → tenant lookup
// items, written in one transaction that removes the hosts no longer listed. A host another
// tenant holds is refused and nothing is written. The write holds only if the plan and domains
// are still those read: a racing set-domains cannot leave a lookup item the list does not name,
// and a racing downgrade cannot let a new host past a plan without custom domains.
func SetDomains(ctx context.Context, st *store.Store, tenant string, domains []string) ([]string, error) {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return nil, err
	}
	hosts, err := NormalizeDomains(domains)
	if err != nil {
		return nil, err
	}
	t, err := st.GetTenant(ctx, scope)
	if err != nil {
		return nil, fmt.Errorf("tenants: tenant %q: %w", tenant, err)
	}
	if err := domainsAllowed(t, hosts); err != nil {
		return nil, err
	}
	tx := st.WriteTx()
	// The tenant item leads; each lookup item is conditioned on being free or already ours.
	upd := st.Table.Update("PK", scope.Root()).Range("SK", store.SKTenant).Set("updatedAt", time.Now().UTC())
	if len(hosts) > 0 {
		upd.Set("domains", hosts)
	} else {
		upd.Remove("domains")
	}
	upd.If("attribute_exists(PK)")
	ifUnchanged(upd, "planId", t.PlanID)
	ifUnchanged(upd, "domains", t.Domains)
	tx.Update(upd)
	var added []string
	for _, h := range hosts {
		if slices.Contains(t.Domains, h) {
			continue
		}
		k := store.DomainKey(h)
		tx.Put(st.Table.Put(store.DomainItem{PK: k.PK, SK: k.SK, Host: h, TenantID: tenant}).
			If("attribute_not_exists(PK) OR tenantId = ?", tenant))
		added = append(added, h)
	}
	for _, h := range t.Domains {
		if slices.Contains(hosts, h) {
			continue
		}
		k := store.DomainKey(h)
		tx.Delete(st.Table.Delete("PK", k.PK).Range("SK", k.SK).If("tenantId = ?", tenant))
	}
	if err := tx.Run(ctx); err != nil {
		if store.CondFailedAt(err, 0) {
			return nil, fmt.Errorf("%w (%s)", ErrTenantChanged, tenant)
		}
		for i, h := range added {
			if store.CondFailedAt(err, 1+i) {
				return nil, fmt.Errorf("%w: %s", ErrDomainTaken, h)
			}
		}
		return nil, store.Wrap("set domains of "+tenant, err)
	}
	return hosts, nil
}

// ifUnchanged conditions the update on an attribute still holding the value read (absent when
// it was read empty: the tenant item omits an empty plan and list).
func ifUnchanged[T string | []string](u *dynamo.Update, name string, read T) {
	if len(read) == 0 {
		u.If("attribute_not_exists(" + name + ")")
		return
	}
	u.If(name+" = ?", read)
}
