package trash_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	trashmodule "github.com/campuscms/panel/shared/trash"
)

// formWith creates a form of one text field with n submissions (sent through forms.Submit, as
// the website does) and returns its id and the submissions' ids, oldest first.
func formWith(t *testing.T, tn testkit.Tenant, name string, n int) (string, []string) {
	t.Helper()
	id := must(t, as(t, tn, tn.AdminToken, "POST", "/custom-forms", body(t, tn, "custom-forms", map[string]any{"name": name, "status": true,
		"fields": `[{"id":"NEW_1","label":"Name","fieldType":"text","required":true}]`})), 201).Get("result.id").(string)
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	subs := make([]string, 0, n)
	for i := range n {
		sub, err := forms.Submit(context.Background(), testkit.Deps(t).Store, &auth.Caller{Scope: scope}, id,
			map[string]json.RawMessage{"Name": json.RawMessage(fmt.Sprintf(`"Visitor %d of %s"`, i, name))})
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub["id"].(string))
	}
	return id, subs
}

// left counts what the form holds in the table: submissions, their search index entries, its
// counter, its history (the trash entry among it) and its purge's due item.
func left(t *testing.T, tenant, form string) int {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	st := testkit.Deps(t).Store
	subs := scope.Partition("FORM", form, "SUB")
	n := 0
	for _, q := range []*dynamo.Query{
		st.Table.Get("PK", subs), st.Table.Get("PK", listing.WordPartition(subs)),
		st.Table.Get("PK", scope.Partition("FORM", form)), st.Table.Get("PK", scope.Partition("HIST", "custom-forms", form)),
		st.Table.Get("PK", scope.Partition("DUE")).Range("SK", dynamo.Equal, "PURGE#custom-forms#"+form),
	} {
		var keys []store.Key
		if err := q.Project("PK", "SK").Limit(1000).All(context.Background(), &keys); err != nil && err != dynamo.ErrNotFound {
			t.Fatal(err)
		}
		n += len(keys)
	}
	return n
}

// entryOf is the form's trash entry as the Trash screen lists it (nil when it is not listed).
func entryOf(t *testing.T, tn testkit.Tenant, form string) map[string]any {
	t.Helper()
	_, list := trash(t, tn, "kind=custom-forms")
	for _, e := range list {
		if e["id"] == form {
			return e
		}
	}
	return nil
}

// TestAnInterruptedPurgeIsFinishedByARetry: "Delete forever" of a form with submissions first
// claims its trash entry (audit entry, due item), then deletes the submissions in bounded
// transactions; a fault half way answers an error, leaves the entry in the trash marked as being
// purged (not restorable), and a retry goes on where it stopped until nothing of the form is
// left. Another tenant's form, and a live form of the same tenant, keep every submission.
func TestAnInterruptedPurgeIsFinishedByARetry(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	admin := tn.AdminToken
	form, subs := formWith(t, tn, "Visit", 60)
	live, _ := formWith(t, tn, "Open day", 3)
	theirs, _ := formWith(t, other, "Visit", 3)
	kept := map[string]int{"live": left(t, tn.ID, live), "theirs": left(t, other.ID, theirs)}
	must(t, as(t, tn, admin, "DELETE", "/custom-forms/"+form, nil), 200)
	e := entryOf(t, tn, form)
	if e == nil || e["purging"] != nil {
		t.Fatalf("trash entry %v", e)
	}

	// The transaction that deletes the 55th submission fails: those before it are gone.
	undo := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: subs[54], Status: 400, Code: "ValidationException"})
	res := as(t, tn, admin, "DELETE", entryPath(e), nil)
	undo()
	if res.Status != http.StatusInternalServerError {
		t.Fatalf("purge with a fault: %d %s", res.Status, res.Raw)
	}
	total := left(t, tn.ID, form)
	if total == 0 || total >= left(t, tn.ID, live)*20 {
		t.Fatalf("after the fault %d items are left", total)
	}
	if e := entryOf(t, tn, form); e == nil || e["purging"] != true {
		t.Fatalf("an interrupted purge's entry: %v", e)
	}
	res = as(t, tn, admin, "POST", entryPath(e)+"/restore", nil)
	if res.Status != http.StatusConflict || res.Message() != "This item is being deleted forever and can no longer be restored." {
		t.Fatalf("restoring a purge under way: %d %s", res.Status, res.Raw)
	}

	must(t, as(t, tn, admin, "DELETE", entryPath(e), nil), 200)
	if n := left(t, tn.ID, form); n != 0 {
		t.Fatalf("after the retry %d items are left", n)
	}
	if e := entryOf(t, tn, form); e != nil {
		t.Fatalf("still listed: %v", e)
	}
	must(t, as(t, tn, admin, "DELETE", entryPath(e), nil), 404)
	if log := must(t, as(t, tn, admin, "GET", "/audit-log?action=purge", nil), 200); len(log.Body["result"].([]any)) != 1 || log.Get("result.0.recordId") != form {
		t.Fatalf("one audit entry for the purge: %s", log.Raw)
	}
	if n := left(t, tn.ID, live); n != kept["live"] {
		t.Fatalf("a live form of the tenant lost items: %d, was %d", n, kept["live"])
	}
	if n := left(t, other.ID, theirs); n != kept["theirs"] {
		t.Fatalf("another tenant's form lost items: %d, was %d", n, kept["theirs"])
	}
}

// TestAPurgeTooLongForOneRequest: a form with more submissions than one request deletes answers
// 202, listed as being purged; "Delete forever" again finishes it.
func TestAPurgeTooLongForOneRequest(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := tn.AdminToken
	form, _ := formWith(t, tn, "Busy", 101)
	must(t, as(t, tn, admin, "DELETE", "/custom-forms/"+form, nil), 200)
	e := entryOf(t, tn, form)
	res := must(t, as(t, tn, admin, "DELETE", entryPath(e), nil), http.StatusAccepted)
	if res.Message() != trashmodule.MsgPurging || res.Get("result.purging") != true {
		t.Fatalf("answer %s", res.Raw)
	}
	if e := entryOf(t, tn, form); e == nil || e["purging"] != true || e["purgedAt"] == "" {
		t.Fatalf("a purge under way: %v", e)
	}
	if n := left(t, tn.ID, form); n == 0 {
		t.Fatal("nothing left after a request that did not finish")
	}
	must(t, as(t, tn, admin, "DELETE", entryPath(e), nil), 200)
	if n := left(t, tn.ID, form); n != 0 || entryOf(t, tn, form) != nil {
		t.Fatalf("after the second request %d items are left", n)
	}
}
