// Package newsletter keeps the newsletter's signups and sends its newsletters.
//
// Signups: one per address, a marker item per lower-cased email written in the same transaction
// as the signup record (and its counters), whether the signup comes from the website or the
// public API (Subscribe) or from staff in the panel (the collection's hooks). Double opt-in: a
// signup is stored with subscription "pending", and in the same transaction a confirmation mail
// goes to the outbox with a link to the website's /newsletter/confirm page, whose button
// confirms it (Confirm); its token is stored hashed, in the tenant's partition, for
// ConfirmTTL. A second signup of a pending address sends the confirmation again at most once
// per ResendAfter; of a confirmed one, nothing (the answer is the same). Confirmed signups are
// the collection's CONFIRMED facet: a sparse index the sending job pages through, and the
// counter the dashboard shows. Every newsletter mail carries a one-click List-Unsubscribe link
// (RFC 8058) whose token is the recipient's alone (Unsubscribe).
//
// Newsletters (newsletters.go, send.go): a declared collection whose hooks add the test send and
// the send; sending is a job of the schedule job (collections.Jobber), a page of recipients per
// step, paced and counted against the plan's monthly email allowance.
package newsletter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
)

// Kind is the collection of signups (its partition and its counter).
const Kind = store.CountNewsletterSignups

// HooksName is the name collections.json gives the signups' hooks.
const HooksName = "newsletter"

// Subscription states of a signup.
const (
	Pending      = "pending"
	Confirmed    = "confirmed"
	Unsubscribed = "unsubscribed"
)

// FacetConfirmed is the signups' declared facet of confirmed ones (collections.json).
const FacetConfirmed = "CONFIRMED"

// ConfirmedCounter is the counter of a tenant's confirmed signups: the dashboard's
// newsletterSignupCount.
const ConfirmedCounter = Kind + "#" + FacetConfirmed

// ResendAfter is how long a pending address waits before a new signup sends its confirmation
// again.
const ResendAfter = time.Hour

// MarkerKey is the uniqueness marker of one address in the tenant.
func MarkerKey(scope store.Scope, email string) store.Key {
	return store.Key{PK: scope.Partition("NEWSLETTER_EMAIL"), SK: strings.ToLower(strings.TrimSpace(email))}
}

type marker struct {
	PK     string `dynamo:"PK,hash"`
	SK     string `dynamo:"SK,range"`
	Signup string `dynamo:"signupId"`
	// ConfirmSentAt is when the address's last confirmation mail was queued (RFC 3339).
	ConfirmSentAt string `dynamo:"confirmSentAt,omitempty"`
}

// ErrInvalidEmail answers an address that is not one.
var ErrInvalidEmail = api.FieldError(http.StatusBadRequest, "email", "Please enter a valid email!")

// originKey carries the website origin a signup came through, for its confirmation link.
type originKey struct{}

// Subscribe records a signup for email, as caller (a visitor of the website: no user, their
// address), arriving through the website at origin (scheme://host; "" to use the tenant's
// website address). A new address is a create of the signups collection through the engine:
// the record (pending), its marker, its counter, its audit entry, the confirmation's token and
// its mail are one transaction. A pending address gets its confirmation again when the last
// one is older than ResendAfter; an unsubscribed one goes back to pending with a confirmation;
// a confirmed one changes nothing. created is true only for a new address.
func Subscribe(ctx context.Context, svc *collections.Service, caller *auth.Caller, email, origin string) (created bool, err error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return false, api.FieldError(http.StatusBadRequest, "email", "Email is required!")
	}
	if !formats.Email(email) || !mail.ValidAddress(email) {
		return false, ErrInvalidEmail
	}
	c, ok := svc.Registry()[Kind]
	if !ok {
		return false, fmt.Errorf("newsletter: the %s collection is not declared", Kind)
	}
	ctx = context.WithValue(ctx, originKey{}, origin)
	if caller.Tenant.ID == caller.Scope.Tenant() {
		ctx = context.WithValue(ctx, tenantKey{}, caller.Tenant)
	}
	// A new address first (one transaction, refused by the marker's condition when the address
	// is known), then what a known one needs.
	_, err = svc.Create(ctx, caller, c, "", map[string]any{"email": email, "subscription": Pending, "status": true})
	if err != errTaken {
		return err == nil, err
	}
	st := svc.Store()
	var m marker
	if err = st.Get(ctx, MarkerKey(caller.Scope, email), &m); store.IsNotFound(err) {
		return false, nil // deleted just now
	} else if err != nil {
		return false, err
	}
	rec, err := svc.Load(ctx, caller.Scope, c, m.Signup)
	if err != nil {
		return false, err
	}
	now := time.Now().UTC()
	if sent, _ := time.Parse(time.RFC3339, m.ConfirmSentAt); now.Sub(sent) < ResendAfter {
		return false, nil
	}
	switch toString(rec["subscription"]) {
	case Confirmed:
		return false, nil
	case Unsubscribed:
		_, err = svc.Update(ctx, caller, c, m.Signup, map[string]any{"subscription": Pending, "version": rec["version"]})
		if ae := api.AsError(err); err != nil && ae.Status == http.StatusConflict {
			return false, nil // changed meanwhile: the other write's outcome stands
		}
		return false, err
	}
	// Pending (or none yet: a signup from before double opt-in): send the confirmation again.
	// The website's address when the signup did not come through it (origin): the same rule
	// as the hooks' (config.WebsiteOf).
	cm, err := confirmation(ctx, svc, siteOf(os.Getenv("WEBSITE_URL")), caller.Scope, m.Signup, toString(rec["email"]), now)
	if err != nil {
		return false, err
	}
	mk := MarkerKey(caller.Scope, email)
	tx := st.WriteTx()
	for _, it := range cm.items {
		store.AddToTx(tx, it)
	}
	cond := "attribute_not_exists(confirmSentAt)"
	upd := st.Table.Update("PK", mk.PK).Range("SK", mk.SK).Set("confirmSentAt", now.Format(time.RFC3339))
	if m.ConfirmSentAt != "" {
		upd = upd.If("confirmSentAt = ?", m.ConfirmSentAt)
	} else {
		upd = upd.If(cond)
	}
	store.AddToTx(tx, upd)
	if err := tx.Run(ctx); err != nil {
		if isCondFailed(err) {
			return false, nil // another request sent it just now
		}
		return false, store.Wrap("newsletter: resend confirmation", err)
	}
	return false, nil
}

// AddConfirmed records a signup already confirmed elsewhere (the demo's seed, an imported list),
// with no confirmation mail; created is false when the address already has a signup.
func AddConfirmed(ctx context.Context, svc *collections.Service, caller *auth.Caller, email string) (created bool, err error) {
	c, ok := svc.Registry()[Kind]
	if !ok {
		return false, fmt.Errorf("newsletter: the %s collection is not declared", Kind)
	}
	_, err = svc.Create(ctx, caller, c, "", map[string]any{"email": strings.TrimSpace(email), "subscription": Confirmed, "status": true})
	if err == errTaken {
		return false, nil
	}
	return err == nil, err
}

// Hooks are the rules of the signups and of the newsletters: a staff-created signup takes the
// address's marker (409 when it is taken), an edited address moves it, a delete frees it; a
// signup that becomes pending gets a confirmation mail in its own write; confirming or
// unsubscribing through a token uses the token up in the same write. The website's address
// for links is the tenant's first domain, else WEBSITE_URL with {tenant} (config.WebsiteOf).
func Hooks() map[string]collections.Hooks {
	site := siteOf(os.Getenv("WEBSITE_URL"))
	return map[string]collections.Hooks{HooksName: hooks{site: site}, NewslettersHooks: newsletterHooks{site: site}}
}

type hooks struct {
	site func(tenant store.Tenant) string
}

var errTaken = api.FieldError(http.StatusConflict, "email", "This email is already subscribed!")

func (h hooks) BeforeWrite(ctx context.Context, s *collections.Service, w *collections.Write) error {
	email, _ := w.Rec["email"].(string)
	st, scope := s.Store(), w.Caller.Scope
	if use, ok := ctx.Value(tokenUseKey{}).(tokenUse); ok && w.Old != nil && toString(w.Old["id"]) == use.signup {
		// Confirming or unsubscribing: the token is used up by this very write (a second use
		// of a confirmation finds it gone).
		if use.once {
			w.Also(st.Table.Delete("PK", use.key.PK).Range("SK", use.key.SK).If("attribute_exists(PK)"), errBadToken)
		}
		if use.newsletter != "" && toString(w.Rec["subscription"]) == Unsubscribed && w.Changed("subscription") {
			// Unsubscribing through a newsletter's mail: counted on the newsletter, once per
			// token (marked in the same write).
			w.Also(st.Table.Update("PK", use.key.PK).Range("SK", use.key.SK).Set("countedAt", time.Now().UTC().Format(time.RFC3339)).
				If("attribute_exists(PK) AND attribute_not_exists(countedAt)"), errNotCounted)
			nk := newsletterKey(scope, use.newsletter)
			w.Also(st.Table.Update("PK", nk.PK).Range("SK", nk.SK).Add("unsubscribedCount", 1).If("attribute_exists(PK)"), errNotCounted)
		}
	}
	sub := toString(w.Rec["subscription"])
	confirm := sub == Pending && (w.Old == nil || w.Changed("subscription") || w.Changed("email"))
	if w.Old != nil && !w.Changed("email") {
		if confirm {
			return h.addConfirmation(ctx, s, w, email, false)
		}
		return nil
	}
	if w.Old != nil {
		if old, _ := w.Old["email"].(string); strings.EqualFold(old, email) {
			if confirm {
				return h.addConfirmation(ctx, s, w, email, false)
			}
			return nil
		} else if old != "" {
			ok := MarkerKey(scope, old)
			w.Also(st.Table.Delete("PK", ok.PK).Range("SK", ok.SK), nil)
		}
	}
	if email == "" {
		return nil
	}
	mk := MarkerKey(scope, email)
	m := marker{PK: mk.PK, SK: mk.SK, Signup: toString(w.Rec["id"])}
	if confirm {
		m.ConfirmSentAt = time.Now().UTC().Format(time.RFC3339)
	}
	w.Also(st.Table.Put(m).If("attribute_not_exists(PK)"), errTaken)
	if confirm {
		return h.addConfirmation(ctx, s, w, email, true)
	}
	return nil
}

// addConfirmation queues a signup's confirmation (token and mail) in its write, and, when the
// marker is not written by the write already (markerPut), notes the time on it.
func (h hooks) addConfirmation(ctx context.Context, s *collections.Service, w *collections.Write, email string, markerPut bool) error {
	now := time.Now().UTC()
	cm, err := confirmation(ctx, s, h.site, w.Caller.Scope, toString(w.Rec["id"]), email, now)
	if err != nil {
		return err
	}
	for _, it := range cm.items {
		w.Also(it, nil)
	}
	if !markerPut {
		mk := MarkerKey(w.Caller.Scope, email)
		w.Also(s.Store().Table.Update("PK", mk.PK).Range("SK", mk.SK).Set("confirmSentAt", now.Format(time.RFC3339)), nil)
	}
	return nil
}

func (hooks) BeforeDelete(_ context.Context, s *collections.Service, w *collections.Write) error {
	if email, _ := w.Old["email"].(string); email != "" {
		mk := MarkerKey(w.Caller.Scope, email)
		w.Also(s.Store().Table.Delete("PK", mk.PK).Range("SK", mk.SK), nil)
	}
	return nil
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}

// siteOf is config.WebsiteOf over websiteURL: a tenant's website address.
func siteOf(websiteURL string) func(store.Tenant) string {
	return func(t store.Tenant) string {
		if len(t.Domains) > 0 {
			return "https://" + t.Domains[0]
		}
		return strings.ReplaceAll(websiteURL, "{tenant}", t.ID)
	}
}

func isCondFailed(err error) bool {
	var cf *types.ConditionalCheckFailedException
	var tc *types.TransactionCanceledException
	return errors.As(err, &cf) || errors.As(err, &tc) || dynamo.IsCondCheckFailed(err)
}
