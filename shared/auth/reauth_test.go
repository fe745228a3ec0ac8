package auth_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// Issue 40, item 2: a session token alone (a borrowed or stolen session) must not be able to
// change how the account signs in. A new password or passcode, enrolling, disabling two-factor
// sign-in and new recovery codes all ask for the current password, and a current code where
// two-factor sign-in is on; a wrong password counts in the sign-in lockout.

const (
	msgEnterCurrent   = "Enter your current password."
	msgWrongCurrent   = "The current password is not correct."
	msgWrongPassword  = "The password is not correct."
	msgEnterCode      = "Enter the code from your authenticator app."
	msgBadCode        = "The code is not valid. Try again."
	staffPassword     = "staff-pass-1"
	profileUpdatedMsg = "Profile updated!"
)

// profile is a PATCH /auth/me body of a valid profile of username with extra fields.
func profile(username string, extra map[string]any) map[string]any {
	body := map[string]any{"username": username, "email": "someone@example.org", "phone": "5551234567"}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

func TestProfilePasswordNeedsTheCurrentPassword(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, staffPassword)

	// The session alone: refused, naming the field, and nothing changed.
	res := do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "taken-over-1"}))
	testkit.Expect(t, res, http.StatusBadRequest, msgEnterCurrent)
	if res.Get("errors.currentPassword") != msgEnterCurrent {
		t.Fatalf("errors: %s", res.Raw)
	}
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "taken-over-1", "currentPassword": "guess-guess-1"})),
		http.StatusBadRequest, msgWrongCurrent)
	// A passcode is a way to sign in too.
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"passcode": "135790"})),
		http.StatusBadRequest, msgEnterCurrent)
	testkit.Expect(t, login(t, tn.ID, name, "taken-over-1"), http.StatusUnauthorized, "")
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/passcode", map[string]any{"username": name, "passcode": "135790"}), http.StatusUnauthorized, "")

	// The rest of the profile changes as before, without it.
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, nil)), http.StatusOK, profileUpdatedMsg)

	// With the current password: the new password and passcode work, the old password does not.
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "brand-new-1", "passcode": "135790", "currentPassword": staffPassword})),
		http.StatusOK, profileUpdatedMsg)
	testkit.Login(t, tn.ID, name, "brand-new-1")
	testkit.Expect(t, do(t, tn.ID, "", "POST", "/auth/passcode", map[string]any{"username": name, "passcode": "135790"}), http.StatusOK, "")
	testkit.Expect(t, login(t, tn.ID, name, staffPassword), http.StatusUnauthorized, "")
}

func TestProfilePasswordWithTwoFactorNeedsACode(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, staffPassword)
	secret, codes := enrol(t, tn.ID, token)

	change := func(extra map[string]any) testkit.Response {
		body := map[string]any{"password": "brand-new-1", "currentPassword": staffPassword}
		for k, v := range extra {
			body[k] = v
		}
		return do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, body))
	}
	res := change(nil)
	testkit.Expect(t, res, http.StatusBadRequest, msgEnterCode)
	if res.Get("errors.code") != msgEnterCode {
		t.Fatalf("errors: %s", res.Raw)
	}
	testkit.Expect(t, change(map[string]any{"code": "000000"}), http.StatusBadRequest, msgBadCode)
	testkit.Expect(t, change(map[string]any{"recoveryCode": "aaaa-bbbb-cccc"}), http.StatusBadRequest, msgBadCode)
	// The right code with a wrong password tells nothing of the code.
	testkit.Expect(t, change(map[string]any{"code": code(t, secret, 1), "currentPassword": "guess-guess-1"}), http.StatusBadRequest, msgWrongCurrent)
	// Enabling spent this step's code; the next step's is within the window and works once.
	next := code(t, secret, 1)
	testkit.Expect(t, change(map[string]any{"code": next}), http.StatusOK, profileUpdatedMsg)
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "brand-new-2", "currentPassword": "brand-new-1", "code": next})),
		http.StatusBadRequest, msgBadCode)
	// A recovery code does instead, once.
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "brand-new-2", "currentPassword": "brand-new-1", "recoveryCode": codes[1]})),
		http.StatusOK, profileUpdatedMsg)
	me := do(t, tn.ID, token, "GET", "/auth/me", nil)
	if me.Get("result.twoFactor.recoveryCodesLeft") != 9.0 {
		t.Fatalf("me: %s", me.Raw)
	}
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "brand-new-3", "currentPassword": "brand-new-2", "recoveryCode": codes[1]})),
		http.StatusBadRequest, msgBadCode)
	if login(t, tn.ID, name, "brand-new-2").Get("result.twoFactor") != "code" {
		t.Fatal("the new password does not lead to the second step")
	}
}

// A wrong current password is a guess like a wrong sign-in: five in the window, then every
// attempt (a sign-in too) is refused until it ends.
func TestWrongCurrentPasswordCountsInTheLockout(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, staffPassword)
	// A right one ends the window (as a sign-in does): the two wrong ones before it are forgotten.
	for range 2 {
		testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "taken-over-1", "currentPassword": "guess-guess-1"})),
			http.StatusBadRequest, msgWrongCurrent)
	}
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"passcode": "135790", "currentPassword": staffPassword})),
		http.StatusOK, profileUpdatedMsg)
	for i := range 5 {
		// The profile and the two-factor settings share the window.
		var res testkit.Response
		if i%2 == 0 {
			res = do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "taken-over-1", "currentPassword": "guess-guess-1"}))
		} else {
			res = do(t, tn.ID, token, "POST", "/auth/two-factor/disable", map[string]any{"password": "guess-guess-1"})
		}
		testkit.Expect(t, res, http.StatusBadRequest, "")
	}
	testkit.Expect(t, do(t, tn.ID, token, "PATCH", "/auth/me", profile(name, map[string]any{"password": "taken-over-1", "currentPassword": staffPassword})),
		http.StatusTooManyRequests, "")
	testkit.Expect(t, login(t, tn.ID, name, staffPassword), http.StatusTooManyRequests, "")
	testkit.Expect(t, login(t, tn.ID, name, "taken-over-1"), http.StatusTooManyRequests, "")
}

func TestEnrolNeedsThePassword(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, staffPassword)
	res := do(t, tn.ID, token, "POST", "/auth/two-factor/setup", map[string]any{})
	testkit.Expect(t, res, http.StatusOK, "")
	secret := res.Get("result.secret").(string)
	res = do(t, tn.ID, token, "POST", "/auth/two-factor/enable", map[string]any{"code": code(t, secret, 0)})
	testkit.Expect(t, res, http.StatusBadRequest, msgEnterCurrent)
	if res.Get("errors.password") != msgEnterCurrent {
		t.Fatalf("errors: %s", res.Raw)
	}
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/enable", map[string]any{"code": code(t, secret, 0), "password": "guess-guess-1"}),
		http.StatusBadRequest, msgWrongPassword)
	if do(t, tn.ID, token, "GET", "/auth/me", nil).Get("result.twoFactor.enabled") != false {
		t.Fatal("turned on without the password")
	}
	// A wrong code of the new key is not a guess at the account: it is refused before the password.
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/enable", map[string]any{"code": "000000", "password": staffPassword}),
		http.StatusBadRequest, msgBadCode)
	res = do(t, tn.ID, token, "POST", "/auth/two-factor/enable", map[string]any{"code": code(t, secret, 0), "password": staffPassword})
	testkit.Expect(t, res, http.StatusOK, "Two-factor sign-in is on.")
	if n := len(res.Get("result.recoveryCodes").([]any)); n != 10 {
		t.Fatalf("%d recovery codes", n)
	}
	if login(t, tn.ID, name, staffPassword).Get("result.twoFactor") != "code" {
		t.Fatal("sign-in does not ask for a code")
	}
}

func TestTwoFactorChangesNeedPasswordAndCode(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	name := staff(t, tn, nil)
	token := testkit.Login(t, tn.ID, name, staffPassword)
	secret, codes := enrol(t, tn.ID, token)
	for _, path := range []string{"/auth/two-factor/recovery-codes", "/auth/two-factor/disable"} {
		t.Run(path, func(t *testing.T) {
			testkit.Expect(t, do(t, tn.ID, token, "POST", path, map[string]any{}), http.StatusBadRequest, msgEnterCurrent)
			res := do(t, tn.ID, token, "POST", path, map[string]any{"password": staffPassword})
			testkit.Expect(t, res, http.StatusBadRequest, msgEnterCode)
			if res.Get("errors.code") != msgEnterCode {
				t.Fatalf("errors: %s", res.Raw)
			}
			testkit.Expect(t, do(t, tn.ID, token, "POST", path, map[string]any{"password": staffPassword, "code": "000000"}), http.StatusBadRequest, msgBadCode)
			testkit.Expect(t, do(t, tn.ID, token, "POST", path, map[string]any{"password": "guess-guess-1", "code": code(t, secret, 1)}), http.StatusBadRequest, msgWrongPassword)
		})
	}
	if me := do(t, tn.ID, token, "GET", "/auth/me", nil); me.Get("result.twoFactor.enabled") != true || me.Get("result.twoFactor.recoveryCodesLeft") != 10.0 {
		t.Fatalf("changed without the password and code: %s", me.Raw)
	}

	// With both: new codes (the next step's code, which then works no more)…
	next := code(t, secret, 1)
	res := do(t, tn.ID, token, "POST", "/auth/two-factor/recovery-codes", map[string]any{"password": staffPassword, "code": next})
	testkit.Expect(t, res, http.StatusOK, "New recovery codes made. The old ones no longer work.")
	fresh := res.Get("result.recoveryCodes").([]any)
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/recovery-codes", map[string]any{"password": staffPassword, "code": next}),
		http.StatusBadRequest, msgBadCode)
	// …and off, with a recovery code in place of the code: an old one no longer works.
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/disable", map[string]any{"password": staffPassword, "recoveryCode": codes[0]}),
		http.StatusBadRequest, msgBadCode)
	testkit.Expect(t, do(t, tn.ID, token, "POST", "/auth/two-factor/disable", map[string]any{"password": staffPassword, "recoveryCode": fresh[0]}),
		http.StatusOK, "Two-factor sign-in is off.")
	if login(t, tn.ID, name, staffPassword).Get("result.token") == nil {
		t.Fatal("sign-in still asks for a code")
	}
}
