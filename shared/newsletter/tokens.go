package newsletter

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
)

// Token lifetimes: a confirmation link is valid for ConfirmTTL, an unsubscribe link (in every
// newsletter mail) for UnsubscribeTTL.
const (
	ConfirmTTL     = 7 * 24 * time.Hour
	UnsubscribeTTL = 366 * 24 * time.Hour
)

// Token purposes (CheckToken).
const (
	PurposeConfirm     = "confirm"
	PurposeUnsubscribe = "unsubscribe"
)

// Website paths of the links.
const (
	ConfirmPath     = "/newsletter/confirm"
	UnsubscribePath = "/newsletter/unsubscribe"
)

// errBadToken answers a token that is unknown (another tenant's, mistyped), used up or expired.
var errBadToken = api.Errorf(http.StatusBadRequest, "This link is invalid or has expired.")

// token is a confirmation or unsubscribe token: only its SHA-256 is stored, in the tenant's
// partition, so a token is unknown to every other tenant. expiresAt is DynamoDB's TTL (which
// removes it some time after); the expiry is checked on use.
type token struct {
	PK        string `dynamo:"PK,hash"`
	SK        string `dynamo:"SK,range"`
	Purpose   string `dynamo:"purpose"`
	Signup    string `dynamo:"signupId"`
	ExpiresAt int64  `dynamo:"expiresAt"`
	// Newsletter is the newsletter whose mail carries an unsubscribe token: an unsubscribe
	// through it is counted there (unsubscribedCount), once: CountedAt marks that it was.
	Newsletter string `dynamo:"newsletterId,omitempty"`
	CountedAt  string `dynamo:"countedAt,omitempty"`
}

func tokenKey(scope store.Scope, hash string) store.Key {
	return store.Key{PK: scope.Partition("NEWSLETTER_TOKEN"), SK: hash}
}

func hashToken(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// newToken returns a fresh token's Put for signup (in newsletter's mail, when not "") and its
// raw value for the link.
func newToken(st *store.Store, scope store.Scope, purpose, signup, newsletter string, now time.Time, ttl time.Duration) (*dynamo.Put, string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	raw := base64.RawURLEncoding.EncodeToString(b)
	k := tokenKey(scope, hashToken(raw))
	return st.Table.Put(token{PK: k.PK, SK: k.SK, Purpose: purpose, Signup: signup, Newsletter: newsletter, ExpiresAt: now.Add(ttl).Unix()}), raw
}

// tokenUse is a confirmation or unsubscribe in progress, for the signup's hooks.
type tokenUse struct {
	key    store.Key
	signup string
	once   bool
	// newsletter, when set, is the newsletter to count the unsubscribe on (its token's, not
	// counted yet).
	newsletter string
}

// errNotCounted is the conflict of an unsubscribe's count: the newsletter is gone (deleted), or
// the token was counted meanwhile. The unsubscribe is then written again without it.
var errNotCounted = &api.Error{Status: http.StatusConflict, Message: "The unsubscribe could not be counted."}

type tokenUseKey struct{}

// tenantKey carries the tenant's details a request read already (a visitor's signup), so its
// confirmation does not read them again.
type tenantKey struct{}

// sender is who a tenant's mail is from, and where its website is.
type sender struct {
	name, replyTo, site string
}

func senderOf(ctx context.Context, st *store.Store, scope store.Scope, site func(store.Tenant) string) (sender, error) {
	t, ok := ctx.Value(tenantKey{}).(store.Tenant)
	if !ok || t.ID != scope.Tenant() {
		var err error
		if t, err = st.GetTenant(ctx, scope); err != nil {
			return sender{}, err
		}
	}
	var footer struct {
		ContactEmail string `dynamo:"contactEmail"`
	}
	if err := st.Get(ctx, store.Key{PK: scope.Root(), SK: "FOOTER"}, &footer); err != nil && !store.IsNotFound(err) {
		return sender{}, err
	}
	out := sender{name: t.Name, site: site(t)}
	if mail.ValidAddress(footer.ContactEmail) {
		out.replyTo = footer.ContactEmail
	}
	return out, nil
}

// link is path?token=raw on site, or on origin when the request came through the website.
func link(ctx context.Context, site, path, raw string) string {
	if o, _ := ctx.Value(originKey{}).(string); o != "" {
		site = o
	}
	return strings.TrimRight(site, "/") + path + "?token=" + url.QueryEscape(raw)
}

type confirmItems struct{ items []any }

// confirmation is the token and mail of a signup's confirmation.
func confirmation(ctx context.Context, svc *collections.Service, site func(store.Tenant) string, scope store.Scope, signup, email string, now time.Time) (confirmItems, error) {
	st := svc.Store()
	from, err := senderOf(ctx, st, scope, site)
	if err != nil {
		return confirmItems{}, err
	}
	put, raw := newToken(st, scope, PurposeConfirm, signup, "", now, ConfirmTTL)
	msg := mail.Message{To: email, FromName: from.name, ReplyTo: from.replyTo, Kind: mail.KindNewsletterConfirm,
		Subject: "Confirm your subscription to the newsletter of " + from.name}
	if err := msg.Render("newsletter-confirm", mail.Notice{LinkURL: link(ctx, from.site, ConfirmPath, raw)}); err != nil {
		return confirmItems{}, err
	}
	out, err := mail.Enqueue(st, scope, msg)
	if errors.Is(err, mail.ErrInvalid) {
		return confirmItems{}, ErrInvalidEmail
	} else if err != nil {
		return confirmItems{}, err
	}
	return confirmItems{items: []any{put, out.Put}}, nil
}

// Confirm confirms the signup of a confirmation token, as caller (a visitor of the website),
// and uses the token up in the same write. A token that is unknown in the tenant, used or
// expired is a 400 with one message for all.
func Confirm(ctx context.Context, svc *collections.Service, caller *auth.Caller, raw string) error {
	return useToken(ctx, svc, caller, raw, PurposeConfirm, Confirmed, true)
}

// Unsubscribe unsubscribes the signup of an unsubscribe token (a newsletter mail's link, posted
// by a mail client's one-click button or the website's page). It can be used again (nothing
// changes then) until it expires.
func Unsubscribe(ctx context.Context, svc *collections.Service, caller *auth.Caller, raw string) error {
	return useToken(ctx, svc, caller, raw, PurposeUnsubscribe, Unsubscribed, false)
}

// CheckToken reports whether raw is a live token of the tenant for the page that uses it
// (purpose "confirm" or "unsubscribe"): the website's GET pages show their button only then.
func CheckToken(ctx context.Context, st *store.Store, scope store.Scope, raw, purpose string) error {
	_, err := readToken(ctx, st, scope, raw, purpose)
	return err
}

func readToken(ctx context.Context, st *store.Store, scope store.Scope, raw, purpose string) (token, error) {
	if raw == "" || len(raw) > 100 {
		return token{}, errBadToken
	}
	var tk token
	err := st.Get(ctx, tokenKey(scope, hashToken(raw)), &tk)
	switch {
	case store.IsNotFound(err):
		return token{}, errBadToken
	case err != nil:
		return token{}, err
	case tk.Purpose != purpose || time.Now().Unix() >= tk.ExpiresAt:
		return token{}, errBadToken
	}
	return tk, nil
}

func useToken(ctx context.Context, svc *collections.Service, caller *auth.Caller, raw, purpose, to string, once bool) error {
	tk, err := readToken(ctx, svc.Store(), caller.Scope, raw, purpose)
	if err != nil {
		return err
	}
	c := svc.Registry()[Kind]
	rec, err := svc.Load(ctx, caller.Scope, c, tk.Signup)
	if api.AsError(err).Status == http.StatusNotFound {
		return errBadToken // the signup was deleted since
	} else if err != nil {
		return err
	}
	if toString(rec["subscription"]) == to {
		return nil
	}
	use := tokenUse{key: store.Key{PK: tk.PK, SK: tk.SK}, signup: tk.Signup, once: once}
	if to == Unsubscribed && tk.Newsletter != "" && tk.CountedAt == "" {
		use.newsletter = tk.Newsletter
	}
	body := map[string]any{"subscription": to, "version": rec["version"]}
	_, err = svc.Update(context.WithValue(ctx, tokenUseKey{}, use), caller, c, tk.Signup, body)
	if err == errNotCounted {
		// Nothing was written: the unsubscribe alone (it never waits on its count).
		use.newsletter = ""
		_, err = svc.Update(context.WithValue(ctx, tokenUseKey{}, use), caller, c, tk.Signup, body)
	}
	return err
}

// TokenKey is the key of the stored token of raw (its hash) in the tenant.
func TokenKey(scope store.Scope, raw string) store.Key { return tokenKey(scope, hashToken(raw)) }
