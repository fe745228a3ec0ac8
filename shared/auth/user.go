package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
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

// Users is the user store of the auth package.
type Users struct{ st *store.Store }

// NewUsers returns the user store.
func NewUsers(st *store.Store) *Users { return &Users{st: st} }

// NewUserInput is what creating a user takes.
type NewUserInput struct {
	Username, Password, FirstName, LastName, Email, Phone, RoleID string
	IsAdmin                                                       bool
	// Index, when set, returns attributes stored with the user: the listing's index keys, which
	// this package does not know how to build.
	Index func(id, username string, at time.Time) map[string]any
}

// Create writes the user and its username marker in one transaction, after the extra items if any
// (tenants.Create puts the tenant and its role there, so a new institution is all or nothing);
// store.ErrConflict if the username is taken in this tenant.
func (us *Users) Create(ctx context.Context, scope store.Scope, in NewUserInput, extra ...*dynamo.Put) (User, error) {
	hash, err := HashSecret(in.Password)
	if err != nil {
		return User{}, err
	}
	now := time.Now().UTC()
	id := ids.New()
	key := UserKey(scope, id)
	u := User{PK: key.PK, SK: key.SK, ID: id, Username: strings.TrimSpace(in.Username), FirstName: in.FirstName, LastName: in.LastName,
		Email: in.Email, Phone: in.Phone, RoleID: in.RoleID, Status: true, IsAdmin: in.IsAdmin, PasswordHash: hash, Version: 1, CreatedAt: now, UpdatedAt: now}
	mk := UsernameKey(scope, u.Username)
	tx := us.st.WriteTx()
	for _, p := range extra {
		tx.Put(p)
	}
	item, err := dynamo.MarshalItem(u)
	if err != nil {
		return User{}, fmt.Errorf("auth: marshal user: %w", err)
	}
	if in.Index != nil {
		for name, v := range in.Index(id, u.Username, now) {
			if item[name], err = dynamo.Marshal(v); err != nil {
				return User{}, fmt.Errorf("auth: marshal user index: %w", err)
			}
		}
	}
	tx.Put(us.st.Table.Put(usernameMarker{PK: mk.PK, SK: mk.SK, UserID: id}).If("attribute_not_exists(PK)")).
		Put(us.st.Table.Put(item).If("attribute_not_exists(PK)"))
	if in.Index != nil {
		// Listed, so found by its names too (the list's word search).
		for _, e := range listing.WordEntries(key.PK, id, UserWords(u.FirstName, u.LastName, u.Username)) {
			tx.Put(us.st.Table.Put(e))
		}
	}
	if err := tx.Run(ctx); err != nil {
		return User{}, store.Wrap("create user", err)
	}
	return u, nil
}

// UserWords are the words a user is found by in the users list: the words of its first name,
// last name and username, the fields the users collection declares searchable (collections.json
// "search"; a collections test holds the two together).
func UserWords(first, last, username string) []string { return words.Of(first, last, username) }

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

// SetPassword replaces the password and ends every session of the user.
func (us *Users) SetPassword(ctx context.Context, scope store.Scope, id, password string) error {
	hash, err := HashSecret(password)
	if err != nil {
		return err
	}
	return us.endSessionsWith(ctx, scope, id, "set password of "+id, func(up *dynamo.Update) *dynamo.WriteTx {
		return us.st.WriteTx().Update(up.Set("passwordHash", hash).Set("updatedAt", time.Now().UTC()))
	})
}

// endSessionsWith writes, for ops, a change of user id that ends its sessions: write adds the
// change to the update of the user (which moves its epoch by EndSessions, and its version) and
// returns the transaction to run. A race with another move of the epoch reads the user again.
func (us *Users) endSessionsWith(ctx context.Context, scope store.Scope, id, op string, write func(*dynamo.Update) *dynamo.WriteTx) error {
	for range maxSignOutRounds {
		u, err := us.Get(ctx, scope, id)
		if err != nil {
			return store.Wrap(op, err)
		}
		k := UserKey(scope, id)
		up := us.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("version", 1).If("attribute_exists(PK)")
		EndSessions(up, u.SessionEpoch)
		err = write(up).Run(ctx)
		if !dynamo.IsCondCheckFailed(err) {
			return store.Wrap(op, err)
		}
	}
	return fmt.Errorf("auth: %s: %w", op, store.ErrConflict)
}

// SetPasscode replaces the passcode (6 digits) of the user.
func (us *Users) SetPasscode(ctx context.Context, scope store.Scope, id, passcode string) error {
	hash, err := HashSecret(passcode)
	if err != nil {
		return err
	}
	k := UserKey(scope, id)
	err = us.st.Table.Update("PK", k.PK).Range("SK", k.SK).
		Set("passcodeHash", hash).Add("version", 1).Set("updatedAt", time.Now().UTC()).
		If("attribute_exists(PK)").Run(ctx)
	return store.Wrap(fmt.Sprintf("set passcode of %s", id), err)
}
