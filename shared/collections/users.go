package collections

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
)

// userHooks are the rules of the users collection: a unique username per tenant (a marker item in
// the same transaction), hashed passwords (empty keeps the old one), sessions ended by a new
// password or by disabling, and the rights rule of rights.go.
type userHooks struct{}

var (
	errDeleteSelf = &api.Error{Status: http.StatusConflict, Message: "You cannot delete your own account."}
	errNameTaken  = api.FieldError(http.StatusConflict, "username", "Username is already taken!")
	// errOwnPassword: a session alone must not give its own account a password its owner does not
	// know (issue 40). My Profile (PATCH /auth/me) asks for the current password, and a code where
	// two-factor sign-in is on; a generic record write has no field to carry them.
	errOwnPassword = api.FieldError(http.StatusForbidden, "password", "Change your own password in My Profile, which asks for your current password.")
)

// rightsFields are the fields nobody may change on their own account.
var rightsFields = []string{"isAdmin", "permissionIds", "roleId", "status"}

func (userHooks) BeforeDelete(ctx context.Context, s *Service, w *Write) error {
	if toString(w.Old["id"]) == w.Caller.User.ID {
		return errDeleteSelf
	}
	if err := mayActOnUser(ctx, s, w); err != nil {
		return err
	}
	mk := auth.UsernameKey(w.Caller.Scope, toString(w.Old["username"]))
	w.Also(s.st.Table.Delete("PK", mk.PK).Range("SK", mk.SK), nil)
	return nil
}

func (userHooks) BeforeWrite(ctx context.Context, s *Service, w *Write) error {
	creating := w.Old == nil
	if !creating {
		if toString(w.Old["id"]) == w.Caller.User.ID {
			for _, name := range rightsFields {
				if w.Changed(name) {
					return errOwnRights
				}
			}
			if password, _ := w.Values["password"].(string); password != "" {
				return errOwnPassword
			}
		}
		if err := mayActOnUser(ctx, s, w); err != nil {
			return err
		}
	}
	if err := mayGrantUser(ctx, s, w); err != nil {
		return err
	}
	if err := uniqueUsername(s, w); err != nil {
		return err
	}
	return setPassword(w)
}

// uniqueUsername queues the marker that keeps a new or changed username unique in the tenant.
func uniqueUsername(s *Service, w *Write) error {
	name, ok := w.Values["username"].(string)
	if !ok {
		return nil
	}
	if msg := auth.ValidateUsername(name); msg != "" {
		return api.FieldError(http.StatusBadRequest, "username", msg)
	}
	oldName := toString(w.Old["username"])
	if w.Old != nil && strings.EqualFold(oldName, name) {
		return nil
	}
	mk := auth.UsernameKey(w.Caller.Scope, name)
	w.Also(s.st.Table.Put(map[string]any{"PK": mk.PK, "SK": mk.SK, "userId": w.Rec["id"]}).If("attribute_not_exists(PK)"), errNameTaken)
	if w.Old != nil {
		old := auth.UsernameKey(w.Caller.Scope, oldName)
		w.Also(s.st.Table.Delete("PK", old.PK).Range("SK", old.SK), nil)
	}
	return nil
}

// setPassword hashes a new password and moves the session epoch when the password changes or the
// user is disabled, which ends the user's sessions. The engine's update is conditioned on the
// version alone, so the move is auth.FreshEpoch's (past any move a session could have been carried
// to meanwhile), not read+1.
func setPassword(w *Write) error {
	epoch := toInt(w.Old["sessionEpoch"])
	password, _ := w.Values["password"].(string)
	delete(w.Values, "password")
	delete(w.Rec, "password")
	end := false
	switch {
	case password != "":
		hash, err := auth.HashSecret(password)
		if err != nil {
			return err
		}
		w.Rec["passwordHash"] = hash
		end = true
		// The audit entry and the version name the change (a password field is never compared,
		// nor its value kept): "password", as My Profile's entry names it.
		if w.Old != nil {
			w.AlsoChanged = append(w.AlsoChanged, "password")
		}
	case w.Old == nil && w.RestoredFrom != 0:
		// Back from the trash: no password is kept in history, so none is set (nobody can sign in
		// as the user until one is), and sessions from before the delete stay ended.
		epoch = int(time.Now().Unix())
	case w.Old == nil:
		return api.FieldError(http.StatusBadRequest, "password", "Password is required!")
	}
	if w.Old != nil && w.Old["status"] == true && w.Rec["status"] == false {
		end = true
	}
	if end && w.Old != nil {
		epoch = auth.FreshEpoch(epoch, time.Now())
	}
	w.Rec["sessionEpoch"] = epoch
	return nil
}

// roleHooks apply the rights rule to roles.
type roleHooks struct{}

func (roleHooks) BeforeWrite(_ context.Context, _ *Service, w *Write) error {
	return mayChangeRole(w, false)
}

func (roleHooks) BeforeDelete(_ context.Context, _ *Service, w *Write) error {
	return mayChangeRole(w, true)
}

func equalValue(a, b any) bool {
	as, aok := asStrings(a)
	bs, bok := asStrings(b)
	if aok && bok {
		return slices.Equal(as, bs)
	}
	if a == nil {
		a = ""
	}
	if b == nil {
		b = ""
	}
	return a == b
}

func asStrings(v any) ([]string, bool) {
	switch x := v.(type) {
	case []string:
		return x, true
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			out[i], _ = e.(string)
		}
		return out, true
	}
	return nil, false
}
