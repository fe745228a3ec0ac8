package store

import (
	"context"
	"strings"

	"github.com/guregu/dynamo/v2"
)

// The host → tenant lookup is the one kind of item whose key does not start with T#{tenant}:
// a website's host is global (the request names no tenant yet), so its lookup cannot sit under
// one. It holds nothing but the tenant id the host maps to, so it cannot leak a tenant's data;
// it is written only by the ops CLI (cmsctl tenant set-domains), in the same transaction as the
// tenant's own domain list, and a host is checked against that list when it is resolved.
const (
	domainPrefix = "DOMAIN#"
	// SKDomain is the sort key of a host lookup item.
	SKDomain = "DOMAIN"
	// MaxHostLength is the longest DNS name.
	MaxHostLength = 253
)

// DomainKey is the key of the lookup item of host (already validated with ValidHost).
func DomainKey(host string) Key { return Key{PK: domainPrefix + host, SK: SKDomain} }

// DomainItem maps one host to a tenant.
type DomainItem struct {
	PK       string `dynamo:"PK,hash"`
	SK       string `dynamo:"SK,range"`
	Host     string `dynamo:"host"`
	TenantID string `dynamo:"tenantId"`
}

// ValidHost reports whether h is a lower-case DNS host name of at most 253 characters, with
// labels of 1 to 63 letters, digits or hyphens (no leading or trailing hyphen).
func ValidHost(h string) bool {
	if h == "" || len(h) > MaxHostLength {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// TenantOfHost returns the tenant id a host maps to; ErrNotFound when none does. It reads
// eventually consistent: a new domain is visible within a second, and reads cost half.
func (s *Store) TenantOfHost(ctx context.Context, host string) (string, error) {
	k := DomainKey(host)
	var it DomainItem
	err := s.Table.Get("PK", k.PK).Range("SK", dynamo.Equal, k.SK).One(ctx, &it)
	return it.TenantID, Wrap("host "+host, err)
}
