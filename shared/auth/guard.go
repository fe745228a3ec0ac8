package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/store"
)

// TenantHeader names the tenant of every request.
const TenantHeader = "X-Tenant-Id"

// Caller is who a request is from: always a tenant, and for signed-in routes a user and session.
type Caller struct {
	Scope   store.Scope
	Tenant  store.Tenant
	User    *User
	Session *Session
	// Client is where the request came from (the audit log's address and user agent).
	Client audit.Client
}

type callerKey struct{}

// CallerFrom returns the caller the guard attached to the request. Handlers behind the guard
// always have one; it panics otherwise, since that is a wiring bug, not a user error.
func CallerFrom(ctx context.Context) *Caller {
	c, ok := ctx.Value(callerKey{}).(*Caller)
	if !ok {
		panic("auth: handler is not behind the guard")
	}
	return c
}

// WithCaller returns ctx carrying c (for tests and internal calls).
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// Guard resolves the tenant (X-Tenant-Id) and, where a route needs it, the signed-in user and
// checks a permission. The tenant, session and user are read in one BatchGetItem round trip.
type Guard struct {
	st  *store.Store
	now func() time.Time
}

// NewGuard returns the guard over the store.
func NewGuard(st *store.Store) *Guard { return &Guard{st: st, now: time.Now} }

// Public wraps a handler that needs only a known tenant.
func (g *Guard) Public(h api.HandlerFunc) http.Handler {
	return api.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		scope, err := scopeOf(r)
		if err != nil {
			return err
		}
		tenant, err := g.st.GetTenant(r.Context(), scope)
		if err != nil {
			return tenantError(err)
		}
		if tenant.Suspended {
			return api.ErrSuspended
		}
		return h(w, withCaller(r, &Caller{Scope: scope, Tenant: tenant}))
	})
}

// Require wraps a handler that needs a signed-in, active user of the tenant holding permission
// (the empty permission admits any signed-in user).
func (g *Guard) Require(permission string, h api.HandlerFunc) http.Handler {
	return api.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		caller, err := g.authenticate(r)
		if err != nil {
			return err
		}
		if caller.User.TwoFactorRequired && caller.User.TOTPKey == "" {
			// Required since this session began (the tenant's setting or the role's flag, both
			// read with the session): it ends here rather than lasting out its hours, and the
			// next sign-in leads to enrolment. Only enrolling itself (enrollerOf) still takes it.
			return errSignInToEnrol
		}
		if !caller.User.Can(permission) {
			return api.ErrForbidden
		}
		caller.Client = audit.ClientOf(r)
		return h(w, withCaller(r, caller))
	})
}

// errSignInToEnrol ends a session whose user must now have two-factor sign-in and has not set it up.
var errSignInToEnrol = &api.Error{Status: http.StatusUnauthorized, Message: "Your institution requires two-factor sign-in. Sign in again to set it up."}

// authenticate resolves the signed-in caller of r: tenant, session, user, and the user's role and
// two-factor policy. Whether the policy lets the session go on is the caller's to decide (Require
// refuses a session whose user must set two-factor sign-in up; enrolling accepts it).
func (g *Guard) authenticate(r *http.Request) (*Caller, error) {
	scope, err := scopeOf(r)
	if err != nil {
		return nil, err
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	token = strings.TrimSpace(token)
	userID := tokenUserID(token)
	tenantKey, securityKey := store.Key{PK: scope.Root(), SK: store.SKTenant}, SecurityKey(scope)
	keys := []store.Key{tenantKey}
	var sessionKey, userKey store.Key
	if userID != "" {
		sessionKey, userKey = SessionKey(scope, token), UserKey(scope, userID)
		keys = append(keys, sessionKey, userKey, securityKey)
	}
	items, err := g.st.GetMany(r.Context(), keys...)
	if err != nil {
		return nil, err
	}
	c := &Caller{Scope: scope}
	if ok, err := store.Decode(items, tenantKey, &c.Tenant); err != nil || !ok {
		return nil, tenantError(err)
	}
	if c.Tenant.Suspended {
		return nil, api.ErrSuspended
	}
	if userID == "" {
		return nil, api.ErrUnauthorized
	}
	var s Session
	var u User
	var sec securitySettings
	okS, errS := store.Decode(items, sessionKey, &s)
	okU, errU := store.Decode(items, userKey, &u)
	_, errP := store.Decode(items, securityKey, &sec)
	if err := firstError(errS, errU, errP); err != nil {
		return nil, fmt.Errorf("auth: decode session: %w", err)
	}
	now := g.now()
	if !okS || !okU || s.UserID != u.ID || !now.Before(s.ExpiresAt) || s.Epoch != u.SessionEpoch || !u.Status {
		return nil, api.ErrUnauthorized
	}
	// The role is known only once the user is read: a second round trip, for non-admins only.
	if err := withRole(r.Context(), g.st, scope, &u, sec.RequireTwoFactor); err != nil {
		return nil, err
	}
	c.User, c.Session = &u, &s
	return c, nil
}

// Touch refreshes the session's "last used" when it is older than lastUsedEvery: one write every
// few minutes of use, not one per request. Only the auth group calls it (GET /auth/me, which the
// panel calls whenever it opens): the other groups' IAM roles may not write sessions, and should
// not. A failure only leaves the time older; it is logged.
func (g *Guard) Touch(r *http.Request, s *Session, now time.Time) {
	if now.Sub(s.LastUsedAt) < lastUsedEvery {
		return
	}
	err := g.st.Table.Update("PK", s.PK).Range("SK", s.SK).Set("lastUsedAt", now.UTC()).If("attribute_exists(PK)").Run(r.Context())
	if err != nil && !dynamo.IsCondCheckFailed(err) {
		api.Logger(r.Context()).Warn("refresh session's last use", "error", err.Error())
		return
	}
	s.LastUsedAt = now.UTC()
}

func scopeOf(r *http.Request) (store.Scope, error) {
	scope, err := store.NewScope(strings.TrimSpace(r.Header.Get(TenantHeader)))
	if err != nil {
		return store.Scope{}, api.ErrUnknownTenant
	}
	return scope, nil
}

func tenantError(err error) error {
	if err == nil || store.IsNotFound(err) {
		return api.ErrUnknownTenant
	}
	return err
}

func withCaller(r *http.Request, c *Caller) *http.Request {
	r = api.WithLogger(r, "tenant", c.Scope.Tenant())
	return r.WithContext(WithCaller(r.Context(), c))
}
