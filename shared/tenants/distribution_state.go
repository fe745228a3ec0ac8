package tenants

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"
	"github.com/aws/smithy-go"
)

// DNSRecord is one record an institution creates at its DNS provider.
type DNSRecord struct{ Name, Type, Value string }

// DNSRecords are the records the institution's DNS needs: each domain a CNAME to the connection
// group's routing endpoint. With CloudFront answering ACM's HTTP check (validation token host
// "cloudfront", which Sync asks for) those CNAMEs are also all the certificate needs.
func (s WebsiteState) DNSRecords() []DNSRecord {
	if s.RoutingEndpoint == "" {
		return nil
	}
	out := make([]DNSRecord, 0, len(s.Domains))
	for _, d := range s.Domains {
		out = append(out, DNSRecord{Name: d.Domain, Type: "CNAME", Value: s.RoutingEndpoint})
	}
	return out
}

// describe fills a WebsiteState from the distribution tenant CloudFront answered with, its
// connection group's routing endpoint and its certificate.
func (w Websites) describe(ctx context.Context, action WebsiteAction, dt *types.DistributionTenant) (WebsiteState, error) {
	if dt == nil {
		return WebsiteState{}, fmt.Errorf("tenants: CloudFront: %s distribution tenant: empty answer", action)
	}
	s := WebsiteState{Action: action, ID: aws.ToString(dt.Id)}
	for _, d := range dt.Domains {
		s.Domains = append(s.Domains, DomainStatus{Domain: aws.ToString(d.Domain), Status: string(d.Status)})
	}
	if g := aws.ToString(dt.ConnectionGroupId); g != "" {
		out, err := w.API.GetConnectionGroup(ctx, &cloudfront.GetConnectionGroupInput{Identifier: aws.String(g)})
		if err != nil {
			return WebsiteState{}, cloudFrontError(fmt.Sprintf("read connection group %s (the distribution tenant was %s)", g, action), err)
		}
		if out.ConnectionGroup != nil {
			s.RoutingEndpoint = aws.ToString(out.ConnectionGroup.RoutingEndpoint)
		}
	}
	cert, err := w.certificate(ctx, s.ID)
	if err != nil {
		return WebsiteState{}, err
	}
	s.Certificate = cert
	return s, nil
}

// certificate is the distribution tenant's CloudFront-managed certificate; nil when it has none.
func (w Websites) certificate(ctx context.Context, id string) (*ManagedCertificate, error) {
	out, err := w.API.GetManagedCertificateDetails(ctx, &cloudfront.GetManagedCertificateDetailsInput{Identifier: aws.String(id)})
	var missing *types.EntityNotFound
	switch {
	case errors.As(err, &missing):
		return nil, nil
	case err != nil:
		return nil, cloudFrontError("read the managed certificate of distribution tenant "+id, err)
	case out.ManagedCertificateDetails == nil:
		return nil, nil
	}
	d := out.ManagedCertificateDetails
	c := &ManagedCertificate{Status: string(d.CertificateStatus), ValidationTokenHost: string(d.ValidationTokenHost)}
	for _, t := range d.ValidationTokenDetails {
		c.Tokens = append(c.Tokens, ValidationToken{Domain: aws.ToString(t.Domain), RedirectFrom: aws.ToString(t.RedirectFrom), RedirectTo: aws.ToString(t.RedirectTo)})
	}
	return c, nil
}

// certificateRequest asks CloudFront for an ACM certificate covering the hosts, validated over
// HTTP by CloudFront itself: the institution's CNAMEs are the only step, and renewals need none.
func certificateRequest(hosts []string) *types.ManagedCertificateRequest {
	return &types.ManagedCertificateRequest{
		ValidationTokenHost: types.ValidationTokenHostCloudFront,
		PrimaryDomainName:   aws.String(hosts[0]),
	}
}

// withoutCertificate is c without a certificate: the one a new managed certificate replaces.
func withoutCertificate(c *types.Customizations) *types.Customizations {
	if c == nil || c.Certificate == nil {
		return c
	}
	out := *c
	out.Certificate = nil
	return &out
}

func domainItems(hosts []string) []types.DomainItem {
	out := make([]types.DomainItem, 0, len(hosts))
	for _, h := range hosts {
		out = append(out, types.DomainItem{Domain: aws.String(h)})
	}
	return out
}

func domainNames(ds []types.DomainResult) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, aws.ToString(d.Domain))
	}
	return out
}

// sameSet reports whether a and b hold the same names, in any order (both are duplicate-free).
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// errorHints say what to do about the CloudFront errors an operator can fix.
var errorHints = map[string]string{
	"CNAMEAlreadyExists":    "a domain is already on another CloudFront distribution or distribution tenant; remove it there first",
	"AccessDenied":          "these AWS credentials may not manage distribution tenants (cloudfront:GetDistributionTenant, CreateDistributionTenant, UpdateDistributionTenant, DeleteDistributionTenant, GetConnectionGroup, GetManagedCertificateDetails)",
	"PreconditionFailed":    "the distribution tenant changed while this ran; run the command again",
	"InvalidIfMatchVersion": "the distribution tenant changed while this ran; run the command again",
	"EntityNotFound":        "check WEBSITE_DISTRIBUTION_ID and WEBSITE_CONNECTION_GROUP_ID against the stack outputs",
	"EntityLimitExceeded":   "an account quota (distribution tenants, domains or managed certificates) is reached; ask AWS to raise it",
}

// cloudFrontError wraps a CloudFront failure with the operation and, where there is one, what to
// do about it.
func cloudFrontError(op string, err error) error {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		if hint, ok := errorHints[apiErr.ErrorCode()]; ok {
			return fmt.Errorf("tenants: CloudFront: %s: %w (%s)", op, err, hint)
		}
	}
	return fmt.Errorf("tenants: CloudFront: %s: %w", op, err)
}
