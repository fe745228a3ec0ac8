package auth

import (
	"context"
	"net/http"
	"sort"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/store"
)

// A user's sessions: listed in My Profile, ended one by one or all but the current one; an
// administrator (or whoever may edit a user holding no right they lack) ends all of a user's.

// maxListedSessions bounds the sessions read for one user (each sign-in makes one; TTL removes
// them after SessionTTL, so a user has a handful).
const maxListedSessions = 100

// PermEditUsers is the code that lets a non-administrator end another user's sessions: the one
// that lets them edit users.
const PermEditUsers = "CMS_EDIT_USER"

func (s *Service) registerSessions(mux api.Mux, base string) {
	mux.Handle("GET "+base+"/auth/sessions", s.guard.Require("", s.listSessions))
	mux.Handle("DELETE "+base+"/auth/sessions/{id}", s.guard.Require("", s.endSession))
	mux.Handle("POST "+base+"/auth/sessions/sign-out-others", s.guard.Require("", s.signOutOthers))
	mux.Handle("POST "+base+"/auth/users/{id}/sign-out", s.guard.Require(PermEditUsers, s.signOutUser))
}

type sessionView struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
	Client     string    `json:"client"`
	Address    string    `json:"address"`
	Current    bool      `json:"current"`
}

// liveSessions are the user's sessions that still let someone in, newest first.
func (s *Service) liveSessions(ctx context.Context, scope store.Scope, u *User) ([]Session, error) {
	var all []Session
	err := s.st.Table.Get("PK", scope.Partition(kindSession)).Range("SK", dynamo.BeginsWith, u.ID+"#").
		Limit(maxListedSessions).Consistent(true).All(ctx, &all)
	if err != nil {
		return nil, store.Wrap("list sessions", err)
	}
	now := s.now()
	live := all[:0]
	for _, sess := range all {
		if sess.Epoch == u.SessionEpoch && now.Before(sess.ExpiresAt) {
			live = append(live, sess)
		}
	}
	sort.Slice(live, func(i, j int) bool { return live[i].CreatedAt.After(live[j].CreatedAt) })
	return live, nil
}

func (s *Service) listSessions(w http.ResponseWriter, r *http.Request) error {
	c := CallerFrom(r.Context())
	live, err := s.liveSessions(r.Context(), c.Scope, c.User)
	if err != nil {
		return err
	}
	out := make([]sessionView, 0, len(live))
	for _, sess := range live {
		out = append(out, sessionView{ID: sess.ID(), CreatedAt: sess.CreatedAt, LastUsedAt: sess.LastUsedAt,
			Client: sess.Client, Address: sess.Address, Current: sess.SK == c.Session.SK})
	}
	return api.OK(w, out)
}

// endSession signs one of the caller's own sessions out.
func (s *Service) endSession(w http.ResponseWriter, r *http.Request) error {
	c := CallerFrom(r.Context())
	id := r.PathValue("id")
	if !validSessionID(id) {
		return api.ErrNotFound
	}
	k := sessionKeyOf(c.Scope, c.User.ID, id)
	entry := audit.Item(c.Scope, audit.Entry{At: s.now(), UserID: c.User.ID, Username: c.User.Username, Action: audit.ActionLogout, Client: c.Client})
	err := s.st.WriteTx().Delete(s.st.Table.Delete("PK", k.PK).Range("SK", k.SK).If("attribute_exists(PK)")).Put(s.st.Table.Put(entry)).Run(r.Context())
	if dynamo.IsCondCheckFailed(err) {
		return api.ErrNotFound
	}
	if err != nil {
		return store.Wrap("end session", err)
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: "Signed out."})
}

// signOutOthers ends every session of the caller but the current one: a new epoch, which the
// current session moves to in the same transaction.
func (s *Service) signOutOthers(w http.ResponseWriter, r *http.Request) error {
	if err := api.DecodeOptional(r, &struct{}{}); err != nil {
		return err
	}
	ctx, c := r.Context(), CallerFrom(r.Context())
	live, err := s.liveSessions(ctx, c.Scope, c.User)
	if err != nil {
		return err
	}
	uk := UserKey(c.Scope, c.User.ID)
	up := s.st.Table.Update("PK", uk.PK).Range("SK", uk.SK)
	epoch := EndSessions(up, c.User.SessionEpoch)
	entry := audit.Item(c.Scope, audit.Entry{At: s.now(), UserID: c.User.ID, Username: c.User.Username, Action: audit.ActionSignOutOthers, Client: c.Client})
	err = s.st.WriteTx().
		Update(up).
		Update(s.st.Table.Update("PK", c.Session.PK).Range("SK", c.Session.SK).Set("epoch", epoch).If("attribute_exists(PK)")).
		Put(s.st.Table.Put(entry)).Run(ctx)
	if dynamo.IsCondCheckFailed(err) {
		return api.ErrConflict
	}
	if err != nil {
		return store.Wrap("sign out other sessions", err)
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]int{"ended": max(len(live)-1, 0)}, Message: "Signed out everywhere else."})
}

// signOutUser ends every session of another user (or all of the caller's own), under the rights
// rule: only an administrator acts on an administrator, and nobody on a user holding a right they
// lack.
func (s *Service) signOutUser(w http.ResponseWriter, r *http.Request) error {
	if err := api.DecodeOptional(r, &struct{}{}); err != nil {
		return err
	}
	ctx, c := r.Context(), CallerFrom(r.Context())
	// The epoch moves from the one read (EndSessions): when the user's own change (a password, a
	// second factor) moved it meanwhile, the user is read again and the sign-out lands after it.
	for range maxSignOutRounds {
		target, err := s.users.Get(ctx, c.Scope, r.PathValue("id"))
		if store.IsNotFound(err) {
			return api.ErrNotFound
		}
		if err != nil {
			return err
		}
		var roleCodes []string
		if target.RoleID != "" {
			role, err := LoadRole(ctx, s.st, c.Scope, target.RoleID)
			if err != nil && !store.IsNotFound(err) {
				return err
			}
			roleCodes = role.PermissionIDs
		}
		if err := MayActOn(c.User, target.IsAdmin, target.PermissionIDs, roleCodes); err != nil {
			return err
		}
		uk := UserKey(c.Scope, target.ID)
		up := s.st.Table.Update("PK", uk.PK).Range("SK", uk.SK).If("attribute_exists(PK)")
		EndSessions(up, target.SessionEpoch)
		entry := audit.Item(c.Scope, audit.Entry{At: s.now(), UserID: c.User.ID, Username: c.User.Username, Action: audit.ActionSignOutUser,
			Collection: KindUsers, RecordID: target.ID, Client: c.Client})
		err = s.st.WriteTx().Update(up).Put(s.st.Table.Put(entry)).Run(ctx)
		if dynamo.IsCondCheckFailed(err) {
			continue // deleted (the next read says so) or its epoch moved: read again
		}
		if err != nil {
			return store.Wrap("sign out user", err)
		}
		return api.JSON(w, http.StatusOK, api.Envelope{Result: true, Message: target.Username + " is signed out everywhere."})
	}
	return api.ErrConflict
}

// maxSignOutRounds bounds the reads of a sign-out whose user's epoch keeps moving under it.
const maxSignOutRounds = 5

// The rights rule's refusals of acting on a user (shared with the collections engine's users hooks).
var (
	ErrAdminTarget = &api.Error{Status: http.StatusForbidden, Message: "Only an administrator can change an administrator's account."}
	ErrUserMore    = &api.Error{Status: http.StatusForbidden, Message: "You cannot change an account that holds permissions you do not hold."}
)

// MayActOn refuses an action of me on a user who is an administrator or holds a right (its own
// or its role's) that me lacks; administrators may act on anyone.
func MayActOn(me *User, targetIsAdmin bool, own, role []string) error {
	if me.IsAdmin {
		return nil
	}
	if targetIsAdmin {
		return ErrAdminTarget
	}
	for _, codes := range [][]string{own, role} {
		for _, code := range codes {
			if !me.Can(code) {
				return ErrUserMore
			}
		}
	}
	return nil
}
