package schedule_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/schedule"
	"github.com/campuscms/panel/shared/testkit"
)

// TestFailingRecordsDoNotStallTheJob: records whose write keeps failing (a fault injected on
// one tenant's transactions) are moved aside after each failure, so a run limited to as many
// records as fail still reaches another tenant's due record on the next run; they are tried
// again with backoff, given up after MaxAttempts (listed by Failed, out of the due index), and
// Retry brings them back once the cause is gone.
//
// Not parallel: the run's page (3) is counted before the tenant filter, so no other test's due
// items may be in the index meanwhile.
func TestFailingRecordsDoNotStallTheJob(t *testing.T) {
	failing, healthy := testkit.NewTenant(t), testkit.NewTenant(t)
	at := time.Now().UTC().Add(time.Second).Truncate(time.Second).Add(time.Second)
	var stuck []string
	for _, title := range []string{"One", "Two", "Three"} {
		stuck = append(stuck, call(t, failing, "POST", "/notices", map[string]any{"title": title, "message": "m",
			"publishAt": at.Format(time.RFC3339)}, 201).Get("result.id").(string))
	}
	theirs := call(t, healthy, "POST", "/notices", map[string]any{"title": "Theirs", "message": "m",
		"publishAt": at.Add(time.Second).Format(time.RFC3339)}, 201).Get("result.id").(string)
	time.Sleep(time.Until(at.Add(1100 * time.Millisecond)))

	undo := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: failing.ID,
		Status: 400, Code: "ValidationException"})
	defer undo()
	clock := time.Now().UTC()
	j := schedule.WithClock(job(t, failing.ID, healthy.ID), func() time.Time { return clock }, len(stuck))
	ctx := context.Background()

	res, err := j.Run(ctx)
	if err != nil || res.Due != 3 || res.Deferred != 3 || res.Moved != 0 {
		t.Fatalf("first run %+v %v", res, err)
	}
	// The failing three are aside until their retry time: the healthy tenant's record moves.
	res, err = j.Run(ctx)
	if err != nil || res.Moved != 1 || res.Deferred != 0 {
		t.Fatalf("second run (the failing records must not hold the page) %+v %v", res, err)
	}
	if o := call(t, healthy, "GET", "/notices/"+theirs, nil, 200); o.Get("result.schedule") != "live" {
		t.Fatalf("healthy tenant's notice %s", o.Raw)
	}
	// Tried again once their backoff has passed, each time further off, then given up.
	for n := 2; n <= schedule.MaxAttempts; n++ {
		clock = clock.Add(2 * time.Hour)
		res, err = j.Run(ctx)
		if err != nil || res.Due != 3 || res.Moved != 0 {
			t.Fatalf("attempt %d: %+v %v", n, res, err)
		}
		if n < schedule.MaxAttempts && res.Deferred != 3 || n == schedule.MaxAttempts && res.GaveUp != 3 {
			t.Fatalf("attempt %d: %+v", n, res)
		}
	}
	clock = clock.Add(2 * time.Hour)
	if res, err = j.Run(ctx); err != nil || res.Due != 0 {
		t.Fatalf("after giving up the records are out of the due index: %+v %v", res, err)
	}
	failed, err := j.Failed(ctx)
	if err != nil || len(failed) != 3 {
		t.Fatalf("failed %+v %v", failed, err)
	}
	for _, f := range failed {
		if f.Tenant != failing.ID || f.Collection != "notices" || f.Attempts != schedule.MaxAttempts || !strings.Contains(f.LastError, "ValidationException") {
			t.Fatalf("failure %+v", f)
		}
	}
	// Once the cause is gone, Retry puts them back and the next run moves them.
	undo()
	for _, f := range failed {
		if err := j.Retry(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if res, err = j.Run(ctx); err != nil || res.Moved != 3 {
		t.Fatalf("after retry %+v %v", res, err)
	}
	for _, id := range stuck {
		if n := call(t, failing, "GET", "/notices/"+id, nil, 200); n.Get("result.schedule") != "live" {
			t.Fatalf("notice %s", n.Raw)
		}
	}
	if failed, err = j.Failed(ctx); err != nil || len(failed) != 0 {
		t.Fatalf("failed after retry %+v %v", failed, err)
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := schedule.Backoff(i + 1); got != w {
			t.Fatalf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
}
