package adversarial_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestParallelLoginBurst: 40 wrong passwords and 20 wrong passcodes for one username at once.
// At most 5 reach the password check (401); every other is refused with 429, and then so is
// the right password, until the window ends.
func TestParallelLoginBurst(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	var mu sync.Mutex
	var wg sync.WaitGroup
	counts := map[int]int{}
	start := make(chan struct{})
	for i := 0; i < 60; i++ {
		req := call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "admin", "password": "wrong-pass"}}
		if i%3 == 0 {
			req = call{Method: "POST", Path: "/auth/passcode", Tenant: tn.ID, Body: map[string]any{"username": "ADMIN", "passcode": "000000"}}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res := send(t, req)
			mu.Lock()
			counts[res.Status]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if counts[http.StatusUnauthorized] > 5 || counts[http.StatusUnauthorized]+counts[http.StatusTooManyRequests] != 60 {
		t.Fatalf("answers %v: want at most 5 × 401, the rest 429", counts)
	}
	totals.refused.Add(int64(counts[http.StatusUnauthorized] + counts[http.StatusTooManyRequests]))
	refused(t, "right password while locked", send(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID,
		Body: map[string]any{"username": "admin", "password": tn.AdminPassword}}), http.StatusTooManyRequests)
	// Another tenant's admin of the same name is not locked.
	other := testkit.NewTenant(t)
	if res := send(t, call{Method: "POST", Path: "/auth/login", Tenant: other.ID,
		Body: map[string]any{"username": "admin", "password": other.AdminPassword}}); res.Status != http.StatusOK {
		t.Fatalf("other tenant's login: %d %s", res.Status, res.Raw)
	}
}
