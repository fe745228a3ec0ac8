package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
)

// Two-factor sign-in (TOTP, RFC 6238). A user who has it, or whom the tenant requires to have it,
// gets a challenge instead of a session from the password (or passcode); the challenge is spent
// with a code or a recovery code (purposeCode), or by setting two-factor sign-in up (purposeEnrol).
// Each step of the sign-in is counted in the same attempt window as passwords.

const (
	msgEnterCode        = "Enter the code from your authenticator app."
	msgMustEnrol        = "Your institution requires two-factor sign-in. Set it up to continue."
	msgBadCode          = "The code is not valid. Try again."
	msgChallengeExpired = "Your sign-in has expired. Please sign in again."
	msgTwoFactorOn      = "Two-factor sign-in is on."
	msgTwoFactorOff     = "Two-factor sign-in is off."
	msgAlreadyOn        = "Two-factor sign-in is already on."
	msgNotSetUp         = "Start the set-up again: no key is waiting to be confirmed."
	msgRequired         = "Your institution requires two-factor sign-in."
	msgWrongPassword    = "The password is not correct."
	msgNewCodes         = "New recovery codes made. The old ones no longer work."
)

const (
	purposeCode   = "code"
	purposeEnrol  = "enrol"
	kindChallenge = "CHALLENGE"
	challengeTTL  = 5 * time.Minute
)

// challengeItem is a sign-in waiting for its second step, keyed like a session by its user and
// the hash of its token.
type challengeItem struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	UserID    string    `dynamo:"userId"`
	Username  string    `dynamo:"username"`
	Purpose   string    `dynamo:"purpose"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

func challengeKey(scope store.Scope, token string) store.Key {
	sum := sha256.Sum256([]byte(token))
	return store.Key{PK: scope.Partition(kindChallenge), SK: tokenUserID(token) + "#" + hex.EncodeToString(sum[:])}
}

type challengeResult struct {
	TwoFactor string `json:"twoFactor"`
	Challenge string `json:"challenge"`
}

func (s *Service) registerTwoFactor(mux api.Mux, base string) {
	mux.Handle("POST "+base+"/auth/two-factor", s.guard.Public(s.secondStep))
	mux.Handle("POST "+base+"/auth/two-factor/setup", s.guard.Public(s.setup))
	mux.Handle("POST "+base+"/auth/two-factor/enable", s.guard.Public(s.enable))
	mux.Handle("POST "+base+"/auth/two-factor/recovery-codes", s.guard.Require("", s.newRecoveryCodes))
	mux.Handle("POST "+base+"/auth/two-factor/disable", s.guard.Require("", s.disable))
}

// challenge stores a second step for u and answers its token.
func (s *Service) challenge(w http.ResponseWriter, ctx context.Context, scope store.Scope, u *User, purpose string, now time.Time, message string) error {
	token := newToken(u.ID)
	k := challengeKey(scope, token)
	item := challengeItem{PK: k.PK, SK: k.SK, UserID: u.ID, Username: u.Username, Purpose: purpose, ExpiresAt: now.Add(challengeTTL)}
	if err := s.st.Table.Put(item).Run(ctx); err != nil {
		return store.Wrap("put sign-in challenge", err)
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: challengeResult{TwoFactor: purpose, Challenge: token}, Message: message})
}

// pending is a sign-in's second step: its challenge and user, both read in one round trip.
type pending struct {
	key  store.Key
	item challengeItem
	user User
}

var errChallengeExpired = &api.Error{Status: http.StatusUnauthorized, Message: msgChallengeExpired}

// loadChallenge reads the challenge a token names and its user; a missing, expired or
// wrong-purpose challenge, or a user who can no longer sign in, is errChallengeExpired.
func (s *Service) loadChallenge(ctx context.Context, scope store.Scope, token, purpose string, now time.Time) (*pending, error) {
	userID := tokenUserID(token)
	if userID == "" {
		return nil, errChallengeExpired
	}
	p := &pending{key: challengeKey(scope, token)}
	uk := UserKey(scope, userID)
	items, err := s.st.GetMany(ctx, p.key, uk)
	if err != nil {
		return nil, err
	}
	okC, errC := store.Decode(items, p.key, &p.item)
	okU, errU := store.Decode(items, uk, &p.user)
	if errC != nil || errU != nil {
		return nil, store.Wrap("decode sign-in challenge", firstError(errC, errU))
	}
	if !okC || !okU || p.item.Purpose != purpose || !now.Before(p.item.ExpiresAt) || p.item.UserID != p.user.ID || !p.user.Status {
		return nil, errChallengeExpired
	}
	return p, nil
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// secondStep spends a code challenge with a TOTP code or a recovery code and starts the session.
// The attempt is reserved before the code is checked; the code's step (or the recovery code), the
// challenge and the new session are one transaction, so a code works once even when two sign-ins
// race with it.
func (s *Service) secondStep(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Challenge    string `json:"challenge"`
		Code         string `json:"code"`
		RecoveryCode string `json:"recoveryCode"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if in.Challenge == "" || (strings.TrimSpace(in.Code) == "") == (strings.TrimSpace(in.RecoveryCode) == "") || len(in.Code) > 16 || len(in.RecoveryCode) > 40 {
		return api.Errorf(http.StatusBadRequest, msgFillDetails)
	}
	ctx, scope, now, client := r.Context(), CallerFrom(r.Context()).Scope, s.now(), audit.ClientOf(r)
	p, err := s.loadChallenge(ctx, scope, in.Challenge, purposeCode, now)
	if err != nil {
		return err
	}
	u := &p.user
	ak := attemptKey(scope, p.item.Username)
	if err := reserveAttempt(ctx, s.st, ak, now); err != nil {
		return err
	}
	failed := audit.Entry{At: now, UserID: u.ID, Username: u.Username, Action: audit.ActionLoginFailed, Client: client}
	refused := func() error { return s.refuse(ctx, scope, failed, api.Errorf(http.StatusUnauthorized, msgBadCode)) }
	uk := UserKey(scope, u.ID)
	spend := s.st.Table.Update("PK", uk.PK).Range("SK", uk.SK)
	if in.Code != "" {
		key, err := s.openKey(ctx, scope, u, u.TOTPKey)
		if err != nil {
			return err
		}
		step, ok := matchTOTP(key, in.Code, now, u.TOTPLastStep)
		if !ok {
			return refused()
		}
		spend.Set("totpLastStep", step).If("attribute_exists(totpKey) AND (attribute_not_exists(totpLastStep) OR totpLastStep < ?)", step)
	} else {
		h := recoveryHash(u.ID, in.RecoveryCode)
		if !slices.Contains(u.RecoveryHashes, h) {
			return refused()
		}
		spend.DeleteStringsFromSet("recoveryHashes", h).If("contains(recoveryHashes, ?)", h)
		u.RecoveryHashes = without(u.RecoveryHashes, h)
	}
	tx := s.st.WriteTx().Update(spend).Delete(s.st.Table.Delete("PK", p.key.PK).Range("SK", p.key.SK).If("attribute_exists(PK)"))
	token, err := s.startSession(ctx, tx, scope, u, now, client)
	if err != nil {
		if dynamo.IsCondCheckFailed(err) {
			// The code's step was just used (or the recovery code spent) by another sign-in.
			return refused()
		}
		return store.Wrap("second sign-in step", err)
	}
	if err := withPolicy(ctx, s.st, scope, u); err != nil {
		return err
	}
	return s.signedIn(w, ctx, ak, u, token)
}

func without(list []string, v string) []string {
	out := []string{}
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

// bind is the context a user's key is sealed with: it opens only on that user's record.
func bind(scope store.Scope, u *User) secrets.Context { return TwoFactorBinding(scope.Tenant(), u.ID) }

// TwoFactorBinding is the context the two-factor key of user userID in tenant is sealed with
// (a tenant import reseals keys from the old tenant's to the new one's).
func TwoFactorBinding(tenant, userID string) secrets.Context {
	return secrets.Context{"tenant": tenant, "user": userID, "purpose": "totp"}
}

func (s *Service) openKey(ctx context.Context, scope store.Scope, u *User, sealed string) ([]byte, error) {
	key, err := s.sealer.Open(ctx, sealed, bind(scope, u))
	if err != nil {
		// Never the sealed value, never the key: only whose it was.
		return nil, &secretError{user: u.ID, err: err}
	}
	return key, nil
}

type secretError struct {
	user string
	err  error
}

func (e *secretError) Error() string {
	return "auth: open the two-factor key of user " + e.user + ": " + e.err.Error()
}
func (e *secretError) Unwrap() error { return e.err }

// enroller is who is setting two-factor sign-in up: a signed-in user (My Profile), or a user whose
// sign-in is waiting for it (an enrol challenge).
type enroller struct {
	scope   store.Scope
	user    *User
	session *Session // signed in
	pending *pending // an enrol challenge
}

// enrollerOf resolves the request's enroller from the challenge in the body, else the session.
func (s *Service) enrollerOf(r *http.Request, challenge string, now time.Time) (*enroller, error) {
	if challenge != "" {
		scope := CallerFrom(r.Context()).Scope
		p, err := s.loadChallenge(r.Context(), scope, challenge, purposeEnrol, now)
		if err != nil {
			return nil, err
		}
		return &enroller{scope: scope, user: &p.user, pending: p}, nil
	}
	c, err := s.guard.authenticate(r)
	if err != nil {
		return nil, err
	}
	return &enroller{scope: c.Scope, user: c.User, session: c.Session}, nil
}

type setupResult struct {
	Secret string `json:"secret"`
	URI    string `json:"uri"`
}

// setup makes a new key waiting to be confirmed and answers it once, as text and as the
// otpauth:// address the panel draws as a QR code.
func (s *Service) setup(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Challenge string `json:"challenge"`
	}
	if err := api.DecodeOptional(r, &in); err != nil {
		return err
	}
	e, err := s.enrollerOf(r, in.Challenge, s.now())
	if err != nil {
		return err
	}
	if e.user.TOTPKey != "" {
		return api.Errorf(http.StatusConflict, msgAlreadyOn)
	}
	key := newTOTPKey()
	sealed, err := s.sealer.Seal(r.Context(), key, bind(e.scope, e.user))
	if err != nil {
		return err
	}
	uk := UserKey(e.scope, e.user.ID)
	err = s.st.Table.Update("PK", uk.PK).Range("SK", uk.SK).Set("totpPendingKey", sealed).
		If("attribute_exists(PK) AND attribute_not_exists(totpKey)").Run(r.Context())
	if dynamo.IsCondCheckFailed(err) {
		return api.Errorf(http.StatusConflict, msgAlreadyOn)
	}
	if err != nil {
		return store.Wrap("put pending two-factor key", err)
	}
	issuer := CallerFrom(r.Context()).Tenant.Name
	if issuer == "" {
		issuer = e.scope.Tenant()
	}
	return api.OK(w, setupResult{Secret: b32.EncodeToString(key), URI: totpURI(issuer, e.user.Username, key)})
}

type enableResult struct {
	RecoveryCodes []string  `json:"recoveryCodes"`
	User          *UserView `json:"user,omitempty"`
	Token         string    `json:"token,omitempty"`
}

// enable confirms the waiting key with its first code: two-factor sign-in is on, recovery codes
// are made (answered once), and every other session of the user ends. From an enrol challenge it
// also signs the user in; signed in, it also asks for the current password (reauth.go), so a
// session alone cannot put the account behind a key its owner does not have.
func (s *Service) enable(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Challenge string `json:"challenge"`
		Code      string `json:"code"`
		// Password is the current password, asked when signed in (not of an enrol challenge,
		// whose sign-in has just checked it).
		Password string `json:"password"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	ctx, now, client := r.Context(), s.now(), audit.ClientOf(r)
	e, err := s.enrollerOf(r, in.Challenge, now)
	if err != nil {
		return err
	}
	if strings.TrimSpace(in.Code) == "" || len(in.Code) > 16 {
		return api.FieldError(http.StatusBadRequest, "code", msgBadCode)
	}
	u := e.user
	var ak store.Key
	if e.pending != nil {
		// Still signing in: the code is a guess like a password.
		ak = attemptKey(e.scope, e.pending.item.Username)
		if err := reserveAttempt(ctx, s.st, ak, now); err != nil {
			return err
		}
	}
	if u.TOTPKey != "" {
		return api.Errorf(http.StatusConflict, msgAlreadyOn)
	}
	if u.TOTPPendingKey == "" {
		return api.Errorf(http.StatusBadRequest, msgNotSetUp)
	}
	key, err := s.openKey(ctx, e.scope, u, u.TOTPPendingKey)
	if err != nil {
		return err
	}
	step, ok := matchTOTP(key, in.Code, now, 0)
	if !ok {
		return api.FieldError(http.StatusBadRequest, "code", msgBadCode)
	}
	if e.session != nil {
		// The code is checked first: it is of the new key, which whoever holds the session has
		// seen, so a wrong one is no guess at the account and takes no attempt of the window.
		if _, err := s.confirmOwner(ctx, e.scope, u, reauth{Password: in.Password}, twoFactorReauth, now); err != nil {
			return err
		}
	}
	codes, hashes := newRecoveryCodes(u.ID)
	sealed := u.TOTPPendingKey
	change := func(up *dynamo.Update) {
		up.Set("totpKey", sealed).Remove("totpPendingKey").Set("totpLastStep", step).SetSet("recoveryHashes", hashes).
			If("totpPendingKey = ? AND attribute_not_exists(totpKey)", sealed)
	}
	u.TOTPKey, u.TOTPPendingKey, u.TOTPLastStep, u.RecoveryHashes = sealed, "", step, hashes
	out := enableResult{RecoveryCodes: codes}
	if e.session != nil {
		if err := s.changeTwoFactor(ctx, e.scope, u, e.session, client, change); err != nil {
			return err
		}
		return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: msgTwoFactorOn})
	}
	// From the enrol challenge: the change, the challenge spent and the new session, together.
	tx := s.st.WriteTx()
	if err := s.twoFactorChange(ctx, tx, e.scope, u, nil, client, now, change); err != nil {
		return err
	}
	tx.Delete(s.st.Table.Delete("PK", e.pending.key.PK).Range("SK", e.pending.key.SK).If("attribute_exists(PK)"))
	token, err := s.startSession(ctx, tx, e.scope, u, now, client)
	if dynamo.IsCondCheckFailed(err) {
		return errChallengeExpired
	}
	if err != nil {
		return store.Wrap("enable two-factor sign-in", err)
	}
	if err := clearAttempts(ctx, s.st, ak); err != nil {
		return err
	}
	if err := withPolicy(ctx, s.st, e.scope, u); err != nil {
		return err
	}
	view := View(u)
	out.User, out.Token = &view, token
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: msgTwoFactorOn})
}

// reauthInput is the body of the two-factor changes of a signed-in user: the current password,
// and where two-factor sign-in is on a code or a recovery code (reauth.go).
type reauthInput struct {
	Password     string `json:"password"`
	Code         string `json:"code"`
	RecoveryCode string `json:"recoveryCode"`
}

func decodeReauth(r *http.Request) (reauth, error) {
	var in reauthInput
	if err := api.Decode(r, &in); err != nil {
		return reauth{}, err
	}
	return reauth(in), nil
}

// newRecoveryCodes replaces the user's recovery codes, after the password and a code (or one of
// the old recovery codes).
func (s *Service) newRecoveryCodes(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeReauth(r)
	if err != nil {
		return err
	}
	c := CallerFrom(r.Context())
	if c.User.TOTPKey == "" {
		return api.Errorf(http.StatusConflict, msgTwoFactorOff)
	}
	p, err := s.confirmOwner(r.Context(), c.Scope, c.User, in, twoFactorReauth, s.now())
	if err != nil {
		return err
	}
	codes, hashes := newRecoveryCodes(c.User.ID)
	err = s.changeTwoFactor(r.Context(), c.Scope, c.User, c.Session, c.Client, func(up *dynamo.Update) {
		up.SetSet("recoveryHashes", hashes).If("attribute_exists(totpKey)")
		if p.recovery != "" {
			p.condition(up) // the set is replaced: the code goes with the others
		} else {
			p.spend(up)
		}
	})
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: enableResult{RecoveryCodes: codes}, Message: msgNewCodes})
}

// disable turns two-factor sign-in off, after the password and a code (or a recovery code),
// unless the tenant requires it.
func (s *Service) disable(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeReauth(r)
	if err != nil {
		return err
	}
	c := CallerFrom(r.Context())
	if c.User.TwoFactorRequired {
		return api.Errorf(http.StatusForbidden, msgRequired)
	}
	p, err := s.confirmOwner(r.Context(), c.Scope, c.User, in, twoFactorReauth, s.now())
	if err != nil {
		return err
	}
	if c.User.TOTPKey == "" {
		return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: msgTwoFactorOff})
	}
	err = s.changeTwoFactor(r.Context(), c.Scope, c.User, c.Session, c.Client, func(up *dynamo.Update) {
		up.Remove("totpKey", "totpPendingKey", "totpLastStep", "recoveryHashes")
		p.condition(up) // all of it is removed: the code too
	})
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: msgTwoFactorOff})
}

// changeTwoFactor writes a change of the signed-in user's two-factor settings: the change, a new
// session epoch (every other session ends; this one moves along) and what records it, together.
func (s *Service) changeTwoFactor(ctx context.Context, scope store.Scope, u *User, current *Session, client audit.Client, change func(*dynamo.Update)) error {
	tx := s.st.WriteTx()
	if err := s.twoFactorChange(ctx, tx, scope, u, current, client, s.now(), change); err != nil {
		return err
	}
	if err := tx.Run(ctx); err != nil {
		if dynamo.IsCondCheckFailed(err) {
			return api.ErrConflict
		}
		return store.Wrap("change two-factor sign-in", err)
	}
	return nil
}

// twoFactorChange adds to tx the user's update (change, new epoch, new version, from those read),
// the current session's move to the new epoch if any, and what records the change by the user
// (its version, named "twoFactor", and its audit entry: never a key or a code).
func (s *Service) twoFactorChange(ctx context.Context, tx *dynamo.WriteTx, scope store.Scope, u *User, current *Session, client audit.Client, now time.Time,
	change func(*dynamo.Update)) error {
	before := *u
	uk := UserKey(scope, u.ID)
	up := s.st.Table.Update("PK", uk.PK).Range("SK", uk.SK)
	change(up)
	u.SessionEpoch = EndSessions(up, u.SessionEpoch)
	// The version moves too, from the one read, so an edit of the user loaded before this one
	// does not write it back, and the state kept as a version is the one replaced.
	u.Version, u.UpdatedAt = u.Version+1, now.UTC()
	up.Set("version", u.Version).Set("updatedAt", u.UpdatedAt).If("version = ?", before.Version)
	rec, err := s.users.rec.RecordUser(ctx, UserChange{Caller: &Caller{Scope: scope, User: &before, Client: client}, Action: "update",
		Before: &before, After: u, AlsoChanged: []string{"twoFactor"}, At: now})
	if err != nil {
		return err
	}
	rec.Set(up)
	tx.Update(up)
	if current != nil {
		tx.Update(s.st.Table.Update("PK", current.PK).Range("SK", current.SK).Set("epoch", u.SessionEpoch).If("attribute_exists(PK)"))
	}
	rec.AddTo(tx)
	return nil
}

// ResetTwoFactor turns a user's two-factor sign-in off for the operator (a user who lost both the
// phone and the recovery codes: cmsctl user reset-2fa), ending every session of the user; it is
// versioned and audited as a "twoFactor" change by Operator. Where the tenant requires it, the
// user sets it up again at the next sign-in.
func (us *Users) ResetTwoFactor(ctx context.Context, scope store.Scope, id string) error {
	return us.change(ctx, OperatorCaller(scope), id, "reset two-factor sign-in of "+id, true, []string{"twoFactor"}, func(up *dynamo.Update, _ *User) {
		up.Remove("totpKey", "totpPendingKey", "totpLastStep", "recoveryHashes")
	})
}
