package store

import (
	"context"
	"time"
)

// Sort keys of the tenant's root partition: its details, and the theme-settings and SEO
// singletons tenant-info shows beside them (declared with these keys in collections.json).
const (
	SKTenant = "TENANT"
	SKTheme  = "THEME"
	SKSEO    = "SEO"
	// SKSecurity is the tenant's security settings (two-factor sign-in policy).
	SKSecurity = "SECURITY"
)

// Tenant is one institution: its details item.
type Tenant struct {
	PK               string `dynamo:"PK,hash" json:"-"`
	SK               string `dynamo:"SK,range" json:"-"`
	ID               string `dynamo:"id" json:"id"`
	Name             string `dynamo:"name" json:"name"`
	LogoFull         string `dynamo:"logoFull" json:"logoFull"`
	AppIconLogo      string `dynamo:"appIconLogo" json:"appIconLogo"`
	FullWidthAppLogo string `dynamo:"fullWidthAppLogo" json:"fullWidthAppLogo"`
	PlanID           string `dynamo:"planId" json:"planId"`
	ThemeSetting     string `dynamo:"themeSetting" json:"themeSetting"`
	SEOSetting       string `dynamo:"seoSetting" json:"seoSetting"`
	// Domains are the website hosts that resolve to this tenant on the public API (see DomainKey).
	Domains []string `dynamo:"domains,omitempty" json:"domains,omitempty"`
	// Suspended is set by ops (cmsctl tenant suspend): the panel refuses sign-in and every token,
	// the public API and the website answer a maintenance page. Nothing is deleted.
	Suspended bool      `dynamo:"suspended,omitempty" json:"suspended,omitempty"`
	CreatedAt time.Time `dynamo:"createdAt" json:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt" json:"updatedAt"`
}

// TenantItem returns the details item of the scope's tenant, ready to be written.
func (s Scope) TenantItem(name string, now time.Time) Tenant {
	return Tenant{PK: s.Root(), SK: SKTenant, ID: s.tenant, Name: name, CreatedAt: now, UpdatedAt: now}
}

// GetTenant loads a tenant's details; ErrNotFound if there is no such tenant.
func (s *Store) GetTenant(ctx context.Context, scope Scope) (Tenant, error) {
	var t Tenant
	err := s.Get(ctx, Key{PK: scope.Root(), SK: SKTenant}, &t)
	return t, err
}
