package schedule_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/schedule"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func call(t *testing.T, tn testkit.Tenant, method, path string, body any, status int) testkit.Response {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, status, "")
	return res
}

func job(t *testing.T, tenants ...string) *schedule.Job {
	t.Helper()
	svc, err := collections.BuiltService(testkit.Deps(t))
	if err != nil {
		t.Fatal(err)
	}
	return schedule.New(svc, nil).Only(tenants...)
}

// TestJobMovesDueStatesOnce: once a publishAt or unpublishAt has passed, a run writes the new
// stored state through the engine's update (a new version, kept history and an audit entry by
// the scheduler, the next due item); running it again, or twice at once, moves nothing more;
// records not due and other tenants are untouched.
func TestJobMovesDueStatesOnce(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	at := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second)
	end := at.Add(time.Second)
	page := call(t, tn, "POST", "/pages", map[string]any{"title": "Open day", "slug": "open-day",
		"publishAt": at.Format(time.RFC3339), "unpublishAt": end.Add(time.Hour).Format(time.RFC3339)}, 201).Get("result.id").(string)
	notice := call(t, tn, "POST", "/notices", map[string]any{"title": "Short", "message": "m",
		"publishAt": at.Format(time.RFC3339), "unpublishAt": end.Format(time.RFC3339)}, 201).Get("result.id").(string)
	later := call(t, tn, "POST", "/sliders", map[string]any{"title": "Later", "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png",
		"publishAt": "2099-01-01T00:00:00Z"}, 201).Get("result.id").(string)
	theirs := call(t, other, "POST", "/notices", map[string]any{"title": "Theirs", "message": "m",
		"publishAt": at.Format(time.RFC3339)}, 201).Get("result.id").(string)

	j := job(t, tn.ID)
	if res, err := j.Run(context.Background()); err != nil || res.Due != 0 || res.Moved != 0 {
		t.Fatalf("before the time: %+v %v", res, err)
	}
	time.Sleep(time.Until(end.Add(100 * time.Millisecond)))

	// Two runs at once, then a third: each due record moves exactly once.
	var wg sync.WaitGroup
	results := make([]schedule.Result, 2)
	for i := range results {
		wg.Go(func() {
			var err error
			if results[i], err = j.Run(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if moved := results[0].Moved + results[1].Moved; moved != 2 {
		t.Fatalf("concurrent runs moved %d, want 2: %+v", moved, results)
	}
	// The notice is past its end too: moved to expired in one write, nothing left due.
	if res, err := j.Run(context.Background()); err != nil || res.Moved != 0 || res.Due != 0 {
		t.Fatalf("third run %+v %v", res, err)
	}

	p := call(t, tn, "GET", "/pages/"+page, nil, 200)
	if p.Get("result.schedule") != "live" || p.Get("result.version") != float64(2) {
		t.Fatalf("page %s", p.Raw)
	}
	n := call(t, tn, "GET", "/notices/"+notice, nil, 200)
	if n.Get("result.schedule") != "expired" || n.Get("result.version") != float64(2) {
		t.Fatalf("notice %s", n.Raw)
	}
	if s := call(t, tn, "GET", "/sliders/"+later, nil, 200); s.Get("result.schedule") != "scheduled" || s.Get("result.version") != float64(1) {
		t.Fatalf("a slider not due was moved: %s", s.Raw)
	}
	if o := call(t, other, "GET", "/notices/"+theirs, nil, 200); o.Get("result.schedule") != "scheduled" || o.Get("result.version") != float64(1) {
		t.Fatalf("another tenant's notice was moved: %s", o.Raw)
	}
	// Versioned and audited like an edit, by the scheduler, naming the one field it changed.
	v := call(t, tn, "GET", "/pages/"+page+"/versions", nil, 200)
	if v.Get("totalCount") != float64(1) || v.Get("result.0.byName") != "scheduler" || fmt.Sprint(v.Get("result.0.changed")) != "[schedule]" {
		t.Fatalf("page versions %s", v.Raw)
	}
	kept := call(t, tn, "GET", "/pages/"+page+"/versions/1", nil, 200)
	if kept.Get("result.schedule") != "scheduled" {
		t.Fatalf("kept state %s", kept.Raw)
	}
	log := call(t, tn, "GET", "/audit-log?user="+schedule.SchedulerID, nil, 200)
	var audited []string
	for _, e := range log.Get("result").([]any) {
		m := e.(map[string]any)
		if m["action"] != "update" || fmt.Sprint(m["changed"]) != "[schedule]" {
			t.Fatalf("audit entry %v", m)
		}
		audited = append(audited, m["collection"].(string)+"/"+m["recordId"].(string))
	}
	slices.Sort(audited)
	if want := []string{"notices/" + notice, "pages/" + page}; !slices.Equal(audited, want) {
		t.Fatalf("audited %v, want %v (%s)", audited, want, log.Raw)
	}
	// The page is live until its end: its due item is its unpublishAt now, the notice has none.
	scope, _ := store.NewScope(tn.ID)
	var due []collections.DueItem
	if err := testkit.Deps(t).Store.Table.Get("PK", collections.DuePartition(scope)).All(context.Background(), &due); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range due {
		ids = append(ids, d.ID)
	}
	slices.Sort(ids)
	want := []string{page, later}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("due items %+v", due)
	}
}

// TestJobSkipsWhatAnEditMovedFirst: an edit after the time has passed works the state out
// itself, so the job finds nothing due for that record and writes nothing.
func TestJobSkipsWhatAnEditMovedFirst(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	at := time.Now().UTC().Add(time.Second).Truncate(time.Second).Add(time.Second)
	id := call(t, tn, "POST", "/events", map[string]any{"title": "Fair", "startDate": "2099-01-01",
		"publishAt": at.Format(time.RFC3339)}, 201).Get("result.id").(string)
	time.Sleep(time.Until(at.Add(50 * time.Millisecond)))
	if e := call(t, tn, "PATCH", "/events/"+id, map[string]any{"location": "Hall", "version": 1}, 200); e.Get("result.schedule") != "live" {
		t.Fatalf("edit after the time %s", e.Raw)
	}
	res, err := job(t, tn.ID).Run(context.Background())
	if err != nil || res.Due != 0 || res.Moved != 0 {
		t.Fatalf("run %+v %v", res, err)
	}
	if e := call(t, tn, "GET", "/events/"+id, nil, 200); e.Get("result.version") != float64(2) {
		t.Fatalf("event %s", e.Raw)
	}
}
