package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/store"
)

// SuppressionPartition is the tenant's suppression list: one item per address (SK: the address
// lower-cased). Bulk mail is never sent to an address on it.
func SuppressionPartition(scope store.Scope) string { return scope.Partition("MAILSUPPRESS") }

// Reasons an address is suppressed.
const (
	ReasonBounce    = "bounce"
	ReasonComplaint = "complaint"
)

type suppression struct {
	PK     string `dynamo:"PK,hash"`
	SK     string `dynamo:"SK,range"`
	Reason string `dynamo:"reason"`
	Detail string `dynamo:"detail,omitempty"`
	At     string `dynamo:"at"`
}

func suppressionKey(scope store.Scope, address string) store.Key {
	return store.Key{PK: SuppressionPartition(scope), SK: strings.ToLower(strings.TrimSpace(address))}
}

// Suppressed reports whether address is on the tenant's suppression list (one strongly
// consistent GetItem). Bulk mail checks it before every send; a password reset ignores it.
func Suppressed(ctx context.Context, st *store.Store, scope store.Scope, address string) (bool, error) {
	var s suppression
	err := st.Get(ctx, suppressionKey(scope, address), &s)
	if store.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Suppress puts address on the tenant's suppression list (again: the latest reason wins).
func Suppress(ctx context.Context, st *store.Store, scope store.Scope, address, reason, detail string, at time.Time) error {
	if _, err := ParseAddress(strings.TrimSpace(address)); err != nil {
		return fmt.Errorf("%w: suppress: %w", ErrInvalid, err)
	}
	k := suppressionKey(scope, address)
	if len(detail) > 500 {
		detail = detail[:500]
	}
	err := st.Table.Put(suppression{PK: k.PK, SK: k.SK, Reason: reason, Detail: detail, At: at.UTC().Format(time.RFC3339)}).Run(ctx)
	return store.Wrap("suppress address", err)
}

// sesEvent is an SES event-publishing record (a configuration set's event destination), as
// EventBridge delivers it in "detail" (SNS: the message itself).
type sesEvent struct {
	EventType string `json:"eventType"`
	Mail      struct {
		MessageID string              `json:"messageId"`
		Tags      map[string][]string `json:"tags"`
	} `json:"mail"`
	Bounce *struct {
		BounceType        string `json:"bounceType"`
		BounceSubType     string `json:"bounceSubType"`
		BouncedRecipients []struct {
			EmailAddress   string `json:"emailAddress"`
			DiagnosticCode string `json:"diagnosticCode"`
		} `json:"bouncedRecipients"`
	} `json:"bounce"`
	Complaint *struct {
		ComplaintFeedbackType string `json:"complaintFeedbackType"`
		ComplainedRecipients  []struct {
			EmailAddress string `json:"emailAddress"`
		} `json:"complainedRecipients"`
	} `json:"complaint"`
}

// EventResult says what one SES event did.
type EventResult struct {
	Tenant     string   `json:"tenant,omitempty"`
	Suppressed []string `json:"suppressed,omitempty"`
	// Ignored says why nothing was suppressed (a transient bounce, a delivery, no tenant tag).
	Ignored string `json:"ignored,omitempty"`
}

// HandleSESEvent reads one SES bounce or complaint event (raw: EventBridge's event, whose
// "detail" is SES's record, or the record itself as SNS carries it) and puts the addresses it
// names on the suppression list of the tenant the mail was sent for (its "tenant" tag), and of
// no other tenant. A permanent bounce and a complaint suppress; a transient bounce (a full
// mailbox) and every other event are ignored. A malformed event is an error (the caller logs it;
// retrying cannot mend it).
func HandleSESEvent(ctx context.Context, st *store.Store, raw []byte, log *slog.Logger) (EventResult, error) {
	var envelope struct {
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(raw, &envelope); err != nil {
		return EventResult{}, fmt.Errorf("mail: ses event: %w", err)
	}
	if len(envelope.Detail) > 0 {
		raw = envelope.Detail
	}
	var ev sesEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		return EventResult{}, fmt.Errorf("mail: ses event: %w", err)
	}
	var addresses []string
	var reason, detail string
	switch {
	case ev.EventType == "Bounce" && ev.Bounce != nil:
		if ev.Bounce.BounceType != "Permanent" {
			return EventResult{Ignored: "a " + strings.ToLower(ev.Bounce.BounceType) + " bounce"}, nil
		}
		reason, detail = ReasonBounce, ev.Bounce.BounceSubType
		for _, r := range ev.Bounce.BouncedRecipients {
			addresses = append(addresses, r.EmailAddress)
			if r.DiagnosticCode != "" {
				detail = ev.Bounce.BounceSubType + ": " + r.DiagnosticCode
			}
		}
	case ev.EventType == "Complaint" && ev.Complaint != nil:
		reason, detail = ReasonComplaint, ev.Complaint.ComplaintFeedbackType
		for _, r := range ev.Complaint.ComplainedRecipients {
			addresses = append(addresses, r.EmailAddress)
		}
	case ev.EventType == "":
		return EventResult{}, errors.New("mail: ses event: no eventType")
	default:
		return EventResult{Ignored: "a " + ev.EventType + " event"}, nil
	}
	tags := ev.Mail.Tags[TagTenant]
	if len(tags) != 1 {
		log.Warn("mail: ses event without a tenant tag: nothing suppressed", "eventType", ev.EventType, "messageId", ev.Mail.MessageID)
		return EventResult{Ignored: "no tenant tag"}, nil
	}
	scope, err := store.NewScope(tags[0])
	if err != nil {
		return EventResult{}, fmt.Errorf("mail: ses event: %w", err)
	}
	res := EventResult{Tenant: scope.Tenant()}
	var errs []error
	for _, a := range addresses {
		if err := Suppress(ctx, st, scope, a, reason, detail, time.Now()); err != nil {
			errs = append(errs, err)
			continue
		}
		res.Suppressed = append(res.Suppressed, strings.ToLower(a))
		log.Info("mail: address suppressed", "tenant", scope.Tenant(), "reason", reason, "detail", detail, "messageId", ev.Mail.MessageID)
	}
	return res, errors.Join(errs...)
}
