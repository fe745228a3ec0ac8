package awsmail

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"
)

// TagTenant is the tag of a tenant's SES identity naming the tenant it was set up for
// (cmsctl tenant set-mail-domain): another tenant cannot take it over.
const TagTenant = "campuscms:tenant"

// DefaultDKIMZone is where Easy DKIM's CNAME records point when SES names no other zone.
const DefaultDKIMZone = "dkim.amazonses.com"

// ErrIdentityTaken is returned when the domain's SES identity was set up for another tenant.
var ErrIdentityTaken = errors.New("awsmail: the domain's SES identity belongs to another tenant")

// Identities manages the SES v2 domain identities tenants send from.
type Identities struct {
	client *sesv2.Client
}

// NewIdentities returns the identities of awsCfg's account and region; optFns adjust the client
// (a test's stand-in, an operator's endpoint).
func NewIdentities(awsCfg aws.Config, optFns ...func(*sesv2.Options)) *Identities {
	return &Identities{client: sesv2.NewFromConfig(awsCfg, optFns...)}
}

// DNSRecord is a record the domain's owner publishes.
type DNSRecord struct{ Name, Type, Value string }

// Identity is what SES says of a domain identity, and what Ensure did to it.
type Identity struct {
	Domain string
	// Created is true when Ensure created the identity; Associated when it made configSet the
	// identity's default configuration set (it was none, or another: PreviousConfigurationSet).
	Created, Associated      bool
	ConfigurationSet         string
	PreviousConfigurationSet string
	// Verified is SES's VerifiedForSendingStatus: mail may be sent from the domain.
	Verified bool
	// DKIMStatus is Easy DKIM's status (PENDING, SUCCESS, FAILED, TEMPORARY_FAILURE, NOT_STARTED).
	DKIMStatus string
	// DKIMRecords are the three CNAME records of Easy DKIM: {token}._domainkey.{domain} →
	// {token}.dkim.amazonses.com.
	DKIMRecords []DNSRecord
	// MailFromDomain is the identity's custom MAIL FROM domain ("" when SES's own is used),
	// MailFromStatus its status.
	MailFromDomain, MailFromStatus string
	// Region is the SES region (the MAIL FROM domain's MX record names it).
	Region string
}

// MailFromRecords are the records a custom MAIL FROM domain needs (none without one).
func (id Identity) MailFromRecords() []DNSRecord {
	if id.MailFromDomain == "" {
		return nil
	}
	return []DNSRecord{
		{Name: id.MailFromDomain, Type: "MX", Value: "10 feedback-smtp." + id.Region + ".amazonses.com"},
		{Name: id.MailFromDomain, Type: "TXT", Value: `"v=spf1 include:amazonses.com ~all"`},
	}
}

// Ensure makes sure SES has a domain identity for domain, set up for tenant, with Easy DKIM, whose
// default configuration set is configSet (so that mail sent from it reports its bounces and
// complaints there even when a send names none), and returns what SES says of it. A new identity
// is created with one CreateEmailIdentity (Easy DKIM with 2048-bit keys, the configuration set,
// the tenant tag); an existing one (GetEmailIdentity) is kept, and associated with configSet when
// it is not yet. An identity set up for another tenant is refused (ErrIdentityTaken), and so is
// an email-address identity. configSet "" leaves the configuration set as it is (a local run).
// Running it again changes nothing and reports the identity's current status.
func (i *Identities) Ensure(ctx context.Context, domain, tenant, configSet string) (Identity, error) {
	out, err := i.client.GetEmailIdentity(ctx, &sesv2.GetEmailIdentityInput{EmailIdentity: aws.String(domain)})
	var missing *types.NotFoundException
	if errors.As(err, &missing) {
		created, err := i.create(ctx, domain, tenant, configSet)
		var exists *types.AlreadyExistsException
		if !errors.As(err, &exists) {
			return created, err
		}
		// Created meanwhile by another run: take it as it is.
		out, err = i.client.GetEmailIdentity(ctx, &sesv2.GetEmailIdentityInput{EmailIdentity: aws.String(domain)})
	}
	if err != nil {
		return Identity{}, fmt.Errorf("ses: get email identity %s: %w", domain, err)
	}
	if out.IdentityType != "" && out.IdentityType != types.IdentityTypeDomain {
		return Identity{}, fmt.Errorf("ses: %s is an identity of type %s, not a domain", domain, out.IdentityType)
	}
	for _, t := range out.Tags {
		if aws.ToString(t.Key) == TagTenant && aws.ToString(t.Value) != "" && aws.ToString(t.Value) != tenant {
			return Identity{}, fmt.Errorf("%w: %s was set up for tenant %s (its SES identity's tag %s); set that tenant's mail domain to \"\" and remove the tag first",
				ErrIdentityTaken, domain, aws.ToString(t.Value), TagTenant)
		}
	}
	id := i.identity(domain, out.VerifiedForSendingStatus, out.DkimAttributes)
	id.ConfigurationSet = aws.ToString(out.ConfigurationSetName)
	if m := out.MailFromAttributes; m != nil {
		id.MailFromDomain, id.MailFromStatus = aws.ToString(m.MailFromDomain), string(m.MailFromDomainStatus)
	}
	if configSet != "" && id.ConfigurationSet != configSet {
		_, err := i.client.PutEmailIdentityConfigurationSetAttributes(ctx, &sesv2.PutEmailIdentityConfigurationSetAttributesInput{
			EmailIdentity: aws.String(domain), ConfigurationSetName: aws.String(configSet)})
		if err != nil {
			return id, fmt.Errorf("ses: associate %s with the configuration set %s: %w", domain, configSet, err)
		}
		id.PreviousConfigurationSet, id.ConfigurationSet, id.Associated = id.ConfigurationSet, configSet, true
	}
	return id, nil
}

func (i *Identities) create(ctx context.Context, domain, tenant, configSet string) (Identity, error) {
	in := &sesv2.CreateEmailIdentityInput{
		EmailIdentity:         aws.String(domain),
		DkimSigningAttributes: &types.DkimSigningAttributes{NextSigningKeyLength: types.DkimSigningKeyLengthRsa2048Bit},
		Tags:                  []types.Tag{{Key: aws.String(TagTenant), Value: aws.String(tenant)}},
	}
	if configSet != "" {
		in.ConfigurationSetName = aws.String(configSet)
	}
	out, err := i.client.CreateEmailIdentity(ctx, in)
	if err != nil {
		return Identity{}, fmt.Errorf("ses: create email identity %s: %w", domain, err)
	}
	id := i.identity(domain, out.VerifiedForSendingStatus, out.DkimAttributes)
	id.Created, id.ConfigurationSet = true, configSet
	return id, nil
}

func (i *Identities) identity(domain string, verified bool, dkim *types.DkimAttributes) Identity {
	id := Identity{Domain: domain, Verified: verified, Region: i.client.Options().Region}
	if dkim == nil {
		return id
	}
	id.DKIMStatus = string(dkim.Status)
	zone := aws.ToString(dkim.SigningHostedZone)
	if zone == "" {
		zone = DefaultDKIMZone
	}
	for _, token := range dkim.Tokens {
		id.DKIMRecords = append(id.DKIMRecords, DNSRecord{Name: token + "._domainkey." + domain, Type: "CNAME", Value: token + "." + zone})
	}
	return id
}
