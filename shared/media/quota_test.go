package media_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

const starterQuota = 1 << 30

// onStarter moves a fresh tenant to Starter (1 GB) and sets its used bytes: the quota reads the
// counter, never the library.
func onStarter(t *testing.T, used int64) testkit.Tenant {
	t.Helper()
	tn := testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	testkit.SetPlan(t, tn.ID, "starter")
	if used != 0 {
		scope, _ := store.NewScope(tn.ID)
		if err := st.AddToCounter(scope, plans.CountMediaBytes, used).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return tn
}

func usedBytes(t *testing.T, tn testkit.Tenant) int64 {
	t.Helper()
	scope, _ := store.NewScope(tn.ID)
	n, err := testkit.Deps(t).Store.Count(context.Background(), scope, plans.CountMediaBytes)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func askUpload(t *testing.T, tn testkit.Tenant, name string, size int) testkit.Response {
	return testkit.Call(t, call{Method: "POST", Path: "/media/uploads", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": name, "size": size, "mimeType": "image/png"}})
}

func wantRefused(t *testing.T, res testkit.Response) {
	t.Helper()
	testkit.Expect(t, res, http.StatusRequestEntityTooLarge, "")
	if msg := res.Message(); !strings.HasPrefix(msg, "Your plan (Starter) allows 1 GB of media") {
		t.Errorf("message %q, want one naming the plan and its quota", msg)
	}
}

// TestMediaBytesAreCounted: a confirmed file adds its real size to the counter, its delete takes
// it away, its restore from the trash brings it back; GET /plans shows it.
func TestMediaBytesAreCounted(t *testing.T) {
	tn := testkit.NewTenant(t)
	body := pngBytes(t)
	_, res := upload(t, tn, "a.png", "image/png", body)
	testkit.Expect(t, res, http.StatusCreated, "")
	if got := usedBytes(t, tn); got != int64(len(body)) {
		t.Fatalf("used %d, want %d", got, len(body))
	}
	plansRes := testkit.Call(t, call{Method: "GET", Path: "/plans", Tenant: tn.ID, Token: tn.AdminToken})
	if got := plansRes.Get("usage.mediaBytes"); got != float64(len(body)) {
		t.Errorf("GET /plans usage.mediaBytes %v, want %d", got, len(body))
	}
	id := res.Get("result.id").(string)
	testkit.Expect(t, testkit.Call(t, call{Method: "DELETE", Path: "/media/" + id, Tenant: tn.ID, Token: tn.AdminToken}), http.StatusOK, "")
	if got := usedBytes(t, tn); got != 0 {
		t.Fatalf("used %d after the delete, want 0", got)
	}
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/trash/media/" + id + "/1/restore", Tenant: tn.ID, Token: tn.AdminToken}), http.StatusOK, "")
	if got := usedBytes(t, tn); got != int64(len(body)) {
		t.Fatalf("used %d after the restore, want %d", got, len(body))
	}
}

// TestQuotaCountsUploadsInFlight: an upload request past the quota is refused (413 naming the
// plan), counting the uploads requested and not yet confirmed; two requests in flight at once
// that each fit but together pass it: one is refused.
func TestQuotaCountsUploadsInFlight(t *testing.T) {
	body := pngBytes(t)
	size := int64(len(body))
	t.Run("one past the quota", func(t *testing.T) {
		tn := onStarter(t, starterQuota-size+1)
		wantRefused(t, askUpload(t, tn, "big.png", int(size)))
	})
	t.Run("in flight, one after the other", func(t *testing.T) {
		tn := onStarter(t, starterQuota-2*size+1)
		first := requestUpload(t, tn.ID, tn.AdminToken, "a.png", "image/png", int(size))
		wantRefused(t, askUpload(t, tn, "b.png", int(size)))
		// The first one confirms: its bytes move from in flight to used, still one fits no more.
		post(t, first, body)
		testkit.Expect(t, confirm(t, tn.ID, tn.AdminToken, first.Key, "a.png"), http.StatusCreated, "")
		if got := usedBytes(t, tn); got != starterQuota-size+1 {
			t.Errorf("used %d, want %d", got, starterQuota-size+1)
		}
		wantRefused(t, askUpload(t, tn, "b.png", int(size)))
	})
	t.Run("in flight at once", func(t *testing.T) {
		tn := onStarter(t, starterQuota-2*size+1)
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = askUpload(t, tn, "race.png", int(size)).Status
			}()
		}
		wg.Wait()
		if !(statuses[0] == 200 && statuses[1] == 413 || statuses[0] == 413 && statuses[1] == 200) {
			t.Fatalf("statuses %v, want one 200 and one 413", statuses)
		}
	})
}

// TestQuotaSettledByTheRealSize: an upload that declared less than it holds is settled at
// confirmation: past the quota, refused, its file and pending upload gone, nothing counted.
func TestQuotaSettledByTheRealSize(t *testing.T) {
	body := pngBytes(t)
	tn := onStarter(t, starterQuota-int64(len(body))+1)
	tk := requestUpload(t, tn.ID, tn.AdminToken, "liar.png", "image/png", 1)
	post(t, tk, body)
	wantRefused(t, confirm(t, tn.ID, tn.AdminToken, tk.Key, "liar.png"))
	if got := usedBytes(t, tn); got != starterQuota-int64(len(body))+1 {
		t.Errorf("used %d: a refused file was counted", got)
	}
	testkit.Expect(t, confirm(t, tn.ID, tn.AdminToken, tk.Key, "liar.png"), http.StatusNotFound, "")
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if n := list.Get("totalCount"); n != float64(0) {
		t.Errorf("library holds %v files, want 0", n)
	}
}

// TestDowngradeKeepsMedia: a tenant past Starter's quota after a downgrade keeps its library
// (listed, deleted) and is refused new uploads until it is under it.
func TestDowngradeKeepsMedia(t *testing.T) {
	tn := testkit.NewTenant(t)
	body := pngBytes(t)
	_, res := upload(t, tn, "kept.png", "image/png", body)
	testkit.Expect(t, res, http.StatusCreated, "")
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	if err := st.AddToCounter(scope, plans.CountMediaBytes, 2*starterQuota).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.SetPlan(t, tn.ID, "starter")
	wantRefused(t, askUpload(t, tn, "new.png", len(body)))
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if n := list.Get("totalCount"); n != float64(1) {
		t.Errorf("library holds %v files after the downgrade, want 1", n)
	}
	if err := st.AddToCounter(scope, plans.CountMediaBytes, -2*starterQuota).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.Expect(t, askUpload(t, tn, "new.png", len(body)), http.StatusOK, "")
}

// TestUploadsInFlightAreBounded: one Query reads a tenant's pending uploads, so past 100 in
// flight a new request is asked to wait (429) instead of reading further.
func TestUploadsInFlightAreBounded(t *testing.T) {
	tn := testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	var items []any
	for i := range 100 {
		items = append(items, map[string]any{"PK": scope.Collection("upload"), "SK": fmt.Sprintf("01PENDING%03d", i), "size": 1,
			"key": "uploads/x", "expiresAt": time.Now().Add(time.Hour).Unix()})
	}
	if _, err := st.Table.Batch("PK", "SK").Write().Put(items...).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.Expect(t, askUpload(t, tn, "one-more.png", 10), http.StatusTooManyRequests, "Too many uploads are in progress. Wait for them to finish, then try again.")
}

// TestRestorePastTheQuotaIsRefused: a file deleted before a downgrade (or before the library
// filled up) comes back from the trash only if it fits, like an upload; refused, it stays in the
// trash with its file, and restores once there is room.
func TestRestorePastTheQuotaIsRefused(t *testing.T) {
	tn := onStarter(t, 0)
	body := pngBytes(t)
	_, res := upload(t, tn, "old.png", "image/png", body)
	testkit.Expect(t, res, http.StatusCreated, "")
	id, ref := res.Get("result.id").(string), res.Get("result.fileUrl").(string)
	do := func(method, path string) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken})
	}
	testkit.Expect(t, do("DELETE", "/media/"+id), http.StatusOK, "")
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	fill := starterQuota - int64(len(body)) + 1
	if err := st.AddToCounter(scope, plans.CountMediaBytes, fill).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	entry := fmt.Sprintf("/trash/media/%s/1", id)
	wantRefused(t, do("POST", entry+"/restore"))
	if ok, _ := objectExists(t, "trash/"+tn.ID+"/"+ref); !ok {
		t.Fatal("the refused restore left the file out of the trash")
	}
	if used := usedBytes(t, tn); used != fill {
		t.Fatalf("used %d after a refused restore, want %d", used, fill)
	}
	if err := st.AddToCounter(scope, plans.CountMediaBytes, -fill).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.Expect(t, do("POST", entry+"/restore"), http.StatusOK, "")
	if used := usedBytes(t, tn); used != int64(len(body)) {
		t.Fatalf("used %d after the restore, want %d", used, len(body))
	}
}

// holdings reads what the bytes counter holds besides the used bytes: the bytes and number of
// uploads in flight.
func holdings(t *testing.T, tn testkit.Tenant) (held, inflight int64) {
	t.Helper()
	scope, _ := store.NewScope(tn.ID)
	pk, sk := scope.CounterKey(plans.CountMediaBytes)
	var c struct {
		Count    int64 `dynamo:"count"`
		Held     int64 `dynamo:"held"`
		Inflight int64 `dynamo:"inflight"`
	}
	if err := testkit.Deps(t).Store.Get(context.Background(), store.Key{PK: pk, SK: sk}, &c); err != nil {
		t.Fatal(err)
	}
	return c.Held - c.Count, c.Inflight
}

// askAtOnce sends n upload requests of size bytes at once and counts the answers by status.
func askAtOnce(t *testing.T, tn testkit.Tenant, n, size int) map[int]int {
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = askUpload(t, tn, fmt.Sprintf("at-once-%d.png", i), size).Status
		}()
	}
	wg.Wait()
	out := map[int]int{}
	for _, s := range statuses {
		out[s]++
	}
	return out
}

// TestUploadsAtOnceShareTheQuotaExactly: many upload requests racing on one tenant are all
// accepted while there is room (none is asked to retry), and near the quota exactly as many as
// fit are; the counter then holds exactly the accepted ones.
func TestUploadsAtOnceShareTheQuotaExactly(t *testing.T) {
	const n, size = 24, 1000
	t.Run("room for all", func(t *testing.T) {
		tn := onStarter(t, 0)
		if got := askAtOnce(t, tn, n, size); got[http.StatusOK] != n {
			t.Fatalf("statuses %v, want %d × 200", got, n)
		}
		if held, inflight := holdings(t, tn); held != n*size || inflight != n {
			t.Errorf("held %d bytes in %d uploads, want %d in %d", held, inflight, n*size, n)
		}
	})
	t.Run("room for some", func(t *testing.T) {
		const fit = 7
		tn := onStarter(t, starterQuota-fit*size)
		got := askAtOnce(t, tn, n, size)
		if got[http.StatusOK] != fit || got[http.StatusRequestEntityTooLarge] != n-fit {
			t.Fatalf("statuses %v, want %d × 200 and %d × 413", got, fit, n-fit)
		}
		if held, inflight := holdings(t, tn); held != fit*size || inflight != fit {
			t.Errorf("held %d bytes in %d uploads, want %d in %d", held, inflight, fit*size, fit)
		}
	})
}

// TestAbandonedUploadStopsHolding: an upload requested and never finished holds its bytes until
// its request expires; then the room comes back (the counter is set from the truth), and its
// late confirmation is refused without giving the room back twice.
func TestAbandonedUploadStopsHolding(t *testing.T) {
	body := pngBytes(t)
	size := int64(len(body))
	tn := onStarter(t, starterQuota-size-1)
	abandoned := requestUpload(t, tn.ID, tn.AdminToken, "abandoned.png", "image/png", int(size))
	post(t, abandoned, body)
	wantRefused(t, askUpload(t, tn, "next.png", int(size)))

	scope, _ := store.NewScope(tn.ID)
	id := strings.Split(strings.TrimPrefix(abandoned.Key, "uploads/"+tn.ID+"/"), "/")[0]
	err := testkit.Deps(t).Store.Table.Update("PK", scope.Collection("upload")).Range("SK", id).
		Set("expiresAt", time.Now().Add(-time.Minute).Unix()).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	testkit.Expect(t, askUpload(t, tn, "next.png", int(size)), http.StatusOK, "")
	testkit.Expect(t, confirm(t, tn.ID, tn.AdminToken, abandoned.Key, "abandoned.png"), http.StatusNotFound,
		"This upload was not found or has expired. Please upload the file again.")
	if ok, _ := objectExists(t, abandoned.Key); ok {
		t.Error("the expired upload's file is still in the bucket")
	}
	if held, inflight := holdings(t, tn); held != size || inflight != 1 {
		t.Errorf("held %d bytes in %d uploads, want %d in 1 (the next one only)", held, inflight, size)
	}
	if got := usedBytes(t, tn); got != starterQuota-size-1 {
		t.Errorf("used %d, want %d", got, starterQuota-size-1)
	}
}
