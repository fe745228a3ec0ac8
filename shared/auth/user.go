package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Collection names of the items this package owns.
const (
	KindUsers    = "users"
	KindRoles    = "roles"
	kindUsername = "USERNAME"
	kindSession  = "SESSION"
)

// User is a staff account of one tenant.
type User struct {
	PK            string   `dynamo:"PK,hash" json:"-"`
	SK            string   `dynamo:"SK,range" json:"-"`
	ID            string   `dynamo:"id" json:"id"`
	Username      string   `dynamo:"username" json:"username"`
	FirstName     string   `dynamo:"firstName" json:"firstName"`
	LastName      string   `dynamo:"lastName" json:"lastName"`
	Email         string   `dynamo:"email" json:"email"`
	Phone         string   `dynamo:"phone" json:"phone"`
	Image         string   `dynamo:"image" json:"image"`
	RoleID        string   `dynamo:"roleId" json:"roleId"`
	Status        bool     `dynamo:"status" json:"status"`
	IsAdmin       bool     `dynamo:"isAdmin" json:"isAdmin"`
	PermissionIDs []string `dynamo:"permissionIds" json:"permissionIds"`
	PasswordHash  string   `dynamo:"passwordHash" json:"-"`
	// RolePermissionIDs are the codes of the user's role, filled in by the guard.
	RolePermissionIDs []string `dynamo:"-" json:"-"`
	PasscodeHash      string   `dynamo:"passcodeHash" json:"-"`
	SessionEpoch      int      `dynamo:"sessionEpoch" json:"-"`
	// Two-factor sign-in: the TOTP key sealed by package secrets (never shown, never logged),
	// the key being enrolled until its first code confirms it, the last step a code was accepted
	// for (each step works once), and the hashes of the unused recovery codes.
	TOTPKey        string   `dynamo:"totpKey,omitempty" json:"-"`
	TOTPPendingKey string   `dynamo:"totpPendingKey,omitempty" json:"-"`
	TOTPLastStep   int64    `dynamo:"totpLastStep,omitempty" json:"-"`
	RecoveryHashes []string `dynamo:"recoveryHashes,set,omitempty" json:"-"`
	// TwoFactorRequired is whether the tenant's policy requires two-factor sign-in of the user
	// (everyone, or the user's role); filled in with the role.
	TwoFactorRequired bool      `dynamo:"-" json:"-"`
	Version           int       `dynamo:"version" json:"version"`
	CreatedAt         time.Time `dynamo:"createdAt" json:"createdAt"`
	UpdatedAt         time.Time `dynamo:"updatedAt" json:"updatedAt"`
}

// UserKey is the primary key of a user record.
func UserKey(scope store.Scope, id string) store.Key {
	return store.Key{PK: scope.Collection(KindUsers), SK: id}
}

// UsernameKey is the key of the marker item that makes a username unique within its tenant.
func UsernameKey(scope store.Scope, username string) store.Key {
	return store.Key{PK: scope.Partition(kindUsername), SK: strings.ToLower(strings.TrimSpace(username))}
}

type usernameMarker struct {
	PK     string `dynamo:"PK,hash"`
	SK     string `dynamo:"SK,range"`
	UserID string `dynamo:"userId"`
}

// Role is a named set of permission codes; a user holds its role's codes plus its own.
type Role struct {
	ID               string   `dynamo:"id"`
	Status           bool     `dynamo:"status"`
	PermissionIDs    []string `dynamo:"permissionIds"`
	RequireTwoFactor bool     `dynamo:"requireTwoFactor"`
}

// SecurityKey is the key of the tenant's security settings (the security-settings singleton,
// declared in collections.json and edited through the collections engine).
func SecurityKey(scope store.Scope) store.Key {
	return store.Key{PK: scope.Root(), SK: store.SKSecurity}
}

// securitySettings is what the auth package reads of the security settings.
type securitySettings struct {
	RequireTwoFactor bool `dynamo:"requireTwoFactor"`
}

// withRole fills in the codes of the user's role (an active one; admins need none) and whether
// two-factor sign-in is required of the user: by everyone (the tenant's setting) or by its role
// (even a disabled one: switching a role off must not relax its users' sign-in).
func withRole(ctx context.Context, st *store.Store, scope store.Scope, u *User, everyone bool) error {
	u.TwoFactorRequired = everyone
	if u.IsAdmin || u.RoleID == "" {
		return nil
	}
	role, err := LoadRole(ctx, st, scope, u.RoleID)
	if err != nil && !store.IsNotFound(err) {
		return err
	}
	if err == nil {
		applyRole(u, role, everyone)
	}
	return nil
}

func applyRole(u *User, role Role, everyone bool) {
	u.TwoFactorRequired = everyone || role.RequireTwoFactor
	if role.Status {
		u.RolePermissionIDs = role.PermissionIDs
	}
}

// withPolicy is withRole reading the tenant's security settings too, in the same round trip.
func withPolicy(ctx context.Context, st *store.Store, scope store.Scope, u *User) error {
	sk := SecurityKey(scope)
	keys := []store.Key{sk}
	rk := store.Key{PK: scope.Collection(KindRoles), SK: u.RoleID}
	hasRole := !u.IsAdmin && u.RoleID != ""
	if hasRole {
		keys = append(keys, rk)
	}
	items, err := st.GetMany(ctx, keys...)
	if err != nil {
		return err
	}
	var sec securitySettings
	if _, err := store.Decode(items, sk, &sec); err != nil {
		return err
	}
	u.TwoFactorRequired = sec.RequireTwoFactor
	if hasRole {
		var role Role
		ok, err := store.Decode(items, rk, &role)
		if err != nil {
			return err
		}
		if ok {
			applyRole(u, role, sec.RequireTwoFactor)
		}
	}
	return nil
}

// LoadRole reads one role of the tenant; store.ErrNotFound if there is none.
func LoadRole(ctx context.Context, st *store.Store, scope store.Scope, id string) (Role, error) {
	var role Role
	err := st.Get(ctx, store.Key{PK: scope.Collection(KindRoles), SK: id}, &role)
	return role, err
}

// Permissions returns the user's effective permission codes: its own and its role's. Admins pass
// every check regardless.
func (u *User) Permissions() []string {
	if u.PermissionIDs == nil {
		u.PermissionIDs = []string{}
	}
	if len(u.RolePermissionIDs) == 0 {
		return u.PermissionIDs
	}
	seen := map[string]bool{}
	out := []string{}
	for _, list := range [][]string{u.PermissionIDs, u.RolePermissionIDs} {
		for _, p := range list {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Can reports whether the user holds the permission code; admins hold every code, and the empty
// code means "any signed-in user".
func (u *User) Can(code string) bool {
	if u.IsAdmin || code == "" {
		return true
	}
	for _, list := range [][]string{u.PermissionIDs, u.RolePermissionIDs} {
		for _, p := range list {
			if p == code {
				return true
			}
		}
	}
	return false
}

// Users is the user store of the auth package: its writes are recorded by rec.
type Users struct {
	st  *store.Store
	rec Recorder
}

// NewUsers returns the user store; rec records its writes (collections.NewUserRecorder).
func NewUsers(st *store.Store, rec Recorder) *Users { return &Users{st: st, rec: rec} }

// NewUserInput is what creating a user takes.
type NewUserInput struct {
	Username, Password, FirstName, LastName, Email, Phone, RoleID string
	IsAdmin                                                       bool
}

// NewUser is a new, active user of the tenant of scope made from in, its password hashed: version
// 1, created at now. Nothing is written.
func NewUser(scope store.Scope, in NewUserInput, now time.Time) (User, error) {
	hash, err := HashSecret(in.Password)
	if err != nil {
		return User{}, err
	}
	now = now.UTC()
	id := ids.New()
	key := UserKey(scope, id)
	return User{PK: key.PK, SK: key.SK, ID: id, Username: strings.TrimSpace(in.Username), FirstName: in.FirstName, LastName: in.LastName,
		Email: in.Email, Phone: in.Phone, RoleID: in.RoleID, Status: true, IsAdmin: in.IsAdmin, PasswordHash: hash, Version: 1,
		CreatedAt: now, UpdatedAt: now}, nil
}

// NewUserItems are the items that store new user u: the user (attrs added: its index
// attributes) and its username marker, each put only where nothing is.
func NewUserItems(st *store.Store, scope store.Scope, u User, attrs map[string]any) (user, marker *dynamo.Put, err error) {
	item, err := dynamo.MarshalItem(u)
	if err != nil {
		return nil, nil, fmt.Errorf("auth: marshal user: %w", err)
	}
	for name, v := range attrs {
		if item[name], err = dynamo.Marshal(v); err != nil {
			return nil, nil, fmt.Errorf("auth: marshal user index: %w", err)
		}
	}
	mk := UsernameKey(scope, u.Username)
	return st.Table.Put(item).If("attribute_not_exists(PK)"),
		st.Table.Put(usernameMarker{PK: mk.PK, SK: mk.SK, UserID: u.ID}).If("attribute_not_exists(PK)"), nil
}

// Create writes a new user as caller, with its username marker and what records it (its list
// index attributes and words, its collection's counter, the role's reference count, the audit
// entry) in one transaction; store.ErrConflict if the username is taken in this tenant.
func (us *Users) Create(ctx context.Context, caller *Caller, in NewUserInput) (User, error) {
	now := time.Now().UTC()
	u, err := NewUser(caller.Scope, in, now)
	if err != nil {
		return User{}, err
	}
	rec, err := us.rec.RecordUser(ctx, UserChange{Caller: caller, Action: "create", After: &u, At: now})
	if err != nil {
		return User{}, err
	}
	user, marker, err := NewUserItems(us.st, caller.Scope, u, rec.Attributes)
	if err != nil {
		return User{}, err
	}
	tx := us.st.WriteTx().Put(marker).Put(user)
	rec.AddTo(tx)
	if err := tx.Run(ctx); err != nil {
		return User{}, store.Wrap("create user", err)
	}
	return u, nil
}

// Get loads a user by id.
func (us *Users) Get(ctx context.Context, scope store.Scope, id string) (User, error) {
	var u User
	err := us.st.Get(ctx, UserKey(scope, id), &u)
	return u, err
}

// ByUsername loads a user by username (case-insensitive).
func (us *Users) ByUsername(ctx context.Context, scope store.Scope, username string) (User, error) {
	var m usernameMarker
	if err := us.st.Get(ctx, UsernameKey(scope, username), &m); err != nil {
		return User{}, err
	}
	return us.Get(ctx, scope, m.UserID)
}

// List returns every user of the tenant (ops tooling; the panel's list is paged by the users collection).
func (us *Users) List(ctx context.Context, scope store.Scope) ([]User, error) {
	var out []User
	err := us.st.Table.Get("PK", scope.Collection(KindUsers)).All(ctx, &out)
	return out, store.Wrap("list users", err)
}

// SetPassword replaces the password of user id and ends every session of the user, for the
// operator (cmsctl user reset-password): versioned and audited as a "password" change by
// Operator, never with the hash.
func (us *Users) SetPassword(ctx context.Context, scope store.Scope, id, password string) error {
	hash, err := HashSecret(password)
	if err != nil {
		return err
	}
	return us.change(ctx, OperatorCaller(scope), id, "set password of "+id, true, []string{"password"}, func(up *dynamo.Update, _ *User) {
		up.Set("passwordHash", hash)
	})
}

// SetPasscode replaces the passcode (6 digits) of user id, for the operator (cmsctl user
// set-passcode): versioned and audited as a "passcode" change by Operator.
func (us *Users) SetPasscode(ctx context.Context, scope store.Scope, id, passcode string) error {
	hash, err := HashSecret(passcode)
	if err != nil {
		return err
	}
	return us.change(ctx, OperatorCaller(scope), id, "set passcode of "+id, false, []string{"passcode"}, func(up *dynamo.Update, _ *User) {
		up.Set("passcodeHash", hash)
	})
}

// change writes, for the operator, a change of user id beside its declared fields (named by
// also): edit adds it to the user's update, which moves the version and updatedAt from those
// read (and, with endSessions, the session epoch by EndSessions), with what records it in the
// same transaction. A race with another write of the user reads it again.
func (us *Users) change(ctx context.Context, caller *Caller, id, op string, endSessions bool, also []string, edit func(*dynamo.Update, *User)) error {
	for range maxSignOutRounds {
		u, err := us.Get(ctx, caller.Scope, id)
		if err != nil {
			return store.Wrap(op, err)
		}
		now := time.Now().UTC()
		after := u
		after.Version, after.UpdatedAt = u.Version+1, now
		rec, err := us.rec.RecordUser(ctx, UserChange{Caller: caller, Action: "update", Before: &u, After: &after, AlsoChanged: also, At: now})
		if err != nil {
			return err
		}
		k := UserKey(caller.Scope, id)
		up := us.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("version", after.Version).Set("updatedAt", now).
			If("attribute_exists(PK) AND version = ?", u.Version)
		if endSessions {
			EndSessions(up, u.SessionEpoch)
		}
		edit(up, &after)
		rec.Set(up)
		tx := us.st.WriteTx().Update(up)
		rec.AddTo(tx)
		err = tx.Run(ctx)
		if !store.CondFailedAt(err, 0) {
			return store.Wrap(op, err)
		}
	}
	return fmt.Errorf("auth: %s: %w", op, store.ErrConflict)
}
