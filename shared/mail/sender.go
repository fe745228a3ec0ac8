package mail

import (
	"context"
	"errors"
	"fmt"
)

// ErrPermanent is wrapped by a send failure that no retry can mend (the provider refused the
// message or its address): the worker gives the mail up at once instead of backing off.
var ErrPermanent = errors.New("mail: refused for good")

// Envelope is a message as a Sender sends it: checked, with the deployment's From and the
// tenant and outbox id it is sent for.
type Envelope struct {
	Message
	// From is the From header: "{institution}" <no-reply@{mail domain}> (Config.From).
	From string
	// Tenant is whose mail it is: SES tags the mail with it, so its bounce or complaint event
	// names the tenant whose suppression list it joins.
	Tenant string
	// ID is the outbox item's id (a ULID): SES's tag and the local Message-ID.
	ID string
}

// Sender sends one mail; the id is the provider's (SES's MessageId), for the logs. An error
// wrapping ErrPermanent is not retried.
type Sender interface {
	Send(ctx context.Context, e Envelope) (id string, err error)
}

// Off is the sender of a deployment without a mail domain: it refuses every mail for good, so
// each is listed as failed (Failed) rather than sent from an address nobody verified.
type Off struct{}

// Send refuses the mail.
func (Off) Send(context.Context, Envelope) (string, error) {
	return "", fmt.Errorf("%w: mail is not set up for this deployment (deploy with -c mailDomain=example.org)", ErrPermanent)
}

// SES tags every mail carries (EmailTags): the bounce and complaint events of a mail carry them
// back (mail.tags), so HandleSESEvent knows whose suppression list an address joins.
// TagCampaign is carried only by bulk mail that names its campaign (Message.Campaign).
const (
	TagTenant   = "tenant"
	TagKind     = "kind"
	TagID       = "outbox"
	TagCampaign = "campaign"
)
