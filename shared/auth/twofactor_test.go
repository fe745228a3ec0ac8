package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// code is the code an authenticator app shows for secret at step offset (0 = now).
var code = testkit.TOTP

// staff creates a user of the tenant (no permissions unless given) and returns its username.
func staff(t *testing.T, tn testkit.Tenant, body map[string]any) string {
	t.Helper()
	name := fmt.Sprintf("tf%d", time.Now().UnixNano()%1e9)
	in := map[string]any{"firstName": "Two", "lastName": "Factor", "username": name, "password": "staff-pass-1"}
	for k, v := range body {
		in[k] = v
	}
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: in}), http.StatusCreated, "")
	return name
}

func do(t *testing.T, tenant, token, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tenant, Token: token, Body: body})
}

// enrol turns two-factor sign-in on for a signed-in user (of staff's password) and returns its key
// and recovery codes.
func enrol(t *testing.T, tenant, token string) (string, []string) {
	t.Helper()
	res := do(t, tenant, token, "POST", "/auth/two-factor/setup", map[string]any{})
	testkit.Expect(t, res, http.StatusOK, "")
	secret := res.Get("result.secret").(string)
	if uri := res.Get("result.uri").(string); !strings.HasPrefix(uri, "otpauth://totp/") || !strings.Contains(uri, "secret="+secret) {
		t.Fatalf("uri %q", uri)
	}
	res = do(t, tenant, token, "POST", "/auth/two-factor/enable", map[string]any{"code": "000000x", "password": "staff-pass-1"})
	testkit.Expect(t, res, http.StatusBadRequest, "The code is not valid. Try again.")
	res = do(t, tenant, token, "POST", "/auth/two-factor/enable", map[string]any{"code": code(t, secret, 0), "password": "staff-pass-1"})
	testkit.Expect(t, res, http.StatusOK, "Two-factor sign-in is on.")
	var codes []string
	for _, c := range res.Get("result.recoveryCodes").([]any) {
		codes = append(codes, c.(string))
	}
	if len(codes) != 10 {
		t.Fatalf("%d recovery codes", len(codes))
	}
	return secret, codes
}

// login signs in with the password and returns the answer's result.
func login(t *testing.T, tenant, username, password string) testkit.Response {
	t.Helper()
	return do(t, tenant, "", "POST", "/auth/login", map[string]any{"username": username, "password": password})
}

// nextStep waits until the current 30-second step is a new one (a code works once per step).
func nextStep() {
	now := time.Now()
	time.Sleep(time.Duration(30-now.Unix()%30)*time.Second - time.Duration(now.Nanosecond()) + 50*time.Millisecond)
}

func TestTwoFactorEnrolAndSignIn(t *testing.T) {
	t.Parallel()
	logs := testkit.CaptureLogs(t)
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, "staff-pass-1")
	other := testkit.Login(t, tn.ID, name, "staff-pass-1")
	secret, codes := enrol(t, tn.ID, token)

	// Turning it on ended the other session, not this one.
	testkit.Expect(t, do(t, tn.ID, other, "GET", "/auth/me", nil), http.StatusUnauthorized, "")
	me := do(t, tn.ID, token, "GET", "/auth/me", nil)
	testkit.Expect(t, me, http.StatusOK, "")
	if me.Get("result.twoFactor.enabled") != true || me.Get("result.twoFactor.recoveryCodesLeft") != 10.0 {
		t.Fatalf("me: %s", me.Raw)
	}
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/setup", map[string]any{}), http.StatusConflict, "Two-factor sign-in is already on.")

	// The password alone yields a challenge, no session.
	res := login(t, tn.ID, name, "staff-pass-1")
	testkit.Expect(t, res, http.StatusOK, "Enter the code from your authenticator app.")
	if res.Get("result.token") != nil || res.Get("result.twoFactor") != "code" {
		t.Fatalf("first step answered %s", res.Raw)
	}
	challenge := res.Get("result.challenge").(string)
	testkit.Expect(t, do(t, tn.ID, challenge, "GET", "/auth/me", nil), http.StatusUnauthorized, "")
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": "123456"}),
		http.StatusUnauthorized, "The code is not valid. Try again.")
	// A challenge is for this tenant only.
	other2 := testkit.NewTenant(t)
	testkit.Expect(t, do(t, other2.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": code(t, secret, 0)}),
		http.StatusUnauthorized, "Your sign-in has expired. Please sign in again.")

	// Enabling spent this step's code: wait for the next one, which works once.
	nextStep()
	c := code(t, secret, 0)
	res = do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": c})
	testkit.Expect(t, res, http.StatusOK, "Logged in Successfully!")
	signedIn := res.Get("result.token").(string)
	testkit.Expect(t, do(t, tn.ID, signedIn, "GET", "/auth/me", nil), http.StatusOK, "")
	// The challenge is spent, and the same code is refused on a new one (replay).
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": c}),
		http.StatusUnauthorized, "Your sign-in has expired. Please sign in again.")
	again := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": again, "code": c}),
		http.StatusUnauthorized, "The code is not valid. Try again.")

	// A recovery code works once, in any case and with spaces.
	res = do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": again, "recoveryCode": " " + strings.ToUpper(codes[3]) + " "})
	testkit.Expect(t, res, http.StatusOK, "Logged in Successfully!")
	if res.Get("result.user.twoFactor.recoveryCodesLeft") != 9.0 {
		t.Fatalf("codes left: %s", res.Raw)
	}
	third := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": third, "recoveryCode": codes[3]}),
		http.StatusUnauthorized, "The code is not valid. Try again.")

	// The key is never answered again, nor logged, nor stored in the clear.
	for _, path := range []string{"/auth/me", "/users?limit=100", "/audit-log"} {
		res := do(t, tn.ID, tn.AdminToken, "GET", path, nil)
		if strings.Contains(string(res.Raw), secret) || strings.Contains(string(res.Raw), "totp") || strings.Contains(string(res.Raw), "recoveryHashes") {
			t.Fatalf("%s shows two-factor secrets: %s", path, res.Raw)
		}
	}
	var stored map[string]any
	if err := testkit.Deps(t).Store.Get(context.Background(), auth.UserKey(scope(t, tn.ID), meID(t, tn.ID, signedIn)), &stored); err != nil {
		t.Fatal(err)
	}
	if key, _ := stored["totpKey"].(string); !strings.HasPrefix(key, "local:") || strings.Contains(fmt.Sprint(stored), secret) {
		t.Fatalf("stored key %q", key)
	}
	if l := logs(); strings.Contains(l, secret) || strings.Contains(l, codes[0]) || strings.Contains(l, c) {
		t.Fatal("a log line holds a two-factor secret")
	}
}

func scope(t *testing.T, tenant string) store.Scope {
	s, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func meID(t *testing.T, tenant, token string) string {
	t.Helper()
	return do(t, tenant, token, "GET", "/auth/me", nil).Get("result.id").(string)
}

func TestTwoFactorCodeRaceSignsInOnce(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	secret, _ := enrol(t, tn.ID, testkit.Login(t, tn.ID, name, "staff-pass-1"))
	nextStep()
	a := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	b := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	c := code(t, secret, 0)
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, ch := range []string{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": ch, "code": c}).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			ok++
		} else if s != http.StatusUnauthorized {
			t.Fatalf("status %d", s)
		}
	}
	if ok != 1 {
		t.Fatalf("one code signed in %d times", ok)
	}
}

// Wrong passwords, passcodes and codes share one window of five attempts.
func TestTwoFactorLockoutIsShared(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	secret, _ := enrol(t, tn.ID, testkit.Login(t, tn.ID, name, "staff-pass-1"))
	testkit.Expect(t, login(t, tn.ID, name, "wrong-pass-1"), http.StatusUnauthorized, "")
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/passcode", map[string]any{"username": name, "passcode": "123456"}), http.StatusUnauthorized, "")
	challenge := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	for range 2 {
		testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": "000000"}), http.StatusUnauthorized, "")
	}
	res := do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": code(t, secret, 1)})
	if res.Status != http.StatusTooManyRequests {
		t.Fatalf("sixth attempt: %d %s", res.Status, res.Raw)
	}
}

func TestTwoFactorRequiredByRoleAndForEveryone(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := do(t, tn.ID, tn.AdminToken, "POST", "/roles", map[string]any{"name": "Guarded", "permissionIds": []string{"CMS_VIEW_FAQ"}, "requireTwoFactor": true})
	testkit.Expect(t, res, http.StatusCreated, "")
	name := staff(t, tn, map[string]any{"roleId": res.Get("result.id")})

	res = login(t, tn.ID, name, "staff-pass-1")
	testkit.Expect(t, res, http.StatusOK, "Your institution requires two-factor sign-in. Set it up to continue.")
	challenge := res.Get("result.challenge").(string)
	if res.Get("result.twoFactor") != "enrol" || res.Get("result.token") != nil {
		t.Fatalf("answered %s", res.Raw)
	}
	// An enrol challenge does not pass for a code challenge.
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": "123456"}), http.StatusUnauthorized, "")
	res = do(t, tn.ID, "", "POST", "/auth/two-factor/setup", map[string]any{"challenge": challenge})
	testkit.Expect(t, res, http.StatusOK, "")
	secret := res.Get("result.secret").(string)
	res = do(t, tn.ID, "", "POST", "/auth/two-factor/enable", map[string]any{"challenge": challenge, "code": code(t, secret, 0)})
	testkit.Expect(t, res, http.StatusOK, "Two-factor sign-in is on.")
	token := res.Get("result.token").(string)
	if res.Get("result.user.twoFactor.required") != true || len(res.Get("result.recoveryCodes").([]any)) != 10 {
		t.Fatalf("answered %s", res.Raw)
	}
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/disable", map[string]any{"password": "staff-pass-1"}),
		http.StatusForbidden, "Your institution requires two-factor sign-in.")

	// For everyone: the admin too is taken to enrolment at the next sign-in; this session, without
	// two-factor sign-in, ends at its next request (issue 40).
	testkit.Expect(t, do(t, tn.ID, tn.AdminToken, "PATCH", "/security-settings", map[string]any{"requireTwoFactor": true}), http.StatusOK, "Security settings updated!")
	testkit.Expect(t, do(t, tn.ID, tn.AdminToken, "GET", "/auth/me", nil), http.StatusUnauthorized, msgSignInToEnrol)
	testkit.Expect(t, do(t, tn.ID, token, "GET", "/auth/me", nil), http.StatusOK, "")
	res = login(t, tn.ID, tn.AdminUsername, tn.AdminPassword)
	if res.Get("result.twoFactor") != "enrol" {
		t.Fatalf("admin sign-in answered %s", res.Raw)
	}
}

func TestTwoFactorOffAndNewRecoveryCodesNeedThePassword(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, "staff-pass-1")
	secret, codes := enrol(t, tn.ID, token)
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/recovery-codes", map[string]any{"password": "nope-nope-1", "code": code(t, secret, 1)}),
		http.StatusBadRequest, "The password is not correct.")
	res := do(t, tn.ID, token, "POST", "/auth/two-factor/recovery-codes", map[string]any{"password": "staff-pass-1", "code": code(t, secret, 1)})
	testkit.Expect(t, res, http.StatusOK, "New recovery codes made. The old ones no longer work.")
	fresh := res.Get("result.recoveryCodes").([]any)
	challenge := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "recoveryCode": codes[0]}), http.StatusUnauthorized, "")
	res = do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "recoveryCode": fresh[0]})
	testkit.Expect(t, res, http.StatusOK, "")
	token = res.Get("result.token").(string)
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/disable", map[string]any{"password": "staff-pass-1", "recoveryCode": fresh[1], "isAdmin": true}), http.StatusBadRequest, "")
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/disable", map[string]any{"password": "staff-pass-1", "recoveryCode": fresh[1]}), http.StatusOK, "Two-factor sign-in is off.")
	res = login(t, tn.ID, name, "staff-pass-1")
	if res.Get("result.token") == nil {
		t.Fatalf("after turning it off: %s", res.Raw)
	}
}

func TestSessionsListEndAndSignOutEverywhere(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	a := testkit.Login(t, tn.ID, name, "staff-pass-1")
	b := testkit.Login(t, tn.ID, name, "staff-pass-1")
	c := testkit.Login(t, tn.ID, name, "staff-pass-1")
	res := do(t, tn.ID, a, "GET", "/auth/sessions", nil)
	testkit.Expect(t, res, http.StatusOK, "")
	list := res.Get("result").([]any)
	if len(list) != 3 {
		t.Fatalf("%d sessions: %s", len(list), res.Raw)
	}
	var idOfB string
	current := 0
	for _, it := range list {
		s := it.(map[string]any)
		if s["current"] == true {
			current++
		}
		if s["address"] == "" || s["client"] == "" || s["createdAt"] == nil || s["lastUsedAt"] == nil {
			t.Fatalf("session %v", s)
		}
	}
	if current != 1 {
		t.Fatalf("%d current sessions", current)
	}
	// b's own list names b as current: that is the id a signs out.
	for _, it := range do(t, tn.ID, b, "GET", "/auth/sessions", nil).Get("result").([]any) {
		if s := it.(map[string]any); s["current"] == true {
			idOfB = s["id"].(string)
		}
	}
	testkit.Expect(t, do(t, tn.ID, a, "DELETE", "/auth/sessions/"+idOfB, nil), http.StatusOK, "Signed out.")
	testkit.Expect(t, do(t, tn.ID, b, "GET", "/auth/me", nil), http.StatusUnauthorized, "")
	testkit.Expect(t, do(t, tn.ID, a, "DELETE", "/auth/sessions/"+idOfB, nil), http.StatusNotFound, "")
	testkit.Expect(t, do(t, tn.ID, a, "DELETE", "/auth/sessions/nope", nil), http.StatusNotFound, "")
	// Another user's session id is not found through mine.
	admins := do(t, tn.ID, tn.AdminToken, "GET", "/auth/sessions", nil).Get("result.0.id").(string)
	testkit.Expect(t, do(t, tn.ID, a, "DELETE", "/auth/sessions/"+admins, nil), http.StatusNotFound, "")

	res = do(t, tn.ID, a, "POST", "/auth/sessions/sign-out-others", map[string]any{})
	testkit.Expect(t, res, http.StatusOK, "Signed out everywhere else.")
	if res.Get("result.ended") != 1.0 {
		t.Fatalf("ended %v", res.Get("result.ended"))
	}
	testkit.Expect(t, do(t, tn.ID, c, "GET", "/auth/me", nil), http.StatusUnauthorized, "")
	testkit.Expect(t, do(t, tn.ID, a, "GET", "/auth/me", nil), http.StatusOK, "")
	if n := len(do(t, tn.ID, a, "GET", "/auth/sessions", nil).Get("result").([]any)); n != 1 {
		t.Fatalf("%d sessions left", n)
	}
}

func TestAdminSignsAUserOutEverywhere(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, "staff-pass-1")
	id := meID(t, tn.ID, token)
	// A user who may edit users, but not an administrator nor one holding more than they do.
	editor := testkit.NewUser(t, tn, "CMS_VIEW_USER", "CMS_EDIT_USER")
	testkit.Expect(t, do(t, tn.ID, editor, "POST", "/auth/users/"+tn.AdminID+"/sign-out", map[string]any{}), http.StatusForbidden,
		"Only an administrator can change an administrator's account.")
	plain := testkit.NewUser(t, tn)
	testkit.Expect(t, do(t, tn.ID, plain, "POST", "/auth/users/"+id+"/sign-out", map[string]any{}), http.StatusForbidden, "")
	res := do(t, tn.ID, editor, "POST", "/auth/users/"+id+"/sign-out", map[string]any{})
	testkit.Expect(t, res, http.StatusOK, name+" is signed out everywhere.")
	testkit.Expect(t, do(t, tn.ID, token, "GET", "/auth/me", nil), http.StatusUnauthorized, "")
	testkit.Expect(t, do(t, tn.ID, tn.AdminToken, "POST", "/auth/users/nope/sign-out", map[string]any{}), http.StatusNotFound, "")
	// Another tenant's admin cannot reach this tenant's user.
	other := testkit.NewTenant(t)
	testkit.Expect(t, do(t, other.ID, other.AdminToken, "POST", "/auth/users/"+id+"/sign-out", map[string]any{}), http.StatusNotFound, "")
	testkit.Expect(t, do(t, tn.ID, other.AdminToken, "POST", "/auth/users/"+id+"/sign-out", map[string]any{}), http.StatusUnauthorized, "")
}

func TestExpiredChallengeIsRefused(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	secret, _ := enrol(t, tn.ID, testkit.Login(t, tn.ID, name, "staff-pass-1"))
	challenge := login(t, tn.ID, name, "staff-pass-1").Get("result.challenge").(string)
	// Age the challenge past its five minutes, as time would.
	st := testkit.Deps(t).Store
	sc := scope(t, tn.ID)
	var items []map[string]any
	if err := st.Table.Get("PK", sc.Partition("CHALLENGE")).All(context.Background(), &items); err != nil || len(items) != 1 {
		t.Fatalf("%v %d", err, len(items))
	}
	if err := st.Table.Update("PK", items[0]["PK"]).Range("SK", items[0]["SK"]).Set("expiresAt", time.Now().Add(-time.Second).Unix()).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "code": code(t, secret, 1)}),
		http.StatusUnauthorized, "Your sign-in has expired. Please sign in again.")
}
