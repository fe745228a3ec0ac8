package auth_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// burst sends n logins at once and counts the answers by status.
func burst(t *testing.T, n int, req call) map[int]int {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	counts := map[int]int{}
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res := testkit.Call(t, req)
			mu.Lock()
			counts[res.Status]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return counts
}

// TestLockoutHoldsUnderParallelLogins: an attempt is reserved before any hashing, so however many
// wrong logins arrive together, at most 5 reach the password check; the rest are refused with 429.
func TestLockoutHoldsUnderParallelLogins(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		req  func(tn testkit.Tenant) call
	}{
		{"password", func(tn testkit.Tenant) call {
			return call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "admin", "password": "wrong-pass"}}
		}},
		{"passcode", func(tn testkit.Tenant) call {
			return call{Method: "POST", Path: "/auth/passcode", Tenant: tn.ID, Body: map[string]any{"username": "admin", "passcode": "999999"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tn := testkit.NewTenant(t)
			counts := burst(t, 60, c.req(tn))
			if counts[http.StatusUnauthorized] > 5 || counts[http.StatusUnauthorized]+counts[http.StatusTooManyRequests] != 60 {
				t.Fatalf("60 parallel wrong logins answered %v; want at most 5 × 401 and the rest 429", counts)
			}
			// The right password is refused too while the window lasts.
			expect(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID,
				Body: map[string]any{"username": "admin", "password": tn.AdminPassword}}), 429, "")
		})
	}
}

// TestOverlongUsernameIsRefusedBeforeAnyKey: a username cannot become a key longer than
// DynamoDB's 1,024-byte sort key limit (moto does not enforce it, so the bound is checked here).
func TestOverlongUsernameIsRefusedBeforeAnyKey(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, path := range []string{"/auth/login", "/auth/passcode"} {
		body := map[string]any{"username": strings.Repeat("a", 100_000), "password": "whatever1"}
		if path == "/auth/passcode" {
			body = map[string]any{"username": strings.Repeat("a", 100_000), "passcode": "123456"}
		}
		before := testkit.Faults(t).Count("dynamodb", "", tn.ID)
		res := testkit.Call(t, call{Method: "POST", Path: path, Tenant: tn.ID, Body: body})
		expect(t, res, 401, "Invalid username or password!")
		// Only the tenant is read: no key is built from the username.
		if n := testkit.Faults(t).Count("dynamodb", "", tn.ID) - before; n > 1 {
			t.Fatalf("%s: %d DynamoDB calls for an overlong username, want at most 1 (the tenant)", path, n)
		}
	}
}
