package collections

import (
	"context"
	"net/http"
	"slices"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// The one rule for every principal, admins aside: nobody changes their own role or rights; a user
// or role can be changed or deleted only by someone who holds every right it holds; and nobody
// grants a right they do not hold. The users and roles hooks both call these, so the rule lives
// here once.

var (
	errOwnRights  = &api.Error{Status: http.StatusForbidden, Message: "You cannot change your own rights."}
	errGrantAdmin = &api.Error{Status: http.StatusForbidden, Message: "Only an administrator can grant administrator rights."}
	errGrantMore  = &api.Error{Status: http.StatusForbidden, Message: "You cannot grant permissions you do not hold."}
	errRoleMore   = &api.Error{Status: http.StatusForbidden, Message: "You cannot change a role that holds permissions you do not hold."}
)

// holdsAll reports whether me holds every code.
func holdsAll(me *auth.User, codes []string) bool {
	for _, code := range codes {
		if !me.Can(code) {
			return false
		}
	}
	return true
}

// roleCodes returns the codes of a role of the caller's tenant; none for a missing or disabled
// role (a missing role is refused by the reference check in the write's transaction).
func roleCodes(ctx context.Context, s *Service, scope store.Scope, roleID string) ([]string, error) {
	if roleID == "" {
		return nil, nil
	}
	role, err := auth.LoadRole(ctx, s.st, scope, roleID)
	if store.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return role.PermissionIDs, nil
}

// mayActOnUser refuses a change to (or the deletion of) a stored user who is an administrator or
// holds a right the caller lacks.
func mayActOnUser(ctx context.Context, s *Service, w *Write) error {
	if w.Caller.User.IsAdmin {
		return nil
	}
	own, _ := asStrings(w.Old["permissionIds"])
	role, err := roleCodes(ctx, s, w.Caller.Scope, toString(w.Old["roleId"]))
	if err != nil {
		return err
	}
	return auth.MayActOn(w.Caller.User, w.Old["isAdmin"] == true, own, role)
}

// mayGrantUser refuses rights the write gives a user beyond the caller's own: administrator, extra
// permissions, or a role holding more.
func mayGrantUser(ctx context.Context, s *Service, w *Write) error {
	me := w.Caller.User
	if me.IsAdmin {
		return nil
	}
	if w.Changed("isAdmin") && w.Values["isAdmin"] == true {
		return errGrantAdmin
	}
	if codes, ok := asStrings(w.Values["permissionIds"]); ok && w.Changed("permissionIds") && !holdsAll(me, codes) {
		return errGrantMore
	}
	if roleID := toString(w.Values["roleId"]); roleID != "" && w.Changed("roleId") {
		codes, err := roleCodes(ctx, s, w.Caller.Scope, roleID)
		if err != nil {
			return err
		}
		if !holdsAll(me, codes) {
			return errGrantMore
		}
	}
	return nil
}

// roleRightsFields are a role's fields that are rights: what its holders may do (its permissions,
// whether it is active) and what their sign-in must prove (two-factor sign-in required). A
// holder of the role who could clear the requirement could then turn their own two-factor
// sign-in off (issue 40).
var roleRightsFields = []string{"permissionIds", "status", "requireTwoFactor"}

// mayChangeRole applies the rule to a role: a non-admin can neither change the rights of the role
// they hold, nor touch a role holding more than they do, nor give a role more than they hold.
func mayChangeRole(w *Write, deleting bool) error {
	me := w.Caller.User
	if me.IsAdmin {
		return nil
	}
	if w.Old != nil {
		old, _ := asStrings(w.Old["permissionIds"])
		if !holdsAll(me, old) {
			return errRoleMore
		}
		if toString(w.Old["id"]) == me.RoleID && (deleting || slices.ContainsFunc(roleRightsFields, w.Changed)) {
			return errOwnRights
		}
	}
	if codes, ok := asStrings(w.Values["permissionIds"]); ok && !holdsAll(me, codes) {
		return errGrantMore
	}
	return nil
}

// Changed reports whether the write changes a field: present in the request and different from
// the stored value (or, on create, from the field's default).
func (w *Write) Changed(name string) bool {
	v, ok := w.Values[name]
	if !ok {
		return false
	}
	old, had := w.Old[name]
	if !had {
		f, _ := w.C.Field(name)
		old = f.Default
	}
	return !equalValue(old, v)
}
