package auth

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/store"
)

// Changes of how an account signs in (a new password or passcode, two-factor sign-in turned on
// or off, new recovery codes) ask the signed-in user to prove again that they own the account:
// the current password, and where two-factor sign-in is on a current code from the app or an
// unused recovery code. A session alone (borrowed, or taken from an unlocked computer) cannot
// turn itself into a lasting takeover by locking the owner out. The proof is a guess like a
// sign-in: one attempt of the username's window is reserved before the password is hashed, and
// only a complete proof ends the window.

const (
	msgEnterCurrent = "Enter your current password."
	msgWrongCurrent = "The current password is not correct."
)

// reauth is what a change of the user's sign-in carries to prove the owner is making it.
type reauth struct {
	Password     string
	Code         string
	RecoveryCode string
}

// reauthFields names the request's fields of a reauth, for the messages: the password's field
// and its "wrong" message differ between the profile (where password is the new one) and the
// two-factor routes.
type reauthFields struct {
	password, wrong string
}

var (
	profileReauth   = reauthFields{password: "currentPassword", wrong: msgWrongCurrent}
	twoFactorReauth = reauthFields{password: "password", wrong: msgWrongPassword}
)

// proof is a checked reauth: the step of the code it used, or the hash of the recovery code.
// The change it allows must be written with its condition (the code unused, the recovery code
// unspent) and spend it, so that it works once even against a racing request.
type proof struct {
	step     int64
	recovery string
}

// condition adds to up that the proof is still good.
func (p proof) condition(up *dynamo.Update) {
	switch {
	case p.step > 0:
		up.If("attribute_exists(totpKey) AND (attribute_not_exists(totpLastStep) OR totpLastStep < ?)", p.step)
	case p.recovery != "":
		up.If("contains(recoveryHashes, ?)", p.recovery)
	}
}

// spend adds to up the proof's condition and spends it: the code's step is used, the recovery
// code removed. A change that replaces or removes those attributes itself takes condition only.
func (p proof) spend(up *dynamo.Update) {
	p.condition(up)
	switch {
	case p.step > 0:
		up.Set("totpLastStep", p.step)
	case p.recovery != "":
		up.DeleteStringsFromSet("recoveryHashes", p.recovery)
	}
}

// confirmOwner checks in's proof that u's owner is making a change, counted in u's sign-in
// window. A missing password or code is refused before any attempt is taken (no guess was made);
// a wrong password is refused whatever the code, so the answer tells nothing of the code.
func (s *Service) confirmOwner(ctx context.Context, scope store.Scope, u *User, in reauth, f reauthFields, now time.Time) (proof, error) {
	if in.Password == "" {
		return proof{}, api.FieldError(http.StatusBadRequest, f.password, msgEnterCurrent)
	}
	on := u.TOTPKey != ""
	code, recovery := strings.TrimSpace(in.Code), strings.TrimSpace(in.RecoveryCode)
	if on && code == "" && recovery == "" {
		return proof{}, api.FieldError(http.StatusBadRequest, "code", msgEnterCode)
	}
	if code != "" && recovery != "" {
		return proof{}, api.Errorf(http.StatusBadRequest, msgFillDetails)
	}
	// Longer than any password or code can be: wrong, without hashing it.
	if len(in.Password) > 256 {
		return proof{}, api.FieldError(http.StatusBadRequest, f.password, f.wrong)
	}
	if len(code) > 16 || len(recovery) > 40 {
		return proof{}, api.FieldError(http.StatusBadRequest, "code", msgBadCode)
	}
	ak := attemptKey(scope, u.Username)
	if err := reserveAttempt(ctx, s.st, ak, now); err != nil {
		return proof{}, err
	}
	if !VerifySecret(u.PasswordHash, in.Password) {
		return proof{}, api.FieldError(http.StatusBadRequest, f.password, f.wrong)
	}
	var p proof
	if on {
		badCode := api.FieldError(http.StatusBadRequest, "code", msgBadCode)
		if code != "" {
			key, err := s.openKey(ctx, scope, u, u.TOTPKey)
			if err != nil {
				return proof{}, err
			}
			step, ok := matchTOTP(key, code, now, u.TOTPLastStep)
			if !ok {
				return proof{}, badCode
			}
			p.step = step
		} else {
			h := recoveryHash(u.ID, recovery)
			if !slices.Contains(u.RecoveryHashes, h) {
				return proof{}, badCode
			}
			p.recovery = h
		}
	}
	return p, clearAttempts(ctx, s.st, ak)
}
