package collections

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// Users are a collection with rules of their own: a unique username per tenant (a marker item in
// the same transaction), hashed passwords (empty keeps the old one), sessions ended by a new
// password or by disabling, and rights that nobody can raise beyond their own.

var (
	errOwnRights   = &api.Error{Status: http.StatusForbidden, Message: "You cannot change your own rights."}
	errGrantAdmin  = &api.Error{Status: http.StatusForbidden, Message: "Only an administrator can grant administrator rights."}
	errGrantMore   = &api.Error{Status: http.StatusForbidden, Message: "You cannot grant permissions you do not hold."}
	errAdminTarget = &api.Error{Status: http.StatusForbidden, Message: "Only an administrator can change an administrator's account."}
	errDeleteSelf  = &api.Error{Status: http.StatusConflict, Message: "You cannot delete your own account."}
	errNameTaken   = api.FieldError(http.StatusConflict, "username", "Username is already taken!")
)

func (s *Service) beforeWrite(ctx context.Context, wr *write) error {
	if wr.c.Key != "users" {
		return nil
	}
	return s.userWrite(ctx, wr)
}

func (s *Service) beforeDelete(ctx context.Context, wr *write) error {
	if wr.c.Key != "users" {
		return nil
	}
	me := wr.caller.User
	switch {
	case toString(wr.old["id"]) == me.ID:
		return errDeleteSelf
	case wr.old["isAdmin"] == true && !me.IsAdmin:
		return errAdminTarget
	}
	mk := auth.UsernameKey(wr.caller.Scope, toString(wr.old["username"]))
	wr.also(s.st.Table.Delete("PK", mk.PK).Range("SK", mk.SK), nil)
	return nil
}

func (s *Service) userWrite(ctx context.Context, wr *write) error {
	me, creating := wr.caller.User, wr.old == nil
	if !creating && wr.old["isAdmin"] == true && !me.IsAdmin {
		return errAdminTarget
	}
	if err := s.checkRights(ctx, wr); err != nil {
		return err
	}
	if name, ok := wr.values["username"].(string); ok {
		if msg := auth.ValidateUsername(name); msg != "" {
			return api.FieldError(http.StatusBadRequest, "username", msg)
		}
		oldName := toString(wr.old["username"])
		if creating || !strings.EqualFold(oldName, name) {
			mk := auth.UsernameKey(wr.caller.Scope, name)
			wr.also(s.st.Table.Put(map[string]any{"PK": mk.PK, "SK": mk.SK, "userId": wr.rec["id"]}).If("attribute_not_exists(PK)"), errNameTaken)
			if !creating {
				old := auth.UsernameKey(wr.caller.Scope, oldName)
				wr.also(s.st.Table.Delete("PK", old.PK).Range("SK", old.SK), nil)
			}
		}
	}
	epoch := toInt(wr.old["sessionEpoch"])
	password, _ := wr.values["password"].(string)
	delete(wr.values, "password")
	delete(wr.rec, "password")
	switch {
	case password != "":
		hash, err := auth.HashSecret(password)
		if err != nil {
			return err
		}
		wr.rec["passwordHash"] = hash
		epoch++
	case creating:
		return api.FieldError(http.StatusBadRequest, "password", "Password is required!")
	}
	if !creating && wr.old["status"] == true && wr.rec["status"] == false {
		epoch++ // disabling a user ends its sessions
	}
	wr.rec["sessionEpoch"] = epoch
	return nil
}

// checkRights refuses changes to isAdmin, permissionIds, roleId and status of oneself, and
// grants beyond the caller's own rights.
func (s *Service) checkRights(ctx context.Context, wr *write) error {
	me := wr.caller.User
	self := wr.old != nil && toString(wr.old["id"]) == me.ID
	changed := func(name string) bool {
		v, ok := wr.values[name]
		if !ok {
			return false
		}
		old, had := wr.old[name]
		if !had {
			f, _ := wr.c.Field(name)
			old = f.Default
		}
		return !equalValue(old, v)
	}
	for _, name := range []string{"isAdmin", "permissionIds", "roleId", "status"} {
		if self && changed(name) {
			return errOwnRights
		}
	}
	if me.IsAdmin {
		return nil
	}
	if changed("isAdmin") && wr.values["isAdmin"] == true {
		return errGrantAdmin
	}
	if codes, ok := wr.values["permissionIds"].([]string); ok && changed("permissionIds") {
		for _, code := range codes {
			if !me.Can(code) {
				return errGrantMore
			}
		}
	}
	if roleID := toString(wr.values["roleId"]); roleID != "" && changed("roleId") {
		role, err := auth.LoadRole(ctx, s.st, wr.caller.Scope, roleID)
		if store.IsNotFound(err) {
			return nil // a missing role is refused by the reference check in the transaction
		}
		if err != nil {
			return err
		}
		for _, code := range role.PermissionIDs {
			if !me.Can(code) {
				return errGrantMore
			}
		}
	}
	return nil
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
