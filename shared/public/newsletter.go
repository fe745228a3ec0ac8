package public

import (
	"context"
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/newsletter"
)

type signupInput struct {
	Email  string `json:"email"`
	Gotcha any    `json:"_gotcha"`
}

// SignupThanks is the one answer to a signup, new or repeated (or trapped), so the body never
// tells anyone whether an address was already subscribed.
const SignupThanks = "Thanks for subscribing!"

// Subscribe signs a visitor's address up to the newsletter: a filled honeypot (gotcha) is
// answered like a success with nothing stored; otherwise the per-client rate limit of the form
// submissions, then one signup per address. created is false for an address already signed up.
func (r *Reader) Subscribe(ctx context.Context, site *Site, client, email string, gotcha any, lim Limit) (created bool, err error) {
	if trapped(gotcha) {
		return true, nil
	}
	if err := r.Allow(ctx, site, client, "newsletter", lim); err != nil {
		return false, err
	}
	visitor := &auth.Caller{Scope: site.Scope, Tenant: site.Tenant, Client: audit.Client{Address: client}}
	return newsletter.Subscribe(ctx, r.signups, visitor, email, site.Origin)
}

// ConfirmSignup confirms the signup of a confirmation token (the website's confirmation page's
// button): a token of another tenant, used or expired is a 400.
func (r *Reader) ConfirmSignup(ctx context.Context, site *Site, client, token string) error {
	visitor := &auth.Caller{Scope: site.Scope, Tenant: site.Tenant, Client: audit.Client{Address: client}}
	return newsletter.Confirm(ctx, r.signups, visitor, token)
}

// Unsubscribe unsubscribes the signup of a newsletter mail's unsubscribe token (its one-click
// POST, or the website's page's button).
func (r *Reader) Unsubscribe(ctx context.Context, site *Site, client, token string) error {
	visitor := &auth.Caller{Scope: site.Scope, Tenant: site.Tenant, Client: audit.Client{Address: client}}
	return newsletter.Unsubscribe(ctx, r.signups, visitor, token)
}

// CheckSignupToken reports whether token is a live token of the site's tenant for purpose
// ("confirm" or "unsubscribe"), so the website's pages show their button only for one.
func (r *Reader) CheckSignupToken(ctx context.Context, site *Site, token, purpose string) error {
	return newsletter.CheckToken(ctx, r.panel, site.Scope, token, purpose)
}

// subscribe serves POST /newsletter-signups {email}: 202 for every address, new or known (a new
// one is stored pending with its confirmation mail; see newsletter.Subscribe).
func (s *Service) subscribe(w http.ResponseWriter, r *http.Request) error {
	var in signupInput
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if _, err := s.read.Subscribe(r.Context(), siteFrom(r.Context()), ClientAddress(r), in.Email, in.Gotcha, s.limit); err != nil {
		return withRetryAfter(w, err)
	}
	// One answer whatever the address's state (new, pending, confirmed): nobody learns from it
	// whether an address is subscribed. The signup waits for its confirmation.
	return api.JSON(w, http.StatusAccepted, api.Envelope{Result: map[string]string{"email": in.Email}, Message: SignupThanks})
}
