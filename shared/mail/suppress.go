package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

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

type suppressed struct {
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
	var s suppressed
	err := st.Get(ctx, suppressionKey(scope, address), &s)
	if store.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Suppress puts address on the tenant's suppression list (again: the latest reason wins).
func Suppress(ctx context.Context, st *store.Store, scope store.Scope, address, reason, detail string, at time.Time) error {
	put, err := suppression(st, scope, address, reason, detail, at)
	if err != nil {
		return err
	}
	return store.Wrap("suppress address", put.Run(ctx))
}

// suppression is the Put of address's entry on the tenant's suppression list.
func suppression(st *store.Store, scope store.Scope, address, reason, detail string, at time.Time) (*dynamo.Put, error) {
	if _, err := ParseAddress(strings.TrimSpace(address)); err != nil {
		return nil, fmt.Errorf("%w: suppress: %w", ErrInvalid, err)
	}
	k := suppressionKey(scope, address)
	if len(detail) > 500 {
		detail = detail[:500]
	}
	return st.Table.Put(suppressed{PK: k.PK, SK: k.SK, Reason: reason, Detail: detail, At: at.UTC().Format(time.RFC3339)}), nil
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
	// Counted names the campaign whose count the event added to (Events.Count).
	Counted string `json:"counted,omitempty"`
	// Ignored says why nothing was suppressed (a transient bounce, a delivery, no tenant tag, an
	// event handled already).
	Ignored string `json:"ignored,omitempty"`
}

// CampaignCounter is what a bounce or complaint (reason: ReasonBounce, ReasonComplaint) of a
// campaign's mail adds to the campaign's record: an Update conditioned on the record existing (a
// newsletter's bouncedCount), or nil when the campaign counts nothing.
type CampaignCounter func(scope store.Scope, campaign, reason string) *dynamo.Update

// Events handles SES's bounce and complaint events (Handle).
type Events struct {
	Store *store.Store
	Log   *slog.Logger
	// Count, when set, counts the event of a campaign's mail (Message.Campaign) on what sent it.
	Count CampaignCounter
}

// HandleSESEvent is Events{Store: st, Log: log}.Handle: suppression only, counting nothing.
func HandleSESEvent(ctx context.Context, st *store.Store, raw []byte, log *slog.Logger) (EventResult, error) {
	return Events{Store: st, Log: log}.Handle(ctx, raw)
}

// EventPartition holds the tenant's handled SES events of campaign mail (SK: the mail's outbox
// id, else SES's message id, and the reason), each kept EventMemory so that a second delivery of
// the same event counts nothing.
func EventPartition(scope store.Scope) string { return scope.Partition("MAILEVENT") }

// EventMemory is how long a handled event is remembered: EventBridge retries a delivery for up to
// 24 hours, a Lambda's asynchronous retries for 6.
const EventMemory = 14 * 24 * time.Hour

// maxEventRecipients bounds the addresses one event suppresses in a transaction (a mail of ours
// has one recipient).
const maxEventRecipients = 50

type handledEvent struct {
	PK        string `dynamo:"PK,hash"`
	SK        string `dynamo:"SK,range"`
	MessageID string `dynamo:"messageId,omitempty"`
	ExpiresAt int64  `dynamo:"expiresAt"`
}

// Handle reads one SES bounce or complaint event (raw: EventBridge's event, whose "detail" is
// SES's record, or the record itself as SNS carries it) and puts the addresses it names on the
// suppression list of the tenant the mail was sent for (its "tenant" tag), and of no other
// tenant. A permanent bounce and a complaint suppress; a transient bounce (a full mailbox) and
// every other event are ignored. A malformed event is an error (the caller logs it; retrying
// cannot mend it).
//
// A campaign's mail (its "campaign" tag) is also counted on the campaign (Count), exactly once
// per mail and reason however often the event is delivered: the suppression entries, the count
// and a record of the handled event (keyed by the mail's outbox id, conditioned on its absence)
// are one transaction, so a repeat finds the record and changes nothing. A campaign whose record
// is gone (a deleted newsletter) is not counted; the address is suppressed all the same.
func (e Events) Handle(ctx context.Context, raw []byte) (EventResult, error) {
	if e.Log == nil {
		e.Log = slog.New(slog.DiscardHandler)
	}
	log := e.Log
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
	if campaign := oneTag(ev.Mail.Tags, TagCampaign); e.Count != nil && ValidCampaign(campaign) {
		if count := e.Count(scope, campaign, reason); count != nil {
			return e.handleCounted(ctx, scope, ev, addresses, reason, detail, campaign, count)
		}
	}
	res := EventResult{Tenant: scope.Tenant()}
	var errs []error
	for _, a := range addresses {
		if err := Suppress(ctx, e.Store, scope, a, reason, detail, time.Now()); err != nil {
			errs = append(errs, err)
			continue
		}
		res.Suppressed = append(res.Suppressed, strings.ToLower(a))
		log.Info("mail: address suppressed", "tenant", scope.Tenant(), "reason", reason, "detail", detail, "messageId", ev.Mail.MessageID)
	}
	return res, errors.Join(errs...)
}

// handleCounted suppresses a campaign mail's addresses and counts the event on its campaign, in
// one transaction with the record of the handled event (see Handle).
func (e Events) handleCounted(ctx context.Context, scope store.Scope, ev sesEvent, addresses []string, reason, detail, campaign string, count *dynamo.Update) (EventResult, error) {
	mailID := oneTag(ev.Mail.Tags, TagID)
	if mailID == "" {
		mailID = ev.Mail.MessageID
	}
	if mailID == "" || len(mailID) > 200 {
		return EventResult{}, errors.New("mail: ses event: a campaign's mail without an outbox tag or message id")
	}
	res := EventResult{Tenant: scope.Tenant()}
	now := time.Now()
	var puts []*dynamo.Put
	var errs []error
	for _, a := range addresses {
		if len(puts) == maxEventRecipients {
			errs = append(errs, fmt.Errorf("mail: ses event: more than %d recipients", maxEventRecipients))
			break
		}
		put, err := suppression(e.Store, scope, a, reason, detail, now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		puts = append(puts, put)
		res.Suppressed = append(res.Suppressed, strings.ToLower(strings.TrimSpace(a)))
	}
	handled := handledEvent{PK: EventPartition(scope), SK: mailID + "#" + reason, MessageID: ev.Mail.MessageID, ExpiresAt: now.Add(EventMemory).Unix()}
	for _, withCount := range []bool{true, false} {
		tx := e.Store.WriteTx()
		tx.Put(e.Store.Table.Put(handled).If("attribute_not_exists(PK)"))
		for _, p := range puts {
			tx.Put(p)
		}
		if withCount {
			tx.Update(count)
		}
		err := tx.Run(ctx)
		switch {
		case err == nil:
			if withCount {
				res.Counted = campaign
			}
			e.Log.Info("mail: campaign mail event handled", "tenant", scope.Tenant(), "reason", reason, "detail", detail,
				"campaign", campaign, "counted", withCount, "messageId", ev.Mail.MessageID)
			return res, errors.Join(errs...)
		case store.CondFailedAt(err, 0):
			// Delivered again: the first delivery suppressed and counted.
			return EventResult{Tenant: scope.Tenant(), Ignored: "handled already"}, errors.Join(errs...)
		case withCount && store.CondFailedAt(err, 1+len(puts)):
			continue // the campaign's record is gone: suppress without counting
		default:
			return EventResult{}, errors.Join(append(errs, store.Wrap("mail: ses event", err))...)
		}
	}
	return EventResult{}, errors.New("mail: ses event: not handled") // unreachable: the second try has no count to fail
}

// oneTag is the value of an SES tag the mail carries once, or "".
func oneTag(tags map[string][]string, name string) string {
	if v := tags[name]; len(v) == 1 {
		return v[0]
	}
	return ""
}
