package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// versionsOf lists a user's kept versions, newest first.
func versionsOf(t *testing.T, tn testkit.Tenant, id string) []map[string]any {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: "/users/" + id + "/versions", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, res, http.StatusOK, "")
	var out []map[string]any
	for _, v := range res.Body["result"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

// keptState reads one kept version of a user straight from the table, with everything it holds.
func keptState(t *testing.T, tenant, id string, version int) collections.Record {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := collections.KeptState(context.Background(), testkit.Deps(t).Store, scope, "users", id, version, time.Now())
	if err != nil {
		t.Fatalf("version %d of user %s: %v", version, id, err)
	}
	return rec
}

// noSecret fails the test if a kept state or an audit entry holds anything of a secret.
func noSecret(t *testing.T, what string, raw string) {
	t.Helper()
	for _, s := range []string{"passwordHash", "passcodeHash", "totpKey", "totpPendingKey", "recoveryHashes", "sessionEpoch", "$argon2"} {
		if strings.Contains(raw, s) {
			t.Fatalf("%s holds %s: %s", what, s, raw)
		}
	}
}

// auditOf lists the audit entries of one user record, newest first.
func auditOf(t *testing.T, tn testkit.Tenant, id string) []map[string]any {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: "/audit-log?collection=users&limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	expect(t, res, http.StatusOK, "")
	var out []map[string]any
	for _, e := range res.Body["result"].([]any) {
		if e := e.(map[string]any); e["recordId"] == id {
			out = append(out, e)
		}
	}
	return out
}

// TestProfileChangeKeepsAVersion (issue 39, item 5): PATCH /auth/me keeps the profile it replaces
// as a version, like any edit of a user, so restoring an older version after a profile change is
// a choice the History panel shows (the profile's own version sits between them) and is itself
// undone by restoring the version it replaced; nothing of the change is silently lost.
func TestProfileChangeKeepsAVersion(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "username": "ada", "password": "ada-pass-1", "email": "ada@old.example"}})
	expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)
	// An administrator's edit: version 1 is kept.
	expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/users/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"lastName": "King", "version": 1}}), http.StatusOK, "")
	// Her own profile change, with a new password: version 2 is kept, naming what changed.
	token := testkit.Login(t, tn.ID, "ada", "ada-pass-1")
	expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/auth/me", Tenant: tn.ID, Token: token, Body: map[string]any{
		"username": "ada", "email": "ada@new.example", "phone": "5550001111", "password": "ada-pass-2", "currentPassword": "ada-pass-1"}}),
		http.StatusOK, "Profile updated!")
	versions := versionsOf(t, tn, id)
	if len(versions) != 2 || versions[0]["version"] != float64(2) || versions[1]["version"] != float64(1) {
		t.Fatalf("versions after the profile change: %v", versions)
	}
	if got := fmt.Sprint(versions[0]["changed"]); got != "[email phone password]" || versions[0]["by"] != id {
		t.Fatalf("the profile change's version names %s by %v", got, versions[0]["by"])
	}
	kept := keptState(t, tn.ID, id, 2)
	if kept["email"] != "ada@old.example" || kept["lastName"] != "King" {
		t.Fatalf("version 2 keeps %v", kept)
	}
	noSecret(t, "version 2", fmt.Sprint(kept))
	entries := auditOf(t, tn, id)
	if len(entries) == 0 || fmt.Sprint(entries[0]["changed"]) != "[email phone password]" {
		t.Fatalf("audit entries of the user: %v", entries)
	}

	// Restoring version 1 is an explicit choice, and the profile's state it replaces is kept as
	// version 3: restoring that brings the profile change back.
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/users/" + id + "/versions/1/restore", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": 3}}), http.StatusOK, "")
	user := testkit.Call(t, call{Method: "GET", Path: "/users/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	if user.Get("result.email") != "ada@old.example" || user.Get("result.lastName") != "Lovelace" {
		t.Fatalf("after restoring version 1: %s", user.Raw)
	}
	if kept := keptState(t, tn.ID, id, 3); kept["email"] != "ada@new.example" || kept["phone"] != "5550001111" {
		t.Fatalf("version 3 keeps %v", kept)
	}
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/users/" + id + "/versions/3/restore", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": 4}}), http.StatusOK, "")
	user = testkit.Call(t, call{Method: "GET", Path: "/users/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	if user.Get("result.email") != "ada@new.example" || user.Get("result.phone") != "5550001111" || user.Get("result.lastName") != "King" {
		t.Fatalf("after restoring version 3: %s", user.Raw)
	}
	// A restore never touches the password: the one she set still signs her in.
	testkit.Login(t, tn.ID, "ada", "ada-pass-2")
}

// TestTwoFactorChangesKeepAVersion (issue 39, item 5): turning two-factor sign-in on, making new
// recovery codes and turning it off each keep the user's state they replace and are audited as a
// "twoFactor" change, with no key, code or hash in either.
func TestTwoFactorChangesKeepAVersion(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	secret := testkit.EnableTwoFactor(t, tn.ID, tn.AdminToken, tn.AdminPassword)
	codes := testkit.Call(t, call{Method: "POST", Path: "/auth/two-factor/recovery-codes", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"password": tn.AdminPassword, "code": testkit.TOTP(t, secret, 1)}})
	expect(t, codes, http.StatusOK, "")
	expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/two-factor/disable", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"password": tn.AdminPassword, "recoveryCode": codes.Get("result.recoveryCodes.0")}}), http.StatusOK, "Two-factor sign-in is off.")
	versions := versionsOf(t, tn, tn.AdminID)
	if len(versions) != 3 {
		t.Fatalf("versions after three two-factor changes: %v", versions)
	}
	for i, v := range versions {
		if fmt.Sprint(v["changed"]) != "[twoFactor]" || v["by"] != tn.AdminID || v["version"] != float64(3-i) {
			t.Fatalf("version %d: %v", i, v)
		}
		noSecret(t, fmt.Sprint("version ", v["version"]), fmt.Sprint(keptState(t, tn.ID, tn.AdminID, 3-i)))
	}
	changes := 0
	for _, e := range auditOf(t, tn, tn.AdminID) {
		if fmt.Sprint(e["changed"]) == "[twoFactor]" {
			changes++
		}
		noSecret(t, "an audit entry", fmt.Sprint(e))
	}
	if changes != 3 {
		t.Fatalf("%d audit entries name the two-factor changes, want 3", changes)
	}
}

// TestOperatorResetsAreRecorded (issue 39, item 5): the operator's password, passcode and
// two-factor resets (cmsctl) keep the user's state they replace and are audited, by the
// operator's fixed user, naming what changed and never its value.
func TestOperatorResetsAreRecorded(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	testkit.EnableTwoFactor(t, tn.ID, tn.AdminToken, tn.AdminPassword)
	st, scope := testkit.Deps(t).Store, mustScope(t, tn.ID)
	users := auth.NewUsers(st, collections.NewUserRecorder(st))
	ctx := context.Background()
	if err := users.SetPassword(ctx, scope, tn.AdminID, "reset-pass-1"); err != nil {
		t.Fatal(err)
	}
	if err := users.SetPasscode(ctx, scope, tn.AdminID, "135790"); err != nil {
		t.Fatal(err)
	}
	if err := users.ResetTwoFactor(ctx, scope, tn.AdminID); err != nil {
		t.Fatal(err)
	}
	// The resets ended the admin's sessions; the new password signs in.
	tn.AdminToken = testkit.Login(t, tn.ID, tn.AdminUsername, "reset-pass-1")
	versions := versionsOf(t, tn, tn.AdminID)
	var changed []string
	for _, v := range versions[:3] {
		changed = append(changed, fmt.Sprint(v["changed"]))
		if v["by"] != auth.OperatorID || v["byName"] != auth.Operator.Username {
			t.Fatalf("a reset's version is by %v (%v)", v["by"], v["byName"])
		}
		noSecret(t, fmt.Sprint("version ", v["version"]), fmt.Sprint(keptState(t, tn.ID, tn.AdminID, int(v["version"].(float64)))))
	}
	if got := strings.Join(changed, " "); got != "[twoFactor] [passcode] [password]" {
		t.Fatalf("the resets' versions name %s", got)
	}
	var audited []string
	for _, e := range auditOf(t, tn, tn.AdminID) {
		if e["userId"] == auth.OperatorID && e["action"] == "update" {
			audited = append(audited, fmt.Sprint(e["changed"]))
		}
		noSecret(t, "an audit entry", fmt.Sprint(e))
	}
	if !slices.Equal(audited, changed) {
		t.Fatalf("the operator's audit entries name %v, want %v", audited, changed)
	}
}

func mustScope(t *testing.T, tenant string) store.Scope {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	return scope
}
