// Package tenants is the ops side of tenancy: creating an institution with its first admin and
// listing institutions. The dev server's seed, the cmsctl CLI and the tests share it.
package tenants

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
)

// ErrExists is returned when creating a tenant whose id is taken.
var ErrExists = errors.New("tenants: tenant already exists")

// NewTenant is what creating a tenant takes.
type NewTenant struct {
	ID, Name                     string
	AdminUsername, AdminPassword string
	// Plan is the billing plan's id; empty means the catalogue's first plan.
	Plan string
}

// Create writes the tenant's details (on its plan), its settings singletons (header, footer,
// theme settings, SEO defaults) with their declared defaults, the Administrator role and its
// admin user (isAdmin) with the given password.
func Create(ctx context.Context, st *store.Store, in NewTenant) (auth.User, error) {
	scope, err := store.NewScope(in.ID)
	if err != nil {
		return auth.User{}, fmt.Errorf("tenants: %w (use 2-40 of a-z, 0-9 and -)", err)
	}
	if in.Name == "" {
		return auth.User{}, errors.New("tenants: a name is required")
	}
	if msg := auth.ValidateUsername(in.AdminUsername); msg != "" {
		return auth.User{}, fmt.Errorf("tenants: admin username: %s", msg)
	}
	if msg := auth.ValidatePassword(in.AdminPassword); msg != "" {
		return auth.User{}, fmt.Errorf("tenants: admin password: %s", msg)
	}
	if in.Plan == "" {
		if in.Plan, err = plans.Default(); err != nil {
			return auth.User{}, err
		}
	}
	if err := plans.Check(in.Plan); err != nil {
		return auth.User{}, err
	}
	now := time.Now().UTC()
	reg, err := collections.Load()
	if err != nil {
		return auth.User{}, err
	}
	role := administratorRole(scope, reg, now)
	details := scope.TenantItem(in.Name, now)
	details.PlanID = in.Plan
	// One transaction: tenant, role, settings singletons, admin and its username, so a failure
	// leaves no tenant without an admin behind (which a second run would then report as "already
	// exists"). The tenant item leads: if the id is taken, its condition is the one that fails.
	// The role and the admin are recorded as any create of a record is (collections.SideEffects:
	// their list index attributes, words, counters and audit entries), so both appear in /roles
	// and /users; the admin's reference to the role is counted in the role's item, which the same
	// transaction puts.
	caller := auth.OperatorCaller(scope)
	roleFx, err := collections.SideEffects(ctx, st, collections.Change{Caller: caller, Kind: collections.KindOf(reg[auth.KindRoles]),
		Action: collections.ActionCreate, After: role, At: now})
	if err != nil {
		return auth.User{}, err
	}
	admin, err := auth.NewUser(scope, auth.NewUserInput{Username: in.AdminUsername, Password: in.AdminPassword,
		FirstName: "Admin", LastName: in.Name, IsAdmin: true, RoleID: role["id"].(string)}, now)
	if err != nil {
		return auth.User{}, err
	}
	adminRec, err := collections.UserRecord(&admin)
	if err != nil {
		return auth.User{}, err
	}
	adminFx, err := collections.SideEffects(ctx, st, collections.Change{Caller: caller, Kind: collections.KindOf(reg[auth.KindUsers]),
		Action: collections.ActionCreate, After: adminRec, At: now})
	if err != nil {
		return auth.User{}, err
	}
	adminFx.Fold(auth.KindRoles, role["id"].(string), role)
	user, marker, err := auth.NewUserItems(st, scope, admin, adminFx.Attributes)
	if err != nil {
		return auth.User{}, err
	}
	tx := st.WriteTx().Put(st.Table.Put(details).If("attribute_not_exists(PK)")).
		Put(st.Table.Put(roleFx.Stored(role))).Put(createdEntry(st, scope, now)).Put(marker).Put(user)
	for _, p := range singletons(st, scope, reg, now) {
		tx.Put(p)
	}
	roleFx.AddTo(st, scope, tx)
	adminFx.AddTo(st, scope, tx)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return auth.User{}, fmt.Errorf("%w: %s", ErrExists, in.ID)
	}
	if err != nil {
		return auth.User{}, store.Wrap("create tenant", err)
	}
	return admin, nil
}

// createdEntry is the first entry of the tenant's audit log: created by the operator's tool.
func createdEntry(st *store.Store, scope store.Scope, now time.Time) *dynamo.Put {
	return st.Table.Put(audit.Item(scope, collections.AuditEntry(auth.OperatorCaller(scope), now, collections.ActionCreate, "tenant", scope.Tenant())))
}

// administratorRole is the role every new tenant starts with (DESIGN §4): every permission of
// the catalogue. Its first user is the admin, counted in its refCount by Create.
func administratorRole(scope store.Scope, reg collections.Registry, now time.Time) map[string]any {
	codes := []string{}
	for _, p := range reg.Catalogue() {
		codes = append(codes, p.ID)
	}
	id, at := ids.New(), now.Format(time.RFC3339Nano)
	return map[string]any{"PK": scope.Collection(auth.KindRoles), "SK": id, "id": id, "name": "Administrator",
		"description": "Every permission. Created with the institution.", "permissionIds": codes, "status": true,
		"version": 1, "createdAt": at, "updatedAt": at}
}

// singletons are the declared defaults of every singleton collection, so tenant-info shows the
// theme settings and SEO defaults from the start.
func singletons(st *store.Store, scope store.Scope, reg collections.Registry, now time.Time) []*dynamo.Put {
	at := now.Format(time.RFC3339Nano)
	var out []*dynamo.Put
	for _, key := range reg.Keys() {
		c := reg[key]
		if c.Singleton == "" {
			continue
		}
		rec := collections.SingletonDefaults(scope, c)
		rec["PK"], rec["SK"], rec["version"], rec["createdAt"], rec["updatedAt"] = scope.Root(), c.Singleton, 1, at, at
		for k, v := range rec {
			if v == "" {
				delete(rec, k)
			}
		}
		out = append(out, st.Table.Put(rec))
	}
	return out
}

// List returns every tenant, sorted by id. It scans the table: ops tooling only, never a request path.
func List(ctx context.Context, st *store.Store) ([]store.Tenant, error) {
	var out []store.Tenant
	if err := st.Table.Scan().Filter("SK = ?", store.SKTenant).All(ctx, &out); err != nil {
		return nil, store.Wrap("list tenants", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ResetPassword sets a user's password by username, ending the user's sessions.
func ResetPassword(ctx context.Context, st *store.Store, tenant, username, password string) error {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return err
	}
	if msg := auth.ValidatePassword(password); msg != "" {
		return errors.New("tenants: " + msg)
	}
	users := auth.NewUsers(st, collections.NewUserRecorder(st))
	u, err := users.ByUsername(ctx, scope, username)
	if err != nil {
		return fmt.Errorf("tenants: user %q of %q: %w", username, tenant, err)
	}
	return users.SetPassword(ctx, scope, u.ID, password)
}

// ResetTwoFactor turns a user's two-factor sign-in off by username and ends the user's sessions.
func ResetTwoFactor(ctx context.Context, st *store.Store, tenant, username string) error {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return err
	}
	users := auth.NewUsers(st, collections.NewUserRecorder(st))
	u, err := users.ByUsername(ctx, scope, username)
	if err != nil {
		return fmt.Errorf("tenants: user %q of %q: %w", username, tenant, err)
	}
	return users.ResetTwoFactor(ctx, scope, u.ID)
}

// SetPasscode sets a user's 6-digit login passcode by username.
func SetPasscode(ctx context.Context, st *store.Store, tenant, username, passcode string) error {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return err
	}
	if !auth.IsPasscodeShaped(passcode) {
		return errors.New("tenants: a passcode is exactly 6 digits")
	}
	users := auth.NewUsers(st, collections.NewUserRecorder(st))
	u, err := users.ByUsername(ctx, scope, username)
	if err != nil {
		return fmt.Errorf("tenants: user %q of %q: %w", username, tenant, err)
	}
	return users.SetPasscode(ctx, scope, u.ID, passcode)
}
