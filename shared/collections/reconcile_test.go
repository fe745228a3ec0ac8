package collections_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/testkit"
)

// TestReconcileConcurrentWritesUnderFaults drives concurrent edits, restores and deletes of a
// few records while DynamoDB cancels, throttles and loses answers, then checks what the table
// holds against what was accepted, one for one: a version for every accepted edit, restore and
// delete of a record, an audit entry for every accepted write, the list's counter equal to the
// records left. Nothing is recorded for a write that was refused, and nothing is missing for one
// that was accepted.
func TestReconcileConcurrentWritesUnderFaults(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	do := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	const records = 4
	ids := make([]string, records)
	for i := range ids {
		res := do("POST", "/faqs", map[string]any{"question": fmt.Sprint("Q", i), "answer": "A0"})
		mustStatus(t, res, http.StatusCreated)
		ids[i] = res.Get("result.id").(string)
	}

	faults := testkit.Faults(t)
	for _, f := range []awsclient.Fault{
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 3, Status: 400,
			Code: "TransactionCanceledException", Reasons: []string{"TransactionConflict", "None", "None"}},
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 3, Status: 400, Code: "ProvisionedThroughputExceededException"},
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 2, LoseResponse: true},
	} {
		remove := faults.Inject(f)
		defer remove()
	}

	var mu sync.Mutex
	accepted := map[string]map[string]int{} // id → action → accepted writes
	count := func(id, action string) {
		mu.Lock()
		defer mu.Unlock()
		if accepted[id] == nil {
			accepted[id] = map[string]int{}
		}
		accepted[id][action]++
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for n := range 6 {
				id := ids[(w+n)%records]
				cur := do("GET", "/faqs/"+id, nil)
				if cur.Status != http.StatusOK {
					continue // deleted meanwhile
				}
				version := cur.Get("result.version")
				switch {
				case (w == 7 || w == 6) && n == 5:
					if do("DELETE", "/faqs/"+id, nil).Status == http.StatusOK {
						count(id, "delete")
					}
				case n%3 == 2:
					if do("POST", "/faqs/"+id+"/versions/1/restore", map[string]any{"version": version}).Status == http.StatusOK {
						count(id, "restore")
					}
				default:
					if do("PATCH", "/faqs/"+id, map[string]any{"answer": fmt.Sprint("A", w, n), "version": version}).Status == http.StatusOK {
						count(id, "update")
					}
				}
			}
		})
	}
	wg.Wait()

	// The deleted records are in the trash: three restores of each at once, under faults again,
	// bring each back once.
	for _, f := range []awsclient.Fault{
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 2, Status: 400,
			Code: "TransactionCanceledException", Reasons: []string{"TransactionConflict", "None", "None"}},
		{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 2, LoseResponse: true},
	} {
		remove := faults.Inject(f)
		defer remove()
	}
	trash := do("GET", "/trash?kind=faqs", nil)
	mustStatus(t, trash, http.StatusOK)
	inTrash := map[string]bool{}
	for _, e := range trash.Body["result"].([]any) {
		entry := e.(map[string]any)
		id := entry["id"].(string)
		inTrash[id] = true
		for range 3 {
			wg.Go(func() {
				if do("POST", fmt.Sprintf("/trash/faqs/%s/%v/restore", id, entry["version"]), nil).Status == http.StatusOK {
					count(id, "restore")
					count(id, "back")
				}
			})
		}
	}
	wg.Wait()
	for _, id := range ids {
		if a := accepted[id]; (a["delete"] > 0) != inTrash[id] || a["back"] > 1 {
			t.Errorf("%s: %d deletes accepted, in the trash %v, back %d times", id, a["delete"], inTrash[id], a["back"])
		}
	}
	if left := do("GET", "/trash?kind=faqs", nil).Body["result"].([]any); len(left) != len(inTrash)-restoredCount(accepted) {
		t.Errorf("trash after restores: %d entries, %d deleted, %d restored", len(left), len(inTrash), restoredCount(accepted))
	}

	// Versions, one for one (a deleted record's history is not reachable: it is checked through
	// the audit log below).
	live := 0
	for _, id := range ids {
		a := accepted[id]
		cur := do("GET", "/faqs/"+id, nil)
		if a["delete"] > a["back"] {
			mustStatus(t, cur, http.StatusNotFound)
			continue
		}
		live++
		mustStatus(t, cur, http.StatusOK)
		versions := do("GET", "/faqs/"+id+"/versions", nil).Get("totalCount")
		// A restore from the trash keeps no version (it replaces nothing); the delete kept one.
		writes := a["update"] + a["restore"] - a["back"] + a["delete"]
		if versions != float64(writes) || cur.Get("result.version") != float64(writes+1) {
			t.Errorf("%s: %d accepted edits and restores, %v versions kept, at version %v", id, writes, versions, cur.Get("result.version"))
		}
	}
	if got := do("GET", "/faqs?limit=5", nil).Get("totalCount"); got != float64(live) {
		t.Errorf("counter %v, records left %d", got, live)
	}

	// Audit entries, one for one, by action.
	logged := map[string]int{}
	cursor := ""
	for {
		res := do("GET", "/audit-log?collection=faqs&limit=100&cursor="+cursor, nil)
		mustStatus(t, res, http.StatusOK)
		for _, e := range res.Body["result"].([]any) {
			logged[e.(map[string]any)["action"].(string)]++
		}
		next, _ := res.Body["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	want := map[string]int{"create": records}
	for _, a := range accepted {
		for action, n := range a {
			if action != "back" {
				want[action] += n
			}
		}
	}
	for action, n := range want {
		if logged[action] != n {
			t.Errorf("%s: %d accepted, %d in the audit log (%v)", action, n, logged[action], logged)
		}
	}
	t.Logf("accepted %v (%d back from the trash); audit log %v; faulted calls %d", want, restoredCount(accepted), logged, faults.Count("dynamodb", "TransactWriteItems", tn.ID))
	if len(logged) != len(want) {
		t.Errorf("audit log actions %v, accepted %v", logged, want)
	}
}

// restoredCount is how many records came back from the trash.
func restoredCount(accepted map[string]map[string]int) int {
	n := 0
	for _, a := range accepted {
		n += a["back"]
	}
	return n
}
