package auth

import (
	"context"

	"github.com/guregu/dynamo/v2"
	"net/http"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
)

// Service serves /auth/*: login, passcode login, the caller's profile, logout and tenant details.
type Service struct {
	st     *store.Store
	users  *Users
	guard  *Guard
	cfg    config.Config
	sealer secrets.Sealer
	now    func() time.Time
	// nudger is told about reset mail after its commit (WithMail); panelURL is where reset
	// links point when the deployment says (WithPanelURL), else the request's host.
	nudger   mail.Nudger
	panelURL string
}

// NewService returns the auth service; sealer keeps the two-factor keys, rec records its writes
// of users (collections.NewUserRecorder: the authmodule package links them).
func NewService(st *store.Store, guard *Guard, cfg config.Config, sealer secrets.Sealer, rec Recorder) *Service {
	return &Service{st: st, users: NewUsers(st, rec), guard: guard, cfg: cfg, sealer: sealer, now: time.Now}
}

// Register declares the routes of /auth under base.
func (s *Service) Register(mux api.Mux, base string) {
	mux.Handle("POST "+base+"/auth/login", s.guard.Public(s.login))
	mux.Handle("POST "+base+"/auth/passcode", s.guard.Public(s.passcodeLogin))
	mux.Handle("GET "+base+"/auth/tenant-info", api.HandlerFunc(s.tenantInfo))
	mux.Handle("GET "+base+"/auth/me", s.guard.Require("", s.me))
	mux.Handle("PATCH "+base+"/auth/me", s.guard.Require("", s.updateMe))
	mux.Handle("POST "+base+"/auth/logout", s.guard.Require("", s.logout))
	s.registerTwoFactor(mux, base)
	s.registerSessions(mux, base)
	s.registerReset(mux, base)
}

// UserView is a user as the API shows it: no secrets, with its effective permission codes.
type UserView struct {
	*User
	Permissions []string      `json:"permissions"`
	TwoFactor   TwoFactorView `json:"twoFactor"`
}

// TwoFactorView is the user's two-factor state as the panel shows it (never a key).
type TwoFactorView struct {
	Enabled           bool `json:"enabled"`
	Required          bool `json:"required"`
	RecoveryCodesLeft int  `json:"recoveryCodesLeft"`
}

// View returns the API view of u.
func View(u *User) UserView {
	return UserView{User: u, Permissions: u.Permissions(),
		TwoFactor: TwoFactorView{Enabled: u.TOTPKey != "", Required: u.TwoFactorRequired, RecoveryCodesLeft: len(u.RecoveryHashes)}}
}

type loginResult struct {
	User  UserView `json:"user"`
	Token string   `json:"token"`
}

func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Username) == "" || in.Password == "" {
		return api.Errorf(http.StatusBadRequest, msgFillDetails)
	}
	return s.signIn(w, r, in.Username, func(u *User) bool { return VerifySecret(u.PasswordHash, in.Password) })
}

// passcodeLogin signs in with the user's 6-digit passcode (set in My Profile or by cmsctl). It
// shares the password's lockout counter, so the two cannot be combined to guess faster.
func (s *Service) passcodeLogin(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Username string `json:"username"`
		Passcode string `json:"passcode"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Username) == "" || in.Passcode == "" {
		return api.Errorf(http.StatusBadRequest, msgFillDetails)
	}
	if !IsPasscodeShaped(in.Passcode) {
		return api.Errorf(http.StatusBadRequest, msgPasscodeShape)
	}
	return s.signIn(w, r, in.Username, func(u *User) bool { return VerifySecret(u.PasscodeHash, in.Passcode) })
}

// signIn checks the tenant's user against check. Order matters: an overlong or malformed username
// is refused before it becomes a key (DynamoDB refuses keys over 1,024 bytes with a 500-worthy
// error), and an attempt is reserved before the secret is hashed, so parallel guesses cannot
// outrun the lockout.
func (s *Service) signIn(w http.ResponseWriter, r *http.Request, username string, check func(*User) bool) error {
	ctx, scope, now := r.Context(), CallerFrom(r.Context()).Scope, s.now()
	username = strings.TrimSpace(username)
	if ValidateUsername(username) != "" {
		// No account can have this name (every path that creates or renames one checks it).
		return api.Errorf(http.StatusUnauthorized, msgBadLogin)
	}
	ak := attemptKey(scope, username)
	if err := reserveAttempt(ctx, s.st, ak, now); err != nil {
		return err
	}
	var marker usernameMarker
	err := s.st.Get(ctx, UsernameKey(scope, username), &marker)
	if err != nil && !store.IsNotFound(err) {
		return err
	}
	found := err == nil
	var user User
	if found {
		if user, err = s.users.Get(ctx, scope, marker.UserID); err != nil && !store.IsNotFound(err) {
			return err
		}
		found = err == nil
	}
	if !found {
		VerifySecret(dummyHash(), "x") // same cost as a wrong password
	}
	client := audit.ClientOf(r)
	failed := audit.Entry{At: now, Username: username, Action: audit.ActionLoginFailed, Client: client}
	if found {
		failed.UserID = user.ID
	}
	if !found || !check(&user) {
		refusal := api.Errorf(http.StatusUnauthorized, msgBadLogin)
		// Both kinds of refusal take from the audit budget, so the time they take tells no
		// username that exists from one that does not; only an unknown one is bounded by it.
		within, err := withinAuditBudget(ctx, s.st, scope, client, now)
		if err != nil {
			return err
		}
		if !found && !within {
			return refusal
		}
		return s.refuse(ctx, scope, failed, refusal)
	}
	if !user.Status {
		return s.refuse(ctx, scope, failed, api.Errorf(http.StatusForbidden, msgDisabled))
	}
	// The answer shows the permissions the panel will be checked against: the role's too. The
	// same read says whether the tenant requires a second step of this user.
	if err := withPolicy(ctx, s.st, scope, &user); err != nil {
		return err
	}
	// With two-factor sign-in (on, or required and not yet set up) the password alone yields no
	// session, only a short-lived challenge; the attempt window stays open until the second step
	// succeeds, so wrong codes count with wrong passwords.
	if user.TOTPKey != "" {
		return s.challenge(w, ctx, scope, &user, purposeCode, now, msgEnterCode)
	}
	if user.TwoFactorRequired {
		return s.challenge(w, ctx, scope, &user, purposeEnrol, now, msgMustEnrol)
	}
	token, err := s.startSession(ctx, s.st.WriteTx(), scope, &user, now, client)
	if err != nil {
		return store.Wrap("put session", err)
	}
	return s.signedIn(w, ctx, ak, &user, token)
}

// signedIn ends the attempt window and answers the new session.
func (s *Service) signedIn(w http.ResponseWriter, ctx context.Context, ak store.Key, u *User, token string) error {
	if err := clearAttempts(ctx, s.st, ak); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: loginResult{User: View(u), Token: token}, Message: "Logged in Successfully!"})
}

// startSession stores a new session of u and the sign-in's audit entry, in tx (which may carry
// what the sign-in spends: a code's step, a recovery code, the challenge).
func (s *Service) startSession(ctx context.Context, tx *dynamo.WriteTx, scope store.Scope, u *User, now time.Time, client audit.Client) (string, error) {
	token := newToken(u.ID)
	k := SessionKey(scope, token)
	sess := Session{PK: k.PK, SK: k.SK, UserID: u.ID, Epoch: u.SessionEpoch, CreatedAt: now.UTC(), ExpiresAt: now.Add(s.cfg.SessionTTL),
		LastUsedAt: now.UTC(), Client: client.UserAgent, Address: client.Address}
	entry := audit.Item(scope, audit.Entry{At: now, UserID: u.ID, Username: u.Username, Action: audit.ActionLogin, Client: client})
	if err := tx.Put(s.st.Table.Put(sess)).Put(s.st.Table.Put(entry)).Run(ctx); err != nil {
		return "", err
	}
	return token, nil
}

// refuse records a refused sign-in in the audit log, then answers refusal. The entry is the only
// thing the refusal writes (the attempt was counted before the secret was checked).
func (s *Service) refuse(ctx context.Context, scope store.Scope, e audit.Entry, refusal error) error {
	if err := s.st.Table.Put(audit.Item(scope, e)).Run(ctx); err != nil {
		return store.Wrap("audit a refused sign-in", err)
	}
	return refusal
}

func (s *Service) me(w http.ResponseWriter, r *http.Request) error {
	c := CallerFrom(r.Context())
	s.guard.Touch(r, c.Session, s.now())
	return api.OK(w, View(c.User))
}

func (s *Service) logout(w http.ResponseWriter, r *http.Request) error {
	// Logout takes no fields; a body sent anyway must be an empty object, like every route's.
	if err := api.DecodeOptional(r, &struct{}{}); err != nil {
		return err
	}
	c := CallerFrom(r.Context())
	entry := audit.Item(c.Scope, audit.Entry{At: s.now(), UserID: c.User.ID, Username: c.User.Username, Action: audit.ActionLogout, Client: c.Client})
	err := s.st.WriteTx().Delete(s.st.Table.Delete("PK", c.Session.PK).Range("SK", c.Session.SK)).Put(s.st.Table.Put(entry)).Run(r.Context())
	if err != nil {
		return store.Wrap("delete session", err)
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: "Logged out"})
}

// tenantInfo is the tenant's details with its theme settings and SEO defaults as saved (SPEC §1:
// themeSetting, seoSetting), all three read in one BatchGetItem. It is public: the login screen
// shows the tenant's name and logo.
type tenantInfo struct {
	store.Tenant
	ThemeSetting map[string]any `json:"themeSetting"`
	SEOSetting   map[string]any `json:"seoSetting"`
	// WebsiteURL is where the institution's website is (the panel's "View on site" and
	// "Preview"); "" until it has an address.
	WebsiteURL string `json:"websiteUrl"`
}

func (s *Service) tenantInfo(w http.ResponseWriter, r *http.Request) error {
	scope, err := scopeOf(r)
	if err != nil {
		return err
	}
	root := scope.Root()
	tk, thk, sk := store.Key{PK: root, SK: store.SKTenant}, store.Key{PK: root, SK: store.SKTheme}, store.Key{PK: root, SK: store.SKSEO}
	items, err := s.st.GetMany(r.Context(), tk, thk, sk)
	if err != nil {
		return err
	}
	var info tenantInfo
	if ok, err := store.Decode(items, tk, &info.Tenant); err != nil || !ok {
		return tenantError(err)
	}
	for k, out := range map[store.Key]*map[string]any{thk: &info.ThemeSetting, sk: &info.SEOSetting} {
		if _, err := store.Decode(items, k, out); err != nil {
			return err
		}
		delete(*out, "PK")
		delete(*out, "SK")
	}
	info.WebsiteURL = s.cfg.WebsiteOf(scope.Tenant(), info.Domains)
	return api.JSON(w, http.StatusOK, api.Envelope{Result: info, ObjectURLPrefix: s.cfg.ObjectURLPrefix + scope.Tenant() + "/"})
}
