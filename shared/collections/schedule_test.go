package collections_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// dueItems reads a tenant's due index whole.
func dueItems(t *testing.T, tenant string) []collections.DueItem {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	var out []collections.DueItem
	err = testkit.Deps(t).Store.Table.Get("PK", collections.DuePartition(scope)).All(context.Background(), &out)
	if err != nil && err != dynamo.ErrNotFound {
		t.Fatal(err)
	}
	return out
}

// TestDateTimeFields: a datetime takes RFC 3339 with its offset and is stored in UTC to the
// second; anything else is a 400 naming the field; unpublishAt must come after publishAt.
func TestDateTimeFields(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	cases := []struct {
		name, publishAt, unpublishAt string
		status                       int
		field, stored                string
	}{
		{"offset", "2031-05-01T09:30:00+02:00", "", 201, "", "2031-05-01T07:30:00Z"},
		{"utc with fraction", "2031-05-01T07:30:00.789Z", "", 201, "", "2031-05-01T07:30:00Z"},
		{"no offset", "2031-05-01T09:30:00", "", 400, "publishAt", ""},
		{"date only", "2031-05-01", "", 400, "publishAt", ""},
		{"words", "next monday", "", 400, "publishAt", ""},
		{"month 13", "2031-13-01T09:30:00Z", "", 400, "publishAt", ""},
		{"window", "2031-05-01T09:00:00Z", "2031-05-02T09:00:00+01:00", 201, "", "2031-05-01T09:00:00Z"},
		{"end before start", "2031-05-02T09:00:00Z", "2031-05-01T09:00:00Z", 400, "unpublishAt", ""},
		{"end equals start", "2031-05-01T10:00:00+01:00", "2031-05-01T09:00:00Z", 400, "unpublishAt", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"title": "Notice " + tc.name, "message": "m", "publishAt": tc.publishAt}
			if tc.unpublishAt != "" {
				body["unpublishAt"] = tc.unpublishAt
			}
			res := do(t, tn, "POST", "/notices", body)
			mustStatus(t, res, tc.status)
			if tc.status != 201 {
				if res.Get("errors."+tc.field) == nil || res.Message() == "" {
					t.Fatalf("no field error for %s: %s", tc.field, res.Raw)
				}
				return
			}
			if res.Get("result.publishAt") != tc.stored || res.Get("result.schedule") != collections.ScheduleScheduled {
				t.Fatalf("stored %s", res.Raw)
			}
		})
	}
	res := do(t, tn, "POST", "/notices", map[string]any{"title": "Bad end", "message": "m", "unpublishAt": "soon"})
	mustStatus(t, res, 400)
	if msg, _ := res.Get("errors.unpublishAt").(string); msg != "Unpublish at must be a date and time with its time zone (RFC 3339, e.g. 2025-09-01T09:00:00+02:00)." {
		t.Fatalf("message %q", msg)
	}
	res = do(t, tn, "POST", "/notices", map[string]any{"title": "Inverted", "message": "m", "publishAt": "2031-05-02T09:00:00Z", "unpublishAt": "2031-05-01T09:00:00Z"})
	if msg, _ := res.Get("errors.unpublishAt").(string); msg != "Unpublish at must be after Publish at." {
		t.Fatalf("message %q", msg)
	}
}

// TestScheduleStateAndDueIndex: every write stores the record's schedule state at that moment
// (never what a client sends) and keeps one due item per record whose state will change, in
// the record's own partition of the tenant, in the write's own transaction.
func TestScheduleStateAndDueIndex(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	res := do(t, tn, "POST", "/sliders", map[string]any{"title": "Open day", "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png",
		"publishAt": "2031-05-01T09:00:00Z", "unpublishAt": "2031-05-08T09:00:00Z", "schedule": "live"})
	mustStatus(t, res, 201)
	id := res.Get("result.id").(string)
	if res.Get("result.schedule") != "scheduled" {
		t.Fatalf("a client's state was taken: %s", res.Raw)
	}
	due := dueItems(t, tn.ID)
	if len(due) != 1 || due[0].SK != "sliders#"+id || due[0].DueAt != "2031-05-01T09:00:00Z" ||
		due[0].IndexSK != "2031-05-01T09:00:00Z#"+due[0].PK+"#sliders#"+id || due[0].Collection != "sliders" || due[0].ID != id {
		t.Fatalf("due items %+v", due)
	}
	for _, bad := range []any{"soon", 3, []string{"live"}} {
		res := do(t, tn, "PATCH", "/sliders/"+id, map[string]any{"schedule": bad})
		if res.Status != 400 || res.Get("errors.schedule") != "Schedule is set by the server; leave it out." {
			t.Fatalf("schedule %v: %s", bad, res.Raw)
		}
	}
	if len(dueItems(t, other.ID)) != 0 {
		t.Fatal("another tenant has a due item")
	}
	// The list shows the state.
	list := do(t, tn, "GET", "/sliders", nil)
	if list.Get("result.0.schedule") != "scheduled" {
		t.Fatalf("list %s", list.Raw)
	}
	// Moving the date moves the item (one Put at its own key); an edit of another field moves nothing.
	mustStatus(t, do(t, tn, "PATCH", "/sliders/"+id, map[string]any{"publishAt": "2031-05-02T09:00:00Z", "version": 1}), 200)
	mustStatus(t, do(t, tn, "PATCH", "/sliders/"+id, map[string]any{"subtitle": "s", "version": 2}), 200)
	if due := dueItems(t, tn.ID); len(due) != 1 || due[0].SK != "sliders#"+id || due[0].DueAt != "2031-05-02T09:00:00Z" ||
		due[0].IndexSK != "2031-05-02T09:00:00Z#"+due[0].PK+"#sliders#"+id {
		t.Fatalf("due items after the move %+v", due)
	}
	// A window already open is live and due at its end; clearing both dates drops state and item.
	mustStatus(t, do(t, tn, "PATCH", "/sliders/"+id, map[string]any{"publishAt": "2020-01-01T00:00:00Z", "version": 3}), 200)
	got := do(t, tn, "GET", "/sliders/"+id, nil)
	if got.Get("result.schedule") != "live" {
		t.Fatalf("open window %s", got.Raw)
	}
	if due := dueItems(t, tn.ID); len(due) != 1 || due[0].SK != "sliders#"+id || due[0].DueAt != "2031-05-08T09:00:00Z" {
		t.Fatalf("due items of a live record %+v", due)
	}
	mustStatus(t, do(t, tn, "PATCH", "/sliders/"+id, map[string]any{"publishAt": nil, "unpublishAt": nil, "version": 4}), 200)
	got = do(t, tn, "GET", "/sliders/"+id, nil)
	if got.Get("result.schedule") != nil || got.Get("result.publishAt") != nil {
		t.Fatalf("cleared %s", got.Raw)
	}
	if due := dueItems(t, tn.ID); len(due) != 0 {
		t.Fatalf("due items after clearing %+v", due)
	}
	// An expired record has nothing due; deleting a scheduled one takes its item with it.
	exp := do(t, tn, "POST", "/notices", map[string]any{"title": "Old", "message": "m", "unpublishAt": "2020-01-01T00:00:00Z"})
	if exp.Get("result.schedule") != "expired" || len(dueItems(t, tn.ID)) != 0 {
		t.Fatalf("expired %s", exp.Raw)
	}
	later := do(t, tn, "POST", "/events", map[string]any{"title": "Later", "startDate": "2031-01-01", "publishAt": "2031-01-01T00:00:00Z"})
	mustStatus(t, later, 201)
	if len(dueItems(t, tn.ID)) != 1 {
		t.Fatal("no due item for the event")
	}
	mustStatus(t, do(t, tn, "DELETE", "/events/"+later.Get("result.id").(string), nil), http.StatusOK)
	if due := dueItems(t, tn.ID); len(due) != 0 {
		t.Fatalf("due items after delete %+v", due)
	}
}

func TestScheduleAt(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		rec  map[string]any
		want string
	}{
		{"no dates", map[string]any{}, ""},
		{"before start", map[string]any{"publishAt": "2030-01-01T12:00:01Z"}, "scheduled"},
		{"at start", map[string]any{"publishAt": "2030-01-01T12:00:00Z"}, "live"},
		{"before end", map[string]any{"unpublishAt": "2030-01-01T12:00:01Z"}, "live"},
		{"at end", map[string]any{"unpublishAt": "2030-01-01T12:00:00Z"}, "expired"},
		{"inside", map[string]any{"publishAt": "2029-01-01T00:00:00Z", "unpublishAt": "2031-01-01T00:00:00Z"}, "live"},
		{"inverted", map[string]any{"publishAt": "2031-01-01T00:00:00Z", "unpublishAt": "2029-01-01T00:00:00Z"}, "expired"},
	}
	for _, tc := range cases {
		if got := collections.ScheduleAt(tc.rec, now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
