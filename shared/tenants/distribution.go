package tenants

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
)

// DistributionAPI is the part of the CloudFront API that attaching website domains uses; the
// SDK's *cloudfront.Client is one, a test's stand-in server another.
type DistributionAPI interface {
	GetDistributionTenant(context.Context, *cloudfront.GetDistributionTenantInput, ...func(*cloudfront.Options)) (*cloudfront.GetDistributionTenantOutput, error)
	CreateDistributionTenant(context.Context, *cloudfront.CreateDistributionTenantInput, ...func(*cloudfront.Options)) (*cloudfront.CreateDistributionTenantOutput, error)
	UpdateDistributionTenant(context.Context, *cloudfront.UpdateDistributionTenantInput, ...func(*cloudfront.Options)) (*cloudfront.UpdateDistributionTenantOutput, error)
	DeleteDistributionTenant(context.Context, *cloudfront.DeleteDistributionTenantInput, ...func(*cloudfront.Options)) (*cloudfront.DeleteDistributionTenantOutput, error)
	GetConnectionGroup(context.Context, *cloudfront.GetConnectionGroupInput, ...func(*cloudfront.Options)) (*cloudfront.GetConnectionGroupOutput, error)
	GetManagedCertificateDetails(context.Context, *cloudfront.GetManagedCertificateDetailsInput, ...func(*cloudfront.Options)) (*cloudfront.GetManagedCertificateDetailsOutput, error)
}

var _ DistributionAPI = (*cloudfront.Client)(nil)

// Websites keeps the institutions' distribution tenants on the websites' multi-tenant CloudFront
// distribution (infra/lib/website.ts) in step with their domains: one distribution tenant per
// institution, named DistributionTenantName(tenant), holding its domains and a CloudFront-managed
// certificate for them.
type Websites struct {
	API DistributionAPI
	// DistributionID is the multi-tenant distribution (the stack's WebsiteDistributionId).
	DistributionID string
	// ConnectionGroupID is the connection group tenants join (the stack's
	// WebsiteConnectionGroupId); empty leaves CloudFront's choice (the account's default group)
	// on create and the tenant's group on update.
	ConnectionGroupID string
}

// DistributionTenantName is the name of an institution's distribution tenant. Names are unique in
// the AWS account, which is why Websites checks the tenant it finds is on its distribution.
func DistributionTenantName(tenant string) string { return "campus-" + tenant }

// WebsiteAction is what Sync did to the distribution tenant.
type WebsiteAction string

// The outcomes of Sync.
const (
	WebsiteCreated   WebsiteAction = "created"
	WebsiteUpdated   WebsiteAction = "updated"
	WebsiteUnchanged WebsiteAction = "unchanged"
	// WebsiteDisabled: disabled, but CloudFront would not delete it yet; the next Sync with no
	// domains deletes it.
	WebsiteDisabled WebsiteAction = "disabled"
	WebsiteDeleted  WebsiteAction = "deleted"
	// WebsiteAbsent: no domains and no distribution tenant, so nothing to do.
	WebsiteAbsent WebsiteAction = "absent"
)

// WebsiteState is the distribution tenant after Sync, with what an institution's DNS needs.
type WebsiteState struct {
	Action WebsiteAction
	// ID is the distribution tenant's id (empty when there is none).
	ID string
	// Domains are the tenant's domains as CloudFront reports them, with their status.
	Domains []DomainStatus
	// RoutingEndpoint is the connection group's host name, the target of every domain's CNAME.
	RoutingEndpoint string
	// Certificate is the CloudFront-managed certificate; nil when the tenant has none.
	Certificate *ManagedCertificate
}

// DomainStatus is one domain of a distribution tenant ("active" once it serves traffic).
type DomainStatus struct{ Domain, Status string }

// ManagedCertificate is the state of a distribution tenant's CloudFront-managed ACM certificate.
type ManagedCertificate struct {
	// Status is ACM's: pending-validation, issued, validation-timed-out, failed, ...
	Status string
	// ValidationTokenHost is "cloudfront" (CloudFront answers ACM's HTTP check) or "self-hosted".
	ValidationTokenHost string
	// Tokens are where ACM looks for its validation file, per domain.
	Tokens []ValidationToken
}

// ValidationToken is one domain's HTTP validation: ACM fetches RedirectFrom and expects a
// redirect to RedirectTo.
type ValidationToken struct{ Domain, RedirectFrom, RedirectTo string }

// certRetry are the certificate states in which a Sync with the same domains asks for a new one:
// the institution did not point its DNS in time, or ACM gave up.
var certRetry = []types.ManagedCertificateStatus{
	types.ManagedCertificateStatusValidationTimedOut,
	types.ManagedCertificateStatusFailed,
	types.ManagedCertificateStatusExpired,
	types.ManagedCertificateStatusRevoked,
}

// Check reads the institution's distribution tenant, if any, and fails when CloudFront cannot be
// reached or read with these credentials, or the name belongs to another distribution. cmsctl
// runs it before changing the table, so a wrong setting costs nothing.
func (w Websites) Check(ctx context.Context, tenant string) error {
	_, _, err := w.current(ctx, tenant)
	return err
}

// Sync makes the institution's distribution tenant hold exactly hosts: created (enabled, with a
// managed certificate validated by CloudFront over HTTP) when there is none, updated with the
// ETag it read when the domains differ or it was disabled, disabled and deleted when hosts is
// empty. Running it again with the same hosts changes nothing (but renews a certificate ACM gave
// up on), so a failed run is retried by running it again.
func (w Websites) Sync(ctx context.Context, tenant string, hosts []string) (WebsiteState, error) {
	cur, etag, err := w.current(ctx, tenant)
	if err != nil {
		return WebsiteState{}, err
	}
	name := DistributionTenantName(tenant)
	switch {
	case len(hosts) == 0 && cur == nil:
		return WebsiteState{Action: WebsiteAbsent}, nil
	case len(hosts) == 0:
		return w.remove(ctx, cur, etag)
	case cur == nil:
		out, err := w.API.CreateDistributionTenant(ctx, &cloudfront.CreateDistributionTenantInput{
			DistributionId:            aws.String(w.DistributionID),
			Name:                      aws.String(name),
			Domains:                   domainItems(hosts),
			Enabled:                   aws.Bool(true),
			ConnectionGroupId:         optional(w.ConnectionGroupID),
			ManagedCertificateRequest: certificateRequest(hosts),
		})
		if err != nil {
			return WebsiteState{}, cloudFrontError("create distribution tenant "+name, err)
		}
		return w.describe(ctx, WebsiteCreated, out.DistributionTenant)
	}
	cert, err := w.certificate(ctx, aws.ToString(cur.Id))
	if err != nil {
		return WebsiteState{}, err
	}
	sameDomains := sameSet(domainNames(cur.Domains), hosts)
	renewCert := cert == nil || slices.Contains(certRetry, types.ManagedCertificateStatus(cert.Status))
	moveGroup := w.ConnectionGroupID != "" && w.ConnectionGroupID != aws.ToString(cur.ConnectionGroupId)
	if sameDomains && aws.ToBool(cur.Enabled) && !renewCert && !moveGroup {
		return w.describe(ctx, WebsiteUnchanged, cur)
	}
	in := &cloudfront.UpdateDistributionTenantInput{
		Id:                aws.String(aws.ToString(cur.Id)),
		IfMatch:           aws.String(etag),
		Domains:           domainItems(hosts),
		Enabled:           aws.Bool(true),
		ConnectionGroupId: optional(w.ConnectionGroupID),
		// Carried over in case an update replaces rather than merges: geo restrictions or a web
		// ACL set by hand stay; the certificate does not when a new one is requested for it.
		Customizations: cur.Customizations,
		Parameters:     cur.Parameters,
	}
	if !sameDomains || renewCert {
		in.ManagedCertificateRequest = certificateRequest(hosts)
		in.Customizations = withoutCertificate(cur.Customizations)
	}
	out, err := w.API.UpdateDistributionTenant(ctx, in)
	if err != nil {
		return WebsiteState{}, cloudFrontError("update distribution tenant "+name, err)
	}
	return w.describe(ctx, WebsiteUpdated, out.DistributionTenant)
}

// current is the institution's distribution tenant and its ETag; nil when there is none.
func (w Websites) current(ctx context.Context, tenant string) (*types.DistributionTenant, string, error) {
	name := DistributionTenantName(tenant)
	out, err := w.API.GetDistributionTenant(ctx, &cloudfront.GetDistributionTenantInput{Identifier: aws.String(name)})
	var missing *types.EntityNotFound
	switch {
	case errors.As(err, &missing):
		return nil, "", nil
	case err != nil:
		return nil, "", cloudFrontError("read distribution tenant "+name, err)
	case out.DistributionTenant == nil:
		return nil, "", fmt.Errorf("tenants: CloudFront: read distribution tenant %s: empty answer", name)
	}
	if d := aws.ToString(out.DistributionTenant.DistributionId); d != w.DistributionID {
		return nil, "", fmt.Errorf("tenants: CloudFront: distribution tenant %s belongs to distribution %s, not %s (another stack in this account uses the name); nothing changed", name, d, w.DistributionID)
	}
	return out.DistributionTenant, aws.ToString(out.ETag), nil
}

// remove disables the distribution tenant (CloudFront deletes only disabled ones) and deletes it.
// If CloudFront still refuses, the tenant stays disabled, serving nothing, until the next run.
func (w Websites) remove(ctx context.Context, cur *types.DistributionTenant, etag string) (WebsiteState, error) {
	id, name := aws.ToString(cur.Id), aws.ToString(cur.Name)
	if aws.ToBool(cur.Enabled) {
		out, err := w.API.UpdateDistributionTenant(ctx, &cloudfront.UpdateDistributionTenantInput{
			Id: aws.String(id), IfMatch: aws.String(etag), Enabled: aws.Bool(false),
			Domains: domainItems(domainNames(cur.Domains)), Customizations: cur.Customizations, Parameters: cur.Parameters,
		})
		if err != nil {
			return WebsiteState{}, cloudFrontError("disable distribution tenant "+name, err)
		}
		etag = aws.ToString(out.ETag)
	}
	_, err := w.API.DeleteDistributionTenant(ctx, &cloudfront.DeleteDistributionTenantInput{Id: aws.String(id), IfMatch: aws.String(etag)})
	var notYet *types.ResourceNotDisabled
	switch {
	case errors.As(err, &notYet):
		return WebsiteState{Action: WebsiteDisabled, ID: id}, nil
	case err != nil:
		return WebsiteState{}, cloudFrontError("delete distribution tenant "+name, err)
	}
	return WebsiteState{Action: WebsiteDeleted, ID: id}, nil
}
