package collections_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// storedItem reads a record's item as stored, every attribute.
func storedItem(t *testing.T, st *store.Store, scope store.Scope, kind, id string) collections.Record {
	t.Helper()
	var rec collections.Record
	if err := st.Get(context.Background(), store.Key{PK: scope.Collection(kind), SK: id}, &rec); err != nil {
		t.Fatalf("read %s %s: %v", kind, id, err)
	}
	return rec
}

// writeOutside writes a record of kind the way a writer outside the engine does: its own item,
// and its side effects from collections.SideEffects, in one transaction.
func writeOutside(t *testing.T, st *store.Store, caller *auth.Caller, k collections.Kind, action string, before, after collections.Record) {
	t.Helper()
	ctx := context.Background()
	fx, err := collections.SideEffects(ctx, st, collections.Change{Caller: caller, Kind: k, Action: action, Before: before, After: after})
	if err != nil {
		t.Fatal(err)
	}
	tx := st.WriteTx()
	switch action {
	case collections.ActionCreate:
		tx.Put(st.Table.Put(fx.Stored(maps.Clone(after))).If("attribute_not_exists(PK)"))
	case collections.ActionUpdate:
		upd := st.Table.Update("PK", after["PK"]).Range("SK", after["SK"]).If("version = ?", before["version"])
		for name, v := range after {
			if name != "PK" && name != "SK" {
				upd.Set(name, v)
			}
		}
		fx.Set(upd)
		tx.Update(upd)
	}
	fx.AddTo(st, caller.Scope, tx)
	if err := tx.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestSideEffectsAreTheEngines (issue 39, item 5): a record written outside the engine with
// collections.SideEffects is stored, listed, found, counted, versioned and audited exactly as one
// the engine writes, and the engine's own routes go on from it (edit, delete, trash).
func TestSideEffectsAreTheEngines(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	faqs := collections.KindOf(reg["faqs"])
	res := testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"question": "Engine question", "answer": "A"}})
	mustStatus(t, res, 201)
	engineID := res.Get("result.id").(string)

	id, now := ids.New(), time.Now().UTC().Format(time.RFC3339Nano)
	rec := collections.Record{"PK": scope.Collection("faqs"), "SK": id, "id": id, "version": 1, "createdAt": now, "updatedAt": now,
		"question": "Outside question", "answer": "A", "status": true}
	caller := auth.OperatorCaller(scope)
	writeOutside(t, st, caller, faqs, collections.ActionCreate, nil, rec)

	// Stored with the same attributes.
	names := func(rec collections.Record) []string { return slices.Sorted(maps.Keys(rec)) }
	if a, b := names(storedItem(t, st, scope, "faqs", engineID)), names(storedItem(t, st, scope, "faqs", id)); !slices.Equal(a, b) {
		t.Fatalf("the engine stores %v, the outside writer %v", a, b)
	}
	// Listed and counted, found by its words.
	if list := get(t, tn, "/faqs"); list.Get("totalCount") != float64(2) {
		t.Fatalf("list: %s", list.Raw)
	}
	if found := get(t, tn, "/faqs?search=outside"); found.Get("totalCount") != float64(1) || found.Get("result.0.id") != id {
		t.Fatalf("search: %s", found.Raw)
	}
	// An update outside: its version kept and audited, its words moved.
	before := storedItem(t, st, scope, "faqs", id)
	after := maps.Clone(rec)
	after["question"], after["version"], after["updatedAt"] = "Renamed question", 2, time.Now().UTC().Format(time.RFC3339Nano)
	writeOutside(t, st, caller, faqs, collections.ActionUpdate, before, after)
	if found := get(t, tn, "/faqs?search=outside"); found.Get("totalCount") != float64(0) {
		t.Fatalf("the old name still finds it: %s", found.Raw)
	}
	if found := get(t, tn, "/faqs?search=renamed"); found.Get("totalCount") != float64(1) {
		t.Fatalf("the new name does not find it: %s", found.Raw)
	}
	versions := get(t, tn, "/faqs/"+id+"/versions")
	if versions.Get("totalCount") != float64(1) || fmt.Sprint(versions.Get("result.0.changed")) != "[question]" || versions.Get("result.0.by") != auth.OperatorID {
		t.Fatalf("versions: %s", versions.Raw)
	}
	log := get(t, tn, "/audit-log?collection=faqs")
	var got []string
	for _, e := range log.Body["result"].([]any) {
		e := e.(map[string]any)
		got = append(got, fmt.Sprint(e["action"], " ", e["recordId"], " ", e["changed"]))
	}
	if want := []string{"update " + id + " [question]", "create " + id + " <nil>", "create " + engineID + " <nil>"}; !slices.Equal(got, want) {
		t.Fatalf("audit log %v, want %v", got, want)
	}
	// The engine goes on from it: an edit, a restore of the version kept outside, a delete.
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/faqs/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"answer": "B", "version": 2}}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "POST", Path: "/faqs/" + id + "/versions/1/restore", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": 3}}), 200)
	if got := get(t, tn, "/faqs/"+id); got.Get("result.question") != "Outside question" || got.Get("result.answer") != "A" {
		t.Fatalf("after restoring version 1: %s", got.Raw)
	}
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/faqs/" + id, Tenant: tn.ID, Token: tn.AdminToken}), 200)
	if list := get(t, tn, "/faqs"); list.Get("totalCount") != float64(1) {
		t.Fatalf("list after the delete: %s", list.Raw)
	}
	if trash := get(t, tn, "/trash?kind=faqs"); trash.Get("result.0.id") != id {
		t.Fatalf("trash: %s", trash.Raw)
	}
}

// TestSideEffectsRefuseAnUnkeepableState: a writer outside the engine is held to its rule too: a
// state no version could keep is refused (413) before anything is written.
func TestSideEffectsRefuseAnUnkeepableState(t *testing.T) {
	t.Parallel()
	scope, err := store.NewScope("t-unkeepable")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 500_000)
	_, _ = rand.Read(noise)
	id := ids.New()
	rec := collections.Record{"id": id, "version": 1, "question": "Q", "answer": base64.StdEncoding.EncodeToString(noise)}
	_, err = collections.SideEffects(context.Background(), testkit.Deps(t).Store, collections.Change{Caller: auth.OperatorCaller(scope),
		Kind: collections.KindOf(reg["faqs"]), Action: collections.ActionCreate, After: rec})
	var refused *api.Error
	if !errors.As(err, &refused) || refused.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("an unkeepable state: %v", err)
	}
}
