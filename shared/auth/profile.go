package auth

import (
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/store"
)

// updateMe applies PATCH /auth/me: username (unique per tenant), email, phone, and optionally a
// new password (which ends every other session of the user) and a new passcode. A new password or
// passcode asks for the current password, and a code where two-factor sign-in is on (reauth.go):
// a session alone cannot give the account a secret its owner does not know. It is one
// transaction: either all of it is written or none.
func (s *Service) updateMe(w http.ResponseWriter, r *http.Request) error {
	var in profileInput
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	in.normalize()
	if err := in.validate(); err != nil {
		return err
	}
	ctx, c := r.Context(), CallerFrom(r.Context())
	u := *c.User
	now := s.now().UTC()
	var p proof
	if in.Password != "" || in.Passcode != "" {
		var err error
		if p, err = s.confirmOwner(ctx, c.Scope, c.User, reauth{Password: in.CurrentPassword, Code: in.Code, RecoveryCode: in.RecoveryCode}, profileReauth, now); err != nil {
			return err
		}
	}
	update := s.st.Table.Update("PK", u.PK).Range("SK", u.SK).
		Set("username", in.Username).Set("email", in.Email).Set("phone", in.Phone).
		Set("updatedAt", now).Set("version", u.Version+1).
		If("version = ?", u.Version)
	u.Username, u.Email, u.Phone, u.UpdatedAt, u.Version = in.Username, in.Email, in.Phone, now, u.Version+1
	// The code (or recovery code) that proved the owner is spent with the change.
	p.spend(update)
	if p.step > 0 {
		u.TOTPLastStep = p.step
	}
	if p.recovery != "" {
		u.RecoveryHashes = without(u.RecoveryHashes, p.recovery)
	}
	// What records it, as for any write of a user: the profile it replaces kept as a version
	// (so restoring an older version is a choice among them, never a silent undo of this one),
	// the audit entry naming what changed (a password or passcode by name, never a value or a
	// hash), and the list's index attributes and words under the new name.
	also := []string{}
	if in.Password != "" {
		also = append(also, "password")
	}
	if in.Passcode != "" {
		also = append(also, "passcode")
	}
	rec, err := s.users.rec.RecordUser(ctx, UserChange{Caller: c, Action: "update", Before: c.User, After: &u, AlsoChanged: also, At: now})
	if err != nil {
		return err
	}
	rec.Set(update)

	// The transaction is all or nothing; the marker comes first so that its cancellation reason
	// (index 0) tells a taken name from a stale version.
	tx := s.st.WriteTx()
	markerIndex := -1
	oldMarker, newMarker := UsernameKey(c.Scope, c.User.Username), UsernameKey(c.Scope, in.Username)
	if oldMarker != newMarker {
		markerIndex = 0
		tx.Put(s.st.Table.Put(usernameMarker{PK: newMarker.PK, SK: newMarker.SK, UserID: u.ID}).If("attribute_not_exists(PK)"))
		tx.Delete(s.st.Table.Delete("PK", oldMarker.PK).Range("SK", oldMarker.SK))
	}
	tx.Update(update)
	if in.Password != "" {
		hash, err := HashSecret(in.Password)
		if err != nil {
			return err
		}
		// A new epoch ends every session of the user but this one, which moves along with it; from
		// the epoch read, or not at all (a sign-out meanwhile is a 409, not undone).
		u.SessionEpoch = EndSessions(update, c.User.SessionEpoch)
		update.Set("passwordHash", hash)
		tx.Update(s.st.Table.Update("PK", c.Session.PK).Range("SK", c.Session.SK).Set("epoch", u.SessionEpoch).If("attribute_exists(PK)"))
	}
	if in.Passcode != "" {
		hash, err := HashSecret(in.Passcode)
		if err != nil {
			return err
		}
		update.Set("passcodeHash", hash)
	}
	rec.AddTo(tx)
	if err := tx.Run(ctx); err != nil {
		if markerIndex >= 0 && store.CondFailedAt(err, markerIndex) {
			return api.FieldError(http.StatusConflict, "username", msgUsernameTaken)
		}
		if dynamo.IsCondCheckFailed(err) {
			return api.ErrConflict
		}
		return store.Wrap("update profile", err)
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: View(&u), Message: "Profile updated!"})
}
