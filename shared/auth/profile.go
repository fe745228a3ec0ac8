package auth

import (
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/listing"
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
	// The user's list entry moves with it: newest first by updatedAt, and under its new name.
	for name, v := range listing.Attributes(listing.Record{Partition: u.PK, ID: u.ID, UpdatedAt: now, Name: in.Username}) {
		update.Set(name, v)
	}
	changed := []string{}
	for _, f := range []struct {
		name     string
		was, now string
	}{{"username", u.Username, in.Username}, {"email", u.Email, in.Email}, {"phone", u.Phone, in.Phone}} {
		if f.was != f.now {
			changed = append(changed, f.name)
		}
	}
	u.Username, u.Email, u.Phone, u.UpdatedAt, u.Version = in.Username, in.Email, in.Phone, now, u.Version+1
	// The code (or recovery code) that proved the owner is spent with the change.
	p.spend(update)
	if p.step > 0 {
		u.TOTPLastStep = p.step
	}
	if p.recovery != "" {
		u.RecoveryHashes = without(u.RecoveryHashes, p.recovery)
	}

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
	// Found by its new name in the users list: the word index moves with it.
	store.AddToTx(tx, listing.WordChanges(s.st.Table, u.PK, u.ID,
		UserWords(u.FirstName, u.LastName, c.User.Username), UserWords(u.FirstName, u.LastName, in.Username))...)
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
	if in.Password != "" {
		changed = append(changed, "password")
	}
	if in.Passcode != "" {
		changed = append(changed, "passcode")
	}
	// The audit log names what changed, never a value.
	tx.Put(s.st.Table.Put(audit.Item(c.Scope, audit.Entry{At: now, UserID: u.ID, Username: u.Username, Action: "update",
		Collection: "users", RecordID: u.ID, Changed: changed, Client: c.Client})))
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
