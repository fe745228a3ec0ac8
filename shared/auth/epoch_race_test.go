package auth_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

// raceRounds is how many times each of the user's own changes races an administrator's sign-out.
const raceRounds = 8

// TestSignOutUserEndsEverySessionWhateverItRaces: an administrator's "sign out user" racing the
// user's own change that moves the session epoch (a new password, "sign out everywhere else", new
// recovery codes: each carries the user's current session along) always ends every session that
// existed before it (issue 39, item 4); so does an administrator's new password for the user (the
// collections engine's write) racing the user's "sign out everywhere else". Before one rule moved
// the epoch, the user's change could land on the value the sign-out had just written, carrying the
// current session past it.
func TestSignOutUserEndsEverySessionWhateverItRaces(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	plain := staff(t, tn, nil)
	plainID := meID(t, tn.ID, testkit.Login(t, tn.ID, plain, staffPassword))
	guarded := staff(t, tn, nil)
	guardedToken := testkit.Login(t, tn.ID, guarded, staffPassword)
	guardedID := meID(t, tn.ID, guardedToken)
	_, codes := enrol(t, tn.ID, guardedToken)

	password := staffPassword
	// signInGuarded signs the two-factor user in with a recovery code (a code works once a step).
	signInGuarded := func() string {
		t.Helper()
		challenge := login(t, tn.ID, guarded, staffPassword).Get("result.challenge").(string)
		res := do(t, tn.ID, "", "POST", "/auth/two-factor", map[string]any{"challenge": challenge, "recoveryCode": codes[0]})
		testkit.Expect(t, res, http.StatusOK, "")
		codes = codes[1:]
		return res.Get("result.token").(string)
	}
	// newCodes replaces the guarded user's recovery codes through token; the status, and the codes
	// when it succeeds.
	newCodes := func(token string) int {
		res := do(t, tn.ID, token, "POST", "/auth/two-factor/recovery-codes", map[string]any{"password": staffPassword, "recoveryCode": codes[0]})
		if res.Status == http.StatusOK {
			codes = codes[:0]
			for _, c := range res.Get("result.recoveryCodes").([]any) {
				codes = append(codes, c.(string))
			}
		}
		return res.Status
	}

	// The administrator's end of every session of a user: "sign out user", or (the collections
	// engine's write) a new password set on the user.
	signOut := func(userID string) func(int) int {
		return func(int) int {
			return testkit.Call(t, call{Method: "POST", Path: "/auth/users/" + userID + "/sign-out", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{}}).Status
		}
	}
	reset := staff(t, tn, nil)
	resetPassword := staffPassword
	resetID := meID(t, tn.ID, testkit.Login(t, tn.ID, reset, resetPassword))
	setPassword := func(round int) int {
		next := fmt.Sprintf("admin-set-%d", round)
		status := testkit.Call(t, call{Method: "PATCH", Path: "/users/" + resetID, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"password": next}}).Status
		if status == http.StatusOK {
			resetPassword = next
		}
		return status
	}

	kinds := []struct {
		name string
		// end is the administrator's end of the user's sessions; its status.
		end func(round int) int
		// sessions signs the user in: the current session of the change, then others.
		sessions func() []string
		// change is the user's own change through the current session; its status.
		change func(current string, round int) int
	}{
		{"password change", signOut(plainID),
			func() []string {
				return []string{testkit.Login(t, tn.ID, plain, password), testkit.Login(t, tn.ID, plain, password)}
			},
			func(current string, round int) int {
				next := fmt.Sprintf("race-pass-%d", round)
				res := do(t, tn.ID, current, "PATCH", "/auth/me", profile(plain, map[string]any{"password": next, "currentPassword": password}))
				if res.Status == http.StatusOK {
					password = next
				}
				return res.Status
			}},
		{"sign out everywhere else", signOut(plainID),
			func() []string {
				return []string{testkit.Login(t, tn.ID, plain, password), testkit.Login(t, tn.ID, plain, password)}
			},
			func(current string, _ int) int {
				return do(t, tn.ID, current, "POST", "/auth/sessions/sign-out-others", map[string]any{}).Status
			}},
		{"new recovery codes", signOut(guardedID),
			func() []string {
				// Fresh codes first, through a session the change then races from; then another.
				current := signInGuarded()
				if s := newCodes(current); s != http.StatusOK {
					t.Fatalf("new recovery codes: %d", s)
				}
				return []string{current, signInGuarded()}
			},
			func(current string, _ int) int { return newCodes(current) }},
		{"sign out everywhere else, against a password set by an administrator", setPassword,
			func() []string {
				return []string{testkit.Login(t, tn.ID, reset, resetPassword), testkit.Login(t, tn.ID, reset, resetPassword)}
			},
			func(current string, _ int) int {
				return do(t, tn.ID, current, "POST", "/auth/sessions/sign-out-others", map[string]any{}).Status
			}},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			won := map[string]int{}
			for round := range raceRounds {
				sessions := k.sessions()
				var wg sync.WaitGroup
				start := make(chan struct{})
				var ended, change int
				wg.Add(2)
				go func() {
					defer wg.Done()
					<-start
					// Staggered, so the sign-out lands before, during and after the change's write
					// (the change hashes for a while first).
					time.Sleep(time.Duration(round%4) * 60 * time.Millisecond)
					ended = k.end(round)
				}()
				go func() {
					defer wg.Done()
					<-start
					change = k.change(sessions[0], round)
				}()
				close(start)
				wg.Wait()
				if ended != http.StatusOK {
					t.Fatalf("round %d: the sign-out answered %d", round, ended)
				}
				// The change succeeds, or finds its epoch moved (409), or its session already ended (401).
				if change != http.StatusOK && change != http.StatusConflict && change != http.StatusUnauthorized {
					t.Fatalf("round %d: the change answered %d", round, change)
				}
				won[fmt.Sprint(change)]++
				for i, tok := range sessions {
					if res := do(t, tn.ID, tok, "GET", "/auth/me", nil); res.Status != http.StatusUnauthorized {
						t.Fatalf("round %d: session %d (of %d) outlived the sign-out (the change answered %d): %d", round, i, len(sessions), change, res.Status)
					}
				}
			}
			t.Logf("the change's answers over %d rounds: %v", raceRounds, won)
		})
	}
}
