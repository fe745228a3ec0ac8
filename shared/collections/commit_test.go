package collections_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/routes"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// observed is what the test observer writes for every write it sees, in the write's transaction.
type observed struct {
	PK     string `dynamo:"PK"`
	SK     string `dynamo:"SK"`
	Action string `dynamo:"action"`
	Before any    `dynamo:"before"`
	After  any    `dynamo:"after"`
}

// observedServer serves the faqs and header collections with an observer that records every
// write (and, while extra > 0, pads the transaction with that many more items).
func observedServer(t *testing.T, extra *int) *httptest.Server {
	t.Helper()
	d := testkit.Deps(t)
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := d.Store
	observer := func(_ context.Context, w *collections.Write) error {
		id, _ := w.Rec["id"].(string)
		if id == "" {
			id, _ = w.Old["id"].(string)
		}
		pk := w.Caller.Scope.Partition("OBSERVED")
		w.Also(st.Table.Put(observed{PK: pk, SK: fmt.Sprintf("%s#%s#%v", id, w.Action, w.Rec["version"]), Action: w.Action,
			Before: w.Old["question"], After: w.Rec["question"]}), nil)
		for i := 0; i < *extra; i++ {
			w.Also(st.Table.Put(observed{PK: pk, SK: fmt.Sprintf("pad#%d", i)}), nil)
		}
		return nil
	}
	svc := collections.NewService(st, d.Guard, reg, collections.Linked{Observers: []collections.Observer{observer}})
	table, err := routes.Load()
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	for _, key := range []string{"faqs", "header"} {
		if err := svc.Register(mux, table.BasePath, key); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func send(t *testing.T, srv *httptest.Server, tn testkit.Tenant, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, srv.URL+"/api/v1/tenant"+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Tenant-Id", tn.ID)
	req.Header.Set("Authorization", "Bearer "+tn.AdminToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func observedItems(t *testing.T, tn testkit.Tenant) []observed {
	t.Helper()
	scope, _ := store.NewScope(tn.ID)
	var out []observed
	err := testkit.Deps(t).Store.Table.Get("PK", scope.Partition("OBSERVED")).Consistent(true).All(context.Background(), &out)
	if err != nil && err != dynamo.ErrNotFound {
		t.Fatal(err)
	}
	return out
}

// TestObserversSeeEveryWriteInItsTransaction: create, update, delete and a singleton save each
// reach the observer once, with the record before and after, and its item is written with the
// change; a refused write (stale version, failed validation) records nothing.
func TestObserversSeeEveryWriteInItsTransaction(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	extra := 0
	srv := observedServer(t, &extra)
	status, body := send(t, srv, tn, "POST", "/faqs", map[string]any{"question": "Q1", "answer": "A"})
	if status != 201 {
		t.Fatalf("create: %d %v", status, body)
	}
	id := body["result"].(map[string]any)["id"].(string)
	if status, body = send(t, srv, tn, "PATCH", "/faqs/"+id, map[string]any{"question": "Q2", "version": 1}); status != 200 {
		t.Fatalf("update: %d %v", status, body)
	}
	if status, _ = send(t, srv, tn, "PATCH", "/faqs/"+id, map[string]any{"question": "Q3", "version": 1}); status != 409 {
		t.Fatalf("a stale update: %d", status)
	}
	if status, _ = send(t, srv, tn, "POST", "/faqs", map[string]any{"question": "no answer"}); status != 400 {
		t.Fatalf("an invalid create: %d", status)
	}
	if status, _ = send(t, srv, tn, "PATCH", "/header", map[string]any{"title": "Hello"}); status != 200 {
		t.Fatalf("singleton: %d", status)
	}
	if status, _ = send(t, srv, tn, "DELETE", "/faqs/"+id, nil); status != 200 {
		t.Fatalf("delete: %d", status)
	}
	got := map[string]observed{}
	for _, o := range observedItems(t, tn) {
		got[o.SK] = o
	}
	want := []string{id + "#create#1", id + "#update#2", id + "#delete#<nil>", tn.ID + "#update#2"}
	if len(got) != len(want) {
		t.Fatalf("observed %v, want %v", got, want)
	}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			t.Fatalf("no observation %s in %v", k, got)
		}
	}
	if u := got[id+"#update#2"]; u.Before != "Q1" || u.After != "Q2" {
		t.Fatalf("update observed as %+v", u)
	}
}

// TestAFailedWriteLeavesNoObservation: a transaction DynamoDB cancels (a fault injected on the
// way) writes neither the change nor what observed it.
func TestAFailedWriteLeavesNoObservation(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	extra := 0
	srv := observedServer(t, &extra)
	remove := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Status: 400,
		Code: "TransactionCanceledException", Reasons: []string{"None", "ConditionalCheckFailed", "None", "None"}})
	status, _ := send(t, srv, tn, "POST", "/faqs", map[string]any{"question": "Q", "answer": "A"})
	remove()
	if status < 400 || status >= 500 {
		t.Fatalf("a cancelled create answered %d", status)
	}
	if n := len(observedItems(t, tn)); n != 0 {
		t.Fatalf("%d observations of a write that did not happen", n)
	}
	if status, body := send(t, srv, tn, "GET", "/faqs", nil); status != 200 || body["totalCount"] != float64(0) {
		t.Fatalf("after the fault: %d %v", status, body)
	}
}

// TestATransactionPastTheLimitIsRefusedWhole: a write whose items would pass DynamoDB's 100 is a
// clear 413 before anything is sent, and nothing of it is written.
func TestATransactionPastTheLimitIsRefusedWhole(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	extra := store.MaxTransactionItems
	srv := observedServer(t, &extra)
	status, body := send(t, srv, tn, "POST", "/faqs", map[string]any{"question": "Q", "answer": "A"})
	if status != http.StatusRequestEntityTooLarge || body["message"] == nil {
		t.Fatalf("%d %v", status, body)
	}
	if n := len(observedItems(t, tn)); n != 0 {
		t.Fatalf("%d items written by a refused write", n)
	}
	extra = 0
	if status, _ := send(t, srv, tn, "POST", "/faqs", map[string]any{"question": "Q", "answer": "A"}); status != 201 {
		t.Fatalf("the same write within the limit: %d", status)
	}
}
