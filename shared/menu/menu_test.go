package menu_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/menu"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

// newPage writes a page record straight into the table (pages are another module's collection:
// PK T#{t}#pages, SK {pageId}) and returns its id.
func newPage(t *testing.T, tenant, title string) string {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	id := ids.New()
	item := map[string]any{"PK": scope.Collection(menu.PagesCollection), "SK": id, "id": id, "title": title, "version": 1}
	if err := testkit.Deps(t).Store.Table.Put(item).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return id
}

func add(t *testing.T, tn testkit.Tenant, body map[string]any) map[string]any {
	t.Helper()
	res := testkit.Call(t, call{Method: "POST", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, http.StatusCreated, "Created Successfully")
	return res.Body["result"].(map[string]any)
}

func tree(t *testing.T, tn testkit.Tenant) ([]any, float64) {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	return res.Body["result"].([]any), res.Get("version").(float64)
}

func TestCreateDefaultsAndDelete(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	items, version := tree(t, tn)
	if len(items) != 0 || version != 0 {
		t.Fatalf("new tenant menu %v v%v", items, version)
	}
	first := add(t, tn, map[string]any{})
	if first["label"] != "Link" || first["url"] != "#" || first["type"] != "CUSTOM_URL" || first["status"] != true || first["position"] != float64(1) {
		t.Fatalf("defaults %v", first)
	}
	second := add(t, tn, map[string]any{"label": "Front", "url": "/", "status": "1", "position": 1})
	items, version = tree(t, tn)
	if len(items) != 2 || get(items, "0.id") != second["id"] || get(items, "1.position") != float64(2) || version != 2 {
		t.Fatalf("after two creates %v v%v", items, version)
	}
	// Nest the first under the second, then delete the parent: the child goes with it.
	res := testkit.Call(t, call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"version": version, "menuItems": []any{map[string]any{"id": second["id"], "children": []any{map[string]any{"id": first["id"]}}}}}})
	testkit.Expect(t, res, http.StatusOK, "Menu Items Updated")
	res = testkit.Call(t, call{Method: "DELETE", Path: "/menu-items/" + second["id"].(string), Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "Menu Item Deleted!")
	if items, _ = tree(t, tn); len(items) != 0 {
		t.Fatalf("after delete %v", items)
	}
	res = testkit.Call(t, call{Method: "DELETE", Path: "/menu-items/" + second["id"].(string), Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusNotFound, "Menu item not found!")
	for _, bad := range []map[string]any{
		{"url": "javascript:alert(1)"}, {"type": "PAGE", "url": ids.New()}, {"label": ""}, {"id": ids.New()}, {"extra": 1},
	} {
		res := testkit.Call(t, call{Method: "POST", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken, Body: bad})
		testkit.Expect(t, res, http.StatusBadRequest, "")
	}
}

// TestASaveCreatesItsNewItems: a draft with added items (NEW_ ids) is one save, one version.
func TestASaveCreatesItsNewItems(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	kept := add(t, tn, map[string]any{"label": "Home", "url": "/"})
	_, version := tree(t, tn)
	res := testkit.Call(t, call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"version": version, "menuItems": []any{map[string]any{"id": kept["id"], "children": []any{
			map[string]any{"id": "NEW_1", "label": "News", "url": "/news", "status": false}}},
			map[string]any{"id": "NEW_2", "label": "Contact", "url": "/contact"}}}})
	testkit.Expect(t, res, http.StatusOK, "Menu Items Updated")
	items, after := tree(t, tn)
	child, _ := get(items, "0.children.0.id").(string)
	top, _ := get(items, "1.id").(string)
	if after != version+1 || !ids.Valid(child) || !ids.Valid(top) || get(items, "0.children.0.status") != false || get(items, "1.label") != "Contact" {
		t.Fatalf("after the save v%v: %v", after, items)
	}
}

// TestSaveValidation is the tree validation table over HTTP: depth, unknown ids, page
// references (another tenant's page included), URLs. A refused save writes nothing.
func TestSaveValidation(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	page, otherPage := newPage(t, tn.ID, "About us"), newPage(t, other.ID, "Their page")
	a, b, c := add(t, tn, map[string]any{"label": "A"})["id"], add(t, tn, map[string]any{"label": "B"})["id"], add(t, tn, map[string]any{"label": "C"})["id"]
	item := func(id any, extra map[string]any, kids ...any) map[string]any {
		m := map[string]any{"id": id, "position": 99}
		for k, v := range extra {
			m[k] = v
		}
		if kids != nil {
			m["children"] = kids
		}
		return m
	}
	cases := []struct {
		name   string
		items  []any
		status int
	}{
		{"third level", []any{item(a, nil, item(b, nil, item(c, nil)))}, 400},
		{"unknown id", []any{item(a, nil), item(ids.New(), nil)}, 400},
		{"item without id", []any{item(a, nil), map[string]any{"label": "New"}}, 400},
		{"page of another tenant", []any{item(a, map[string]any{"type": "PAGE", "url": otherPage})}, 400},
		{"page that does not exist", []any{item(a, map[string]any{"type": "PAGE", "url": ids.New()})}, 400},
		{"page id that is not an id", []any{item(a, map[string]any{"type": "PAGE", "url": "../x"})}, 400},
		{"custom url not allowed", []any{item(a, map[string]any{"url": "ftp://x.org"})}, 400},
		{"children of a child", []any{item(a, nil, item(b, nil, item(c, nil)))}, 400},
		{"accepted: page, nesting, urls", []any{
			item(c, map[string]any{"type": "PAGE", "url": page}, item(a, map[string]any{"url": "https://example.org/a"})),
			item(b, map[string]any{"url": "/news", "status": false}),
		}, 200},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			before, version := tree(t, tn)
			res := testkit.Call(t, call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken,
				Body: map[string]any{"menuItems": cs.items, "version": version}})
			testkit.Expect(t, res, cs.status, "")
			after, v2 := tree(t, tn)
			if cs.status != 200 {
				if v2 != version || len(after) != len(before) {
					t.Fatalf("a refused save wrote: v%v → v%v", version, v2)
				}
				return
			}
			if v2 != version+1 || get(after, "0.id") != c || get(after, "0.children.0.id") != a ||
				get(after, "0.children.0.position") != float64(1) || get(after, "1.position") != float64(2) ||
				get(after, "1.status") != false || get(after, "0.url") != page {
				t.Fatalf("saved %v", after)
			}
		})
	}
}

// TestConcurrentSaves: two saves naming the same version; exactly one wins, the other gets 409.
func TestConcurrentSaves(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	a, b := add(t, tn, map[string]any{"label": "A"})["id"], add(t, tn, map[string]any{"label": "B"})["id"]
	_, version := tree(t, tn)
	orders := [][]any{{map[string]any{"id": a}, map[string]any{"id": b}}, {map[string]any{"id": b}, map[string]any{"id": a}}}
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i := range orders {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := testkit.Call(t, call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken,
				Body: map[string]any{"menuItems": orders[i], "version": version}})
			statuses[i] = res.Status
		}(i)
	}
	wg.Wait()
	if !(statuses[0] == 200 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 200) {
		t.Fatalf("statuses %v, want one 200 and one 409", statuses)
	}
	if _, v := tree(t, tn); v != version+1 {
		t.Fatalf("version %v, want %v", v, version+1)
	}
	// Concurrent creates do not lose items: POST re-reads and retries on a lost race.
	var wg2 sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			testkit.Call(t, call{Method: "POST", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{}})
		}()
	}
	wg2.Wait()
	if items, _ := tree(t, tn); len(items) != 5 {
		t.Fatalf("%d items after 3 concurrent creates, want 5", len(items))
	}
}

func TestAccess(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id := add(t, tn, map[string]any{"label": "Mine"})["id"].(string)
	_, version := tree(t, tn)
	save := map[string]any{"menuItems": []any{map[string]any{"id": id}}, "version": version}
	viewer := testkit.NewUser(t, tn, "CMS_VIEW_MENU_ITEM")
	nobody := testkit.NewUser(t, tn)
	cases := []struct {
		name   string
		req    call
		status int
	}{
		{"no token", call{Method: "GET", Path: "/menu-items", Tenant: tn.ID}, 401},
		{"other tenant's token", call{Method: "GET", Path: "/menu-items", Tenant: tn.ID, Token: other.AdminToken}, 401},
		{"other tenant's token, save", call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: other.AdminToken, Body: save}, 401},
		{"other tenant's token, delete", call{Method: "DELETE", Path: "/menu-items/" + id, Tenant: tn.ID, Token: other.AdminToken}, 401},
		{"other tenant's id, delete", call{Method: "DELETE", Path: "/menu-items/" + id, Tenant: other.ID, Token: other.AdminToken}, 404},
		{"other tenant's id, save", call{Method: "PATCH", Path: "/menu-items", Tenant: other.ID, Token: other.AdminToken,
			Body: map[string]any{"menuItems": []any{map[string]any{"id": id}}}}, 400},
		{"no permission, view", call{Method: "GET", Path: "/menu-items", Tenant: tn.ID, Token: nobody}, 403},
		{"viewer, create", call{Method: "POST", Path: "/menu-items", Tenant: tn.ID, Token: viewer, Body: map[string]any{}}, 403},
		{"viewer, save", call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: viewer, Body: save}, 403},
		{"viewer, delete", call{Method: "DELETE", Path: "/menu-items/" + id, Tenant: tn.ID, Token: viewer}, 403},
		{"viewer, view", call{Method: "GET", Path: "/menu-items", Tenant: tn.ID, Token: viewer}, 200},
		{"stale version", call{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"menuItems": []any{}, "version": version - 1}}, 409},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			testkit.Expect(t, testkit.Call(t, c.req), c.status, "")
		})
	}
	if items, _ := tree(t, tn); len(items) != 1 {
		t.Fatalf("menu changed by refused calls: %v", items)
	}
}

// get reads a dotted path ("0.children.0.id") from a decoded tree.
func get(items []any, path string) any {
	return testkit.Response{Body: map[string]any{"tree": items}}.Get("tree." + path)
}
