package tenants_test

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// TestReindexLeavesNoOldWordsOnARacingRename: a page renamed after the reindex read it and
// before it wrote its words keeps only the new name's words (the reindex's writes are
// conditioned on the record as read, and redone from a fresh read when it changed); a search
// for the old name finds nothing.
func TestReindexLeavesNoOldWordsOnARacingRename(t *testing.T) {
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/pages", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Open Day"}})
	testkit.Expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)
	scope, _ := store.NewScope(tn.ID)
	pages := scope.Collection("pages")

	var once sync.Once
	tenants.SetAfterReindexRead(func(partition string) {
		if partition != pages {
			return
		}
		once.Do(func() {
			testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/pages/" + id, Tenant: tn.ID, Token: tn.AdminToken,
				Body: map[string]any{"title": "Graduation", "version": 1}}), http.StatusOK, "")
		})
	})
	defer tenants.SetAfterReindexRead(nil)
	if _, err := tenants.Reindex(context.Background(), testkit.Deps(t).Store, tn.ID); err != nil {
		t.Fatal(err)
	}

	var entries []listing.WordEntry
	if err := testkit.Deps(t).Store.Table.Get("PK", listing.WordPartition(pages)).All(context.Background(), &entries); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.SK)
	}
	sort.Strings(keys)
	if want := []string{"graduation#" + id}; !slices.Equal(keys, want) {
		t.Fatalf("word entries %v, want %v", keys, want)
	}
	for q, want := range map[string]float64{"open": 0, "graduation": 1} {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages?search=" + q, Tenant: tn.ID, Token: tn.AdminToken})
		if res.Get("totalCount") != want {
			t.Fatalf("search %q: %s", q, res.Raw)
		}
	}
}
