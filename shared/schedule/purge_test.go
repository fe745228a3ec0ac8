package schedule_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/schedule"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// newForm creates a form of one text field and sends it n submissions (through forms.Submit,
// as the website does), and returns its id.
func newForm(t *testing.T, tn testkit.Tenant, name string, n int) string {
	t.Helper()
	id := call(t, tn, "POST", "/custom-forms", map[string]any{"name": name, "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png",
		"fields": `[{"id":"NEW_1","label":"Your name","fieldType":"text","required":true}]`}, 201).Get("result.id").(string)
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := map[string]json.RawMessage{"Your name": json.RawMessage(fmt.Sprintf(`"Visitor number %d of %s"`, i, name))}
		if _, err := forms.Submit(context.Background(), testkit.Deps(t).Store, &auth.Caller{Scope: scope}, id, body); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// partition counts the items of a partition of the tenant (at most 1,000).
func partition(t *testing.T, pk string) int {
	t.Helper()
	var keys []store.Key
	err := testkit.Deps(t).Store.Table.Get("PK", pk).Project("PK", "SK").Limit(1000).All(context.Background(), &keys)
	if err != nil && err != dynamo.ErrNotFound {
		t.Fatal(err)
	}
	return len(keys)
}

// held counts what a form holds in the table: its submissions, their search index entries, its
// counter, its history (the trash entry among it) and its purge's due item.
type held struct{ submissions, words, counter, history, due int }

func heldBy(t *testing.T, tenant, form string) held {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	subs := scope.Partition("FORM", form, "SUB")
	var h held
	h.submissions, h.words = partition(t, subs), partition(t, listing.WordPartition(subs))
	h.history = partition(t, scope.Partition("HIST", "custom-forms", form))
	for _, d := range dueItems(t, tenant) {
		if d.Purge && d.ID == form {
			h.due++
		}
	}
	var c map[string]any
	if err := testkit.Deps(t).Store.Get(context.Background(), store.Key{PK: scope.Partition("FORM", form), SK: "COUNT"}, &c); err == nil {
		h.counter = 1
	}
	return h
}

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

// TestAnExpiredTrashEntryTakesItsSubmissions: a deleted form's submissions, kept while it is in
// the trash, go when its trash entry expires, though nothing tells anyone when DynamoDB's TTL
// removes the entry: the delete put a due item at the entry's expiry, and from then on the job
// purges a batch a run (a form of N submissions in at most ceil(N/batch) runs), then the entry,
// the form's history, counter and search index entries and the due item. Before its time nothing
// goes; a form restored from the trash keeps its submissions; live forms, in the same tenant and
// in another, are untouched.
func TestAnExpiredTrashEntryTakesItsSubmissions(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	const n, batch = 7, 3
	gone := newForm(t, tn, "Gone", n)
	back := newForm(t, tn, "Back", 2)
	live := newForm(t, tn, "Live", 2)
	theirs := newForm(t, other, "Theirs", 3)
	theirsGone := newForm(t, other, "Theirs gone", 2)
	before := map[string]held{"back": heldBy(t, tn.ID, back), "live": heldBy(t, tn.ID, live), "theirs": heldBy(t, other.ID, theirs)}
	if h := heldBy(t, tn.ID, gone); h.submissions != n || h.words == 0 || h.counter != 1 {
		t.Fatalf("before: %+v", h)
	}

	for _, id := range []string{gone, back} {
		call(t, tn, "DELETE", "/custom-forms/"+id, nil, 200)
	}
	call(t, other, "DELETE", "/custom-forms/"+theirsGone, nil, 200)
	call(t, tn, "POST", fmt.Sprintf("/trash/custom-forms/%s/1/restore", back), nil, 200)
	if h := heldBy(t, tn.ID, gone); h.submissions != n || h.due != 1 || h.history != 1 {
		t.Fatalf("in the trash: %+v", h)
	}

	ctx := context.Background()
	clock := time.Now().UTC()
	j := schedule.WithPurgeBatch(schedule.WithClock(job(t, tn.ID, other.ID), func() time.Time { return clock }, schedule.MaxPerRun), batch)
	if res, err := j.Run(ctx); err != nil || res.Purged != 0 || res.Purging != 0 {
		t.Fatalf("before the entry's time: %+v %v", res, err)
	}
	if h := heldBy(t, tn.ID, gone); h.submissions != n {
		t.Fatalf("purged before its time: %+v", h)
	}

	// The entry's time has passed: a batch a run.
	clock = clock.Add(collections.TrashTTL + time.Minute)
	runs := 0
	for left := n; left > 0; {
		if runs++; runs > (n+batch-1)/batch {
			t.Fatalf("%d submissions left after %d runs", left, runs-1)
		}
		if _, err := j.Run(ctx); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(time.Minute)
		h := heldBy(t, tn.ID, gone)
		if want := max(0, n-runs*batch); h.submissions != want {
			t.Fatalf("run %d: %d submissions left, want %d", runs, h.submissions, want)
		}
		left = h.submissions
	}
	if h := heldBy(t, tn.ID, gone); h != (held{}) {
		t.Fatalf("after %d runs the form still holds %+v", runs, h)
	}
	if h := heldBy(t, other.ID, theirsGone); h != (held{}) {
		t.Fatalf("the other tenant's expired form still holds %+v", h)
	}
	for name, h := range map[string]held{"back": heldBy(t, tn.ID, back), "live": heldBy(t, tn.ID, live), "theirs": heldBy(t, other.ID, theirs)} {
		if name == "back" {
			h.history-- // the version its restore kept
		}
		if h != before[name] {
			t.Fatalf("form %s: %+v, was %+v", name, h, before[name])
		}
	}
	if res, err := j.Run(ctx); err != nil || res.Purged != 0 || res.Purging != 0 || len(dueItems(t, tn.ID)) != 0 {
		t.Fatalf("a run after: %+v %v, due %+v", res, err, dueItems(t, tn.ID))
	}
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/custom-form-submissions?formId=" + back, Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
}
