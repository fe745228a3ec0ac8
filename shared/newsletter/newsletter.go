// Package newsletter keeps one signup per address: a marker item per lower-cased email, written
// in the same transaction as the signup record (and its counter), whether the signup comes from
// the public website (Subscribe) or from staff in the panel (the collection's hooks).
package newsletter

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/store"
)

// Kind is the collection of signups (its partition and its counter, the dashboard's
// newsletterSignupCount).
const Kind = store.CountNewsletterSignups

// HooksName is the name collections.json gives the signups' hooks.
const HooksName = "newsletter"

// MarkerKey is the uniqueness marker of one address in the tenant.
func MarkerKey(scope store.Scope, email string) store.Key {
	return store.Key{PK: scope.Partition("NEWSLETTER_EMAIL"), SK: strings.ToLower(strings.TrimSpace(email))}
}

type marker struct {
	PK     string `dynamo:"PK,hash"`
	SK     string `dynamo:"SK,range"`
	Signup string `dynamo:"signupId"`
}

// ErrInvalidEmail answers an address that is not one.
var ErrInvalidEmail = api.FieldError(http.StatusBadRequest, "email", "Please enter a valid email!")

// Subscribe records a signup for email, as caller (a visitor of the website: no user, their
// address), unless the address already has one. It is a create of the signups collection
// through the engine, so the record, its marker (the hooks below), its index attributes, its
// counter and its audit entry are one transaction; created is false when the marker was already
// there (nothing is written then).
func Subscribe(ctx context.Context, svc *collections.Service, caller *auth.Caller, email string) (created bool, err error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return false, api.FieldError(http.StatusBadRequest, "email", "Email is required!")
	}
	if !formats.Email(email) {
		return false, ErrInvalidEmail
	}
	c, ok := svc.Registry()[Kind]
	if !ok {
		return false, fmt.Errorf("newsletter: the %s collection is not declared", Kind)
	}
	_, err = svc.Create(ctx, caller, c, "", map[string]any{"email": email, "status": true})
	if err == errTaken {
		return false, nil
	}
	return err == nil, err
}

// Hooks are the signups collection's rules in the panel: a staff-created signup takes the
// address's marker (409 when it is taken), an edited address moves it, a delete frees it.
func Hooks() map[string]collections.Hooks { return map[string]collections.Hooks{HooksName: hooks{}} }

type hooks struct{}

var errTaken = api.FieldError(http.StatusConflict, "email", "This email is already subscribed!")

func (hooks) BeforeWrite(_ context.Context, s *collections.Service, w *collections.Write) error {
	email, _ := w.Rec["email"].(string)
	if w.Old != nil && !w.Changed("email") {
		return nil
	}
	st, scope := s.Store(), w.Caller.Scope
	if w.Old != nil {
		if old, _ := w.Old["email"].(string); strings.EqualFold(old, email) {
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
	w.Also(st.Table.Put(marker{PK: mk.PK, SK: mk.SK, Signup: toString(w.Rec["id"])}).If("attribute_not_exists(PK)"), errTaken)
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
