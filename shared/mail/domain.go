package mail

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/store"
)

// A tenant may send from a domain of its own (cmsctl tenant set-mail-domain): the domain and
// whether SES reported it verified when the command last ran are attributes of its tenant item.
// Its mail is from no-reply@{that domain} only while it is verified (TenantDomain.From); until
// then, and without one, it is from the deployment's address.
const (
	AttrMailDomain         = "mailDomain"
	AttrMailDomainVerified = "mailDomainVerified"
)

// FromLocalPart is the local part of every sending address: no-reply@{domain}.
const FromLocalPart = "no-reply"

// ErrBadDomain is wrapped by every refusal of a tenant's mail domain (CheckTenantDomain).
var ErrBadDomain = errors.New("mail: not a mail domain a tenant may use")

// TenantDomain is a tenant's own mail domain as its tenant item holds it.
type TenantDomain struct {
	// Domain is the domain ("" when the tenant sends from the deployment's address).
	Domain string `dynamo:"mailDomain,omitempty"`
	// Verified is whether SES reported the domain verified for sending (VerifiedForSendingStatus)
	// when set-mail-domain last ran.
	Verified bool `dynamo:"mailDomainVerified,omitempty"`
}

// From is the domain the tenant's mail is sent from: its own once verified, else the deployment's.
func (d TenantDomain) From(deployment string) string {
	if d.Domain != "" && d.Verified && store.ValidHost(d.Domain) {
		return d.Domain
	}
	return deployment
}

// FromAt is the From header of a message sent for fromName from no-reply@{domain} (a tenant's
// verified domain; From is FromAt the deployment's domain).
func (c Config) FromAt(domain, fromName string) string {
	return (&mail.Address{Name: fromName, Address: FromLocalPart + "@" + domain}).String()
}

// CheckTenantDomain normalises a domain a tenant asks to send from (trimmed, lower case, without
// a final dot) and checks it: a DNS name of two labels or more, not an IP address, whose
// no-reply address is a valid one, and neither the deployment's own mail domain nor a domain
// within it or containing it (SES lets a verified domain send from its subdomains: a tenant must
// not borrow the deployment's verification, nor the deployment a tenant's). Every refusal wraps
// ErrBadDomain.
func CheckTenantDomain(domain, deployment string) (string, error) {
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if net.ParseIP(strings.Trim(d, "[]")) != nil {
		return "", fmt.Errorf("%w: %q is an IP address; give a domain name such as mail.school.example", ErrBadDomain, domain)
	}
	if !store.ValidHost(d) {
		return "", fmt.Errorf("%w: %q is not a domain name (use e.g. mail.school.example: letters, digits and hyphens, no scheme, address, port or path)", ErrBadDomain, domain)
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return "", fmt.Errorf("%w: %q is not a domain under a top-level domain (use e.g. mail.school.example)", ErrBadDomain, domain)
	}
	if tld := labels[len(labels)-1]; strings.Trim(tld, "0123456789") == "" {
		return "", fmt.Errorf("%w: %q is an IP address, not a domain name", ErrBadDomain, domain)
	}
	if _, err := ParseAddress(FromLocalPart + "@" + d); err != nil {
		return "", fmt.Errorf("%w: %s@%s is not a valid address: %w", ErrBadDomain, FromLocalPart, d, err)
	}
	dep := strings.TrimSuffix(strings.ToLower(deployment), ".")
	switch {
	case d == dep:
		return "", fmt.Errorf("%w: %s is the deployment's own mail domain; its mail is sent from it already (--domain \"\" goes back to it)", ErrBadDomain, d)
	case strings.HasSuffix(d, "."+dep):
		return "", fmt.Errorf("%w: %s is within the deployment's mail domain %s; give a domain of the institution's own", ErrBadDomain, d, dep)
	case strings.HasSuffix(dep, "."+d):
		return "", fmt.Errorf("%w: %s contains the deployment's mail domain %s; give a domain of the institution's own", ErrBadDomain, d, dep)
	}
	return d, nil
}

// GetTenantDomain reads a tenant's own mail domain from its tenant item; store.ErrNotFound when
// there is no such tenant.
func GetTenantDomain(ctx context.Context, st *store.Store, scope store.Scope) (TenantDomain, error) {
	var d TenantDomain
	err := st.Get(ctx, store.Key{PK: scope.Root(), SK: store.SKTenant}, &d)
	return d, err
}

// SetTenantDomain stores a tenant's own mail domain on its tenant item (d.Domain "" removes it
// and its verification: the deployment's address again), with an audit entry by cmsctl naming
// what changed, in one transaction, on condition that the item still holds what was read (a
// concurrent run is refused rather than overwritten). It returns what the item held before;
// when nothing changes, nothing is written. store.ErrNotFound when there is no such tenant.
func SetTenantDomain(ctx context.Context, st *store.Store, scope store.Scope, d TenantDomain, now time.Time) (TenantDomain, error) {
	if d.Domain == "" {
		d.Verified = false
	}
	before, err := GetTenantDomain(ctx, st, scope)
	if err != nil {
		return TenantDomain{}, fmt.Errorf("mail: tenant %q: %w", scope.Tenant(), err)
	}
	var changed []string
	if before.Domain != d.Domain {
		changed = append(changed, AttrMailDomain)
	}
	if before.Verified != d.Verified {
		changed = append(changed, AttrMailDomainVerified)
	}
	if len(changed) == 0 {
		return before, nil
	}
	now = now.UTC()
	upd := st.Table.Update("PK", scope.Root()).Range("SK", store.SKTenant).Set("updatedAt", now).If("attribute_exists(PK)")
	if d.Domain == "" {
		upd.Remove(AttrMailDomain)
	} else {
		upd.Set(AttrMailDomain, d.Domain)
	}
	if d.Verified {
		upd.Set(AttrMailDomainVerified, true)
	} else {
		upd.Remove(AttrMailDomainVerified)
	}
	if before.Domain == "" {
		upd.If("attribute_not_exists(" + AttrMailDomain + ")")
	} else {
		upd.If(AttrMailDomain+" = ?", before.Domain)
	}
	if before.Verified {
		upd.If(AttrMailDomainVerified+" = ?", true)
	} else {
		upd.If("attribute_not_exists("+AttrMailDomainVerified+") OR "+AttrMailDomainVerified+" = ?", false)
	}
	entry := audit.Item(scope, audit.Entry{At: now, Username: "cmsctl", Action: "update", Collection: "tenant",
		RecordID: scope.Tenant(), Changed: changed})
	err = st.WriteTx().Update(upd).Put(st.Table.Put(entry)).Run(ctx)
	if store.CondFailedAt(err, 0) {
		return before, fmt.Errorf("mail: tenant %s: its mail domain changed meanwhile (or the tenant is gone); run the command again", scope.Tenant())
	}
	if err != nil {
		return before, store.Wrap("set mail domain of "+scope.Tenant(), err)
	}
	return before, nil
}
