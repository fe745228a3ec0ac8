package menu

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
)

const (
	idA = "01ARZ3NDEKTSV4RRFFQ69G5FA1"
	idB = "01ARZ3NDEKTSV4RRFFQ69G5FA2"
	idC = "01ARZ3NDEKTSV4RRFFQ69G5FA3"
	idX = "01ARZ3NDEKTSV4RRFFQ69G5FA9"
	pg  = "01ARZ3NDEKTSV4RRFFQ69G5FP1"
)

func str(s string) *string { return &s }

func in(id string, kids ...Input) Input { return Input{ID: id, Children: kids} }

// TestRebuild is the tree validation table: depth, ids, fields, positions.
func TestRebuild(t *testing.T) {
	current := Normalize([]Item{
		{ID: idA, Label: "Home", Type: TypeCustomURL, URL: "/", Status: true},
		{ID: idB, Label: "About", Type: TypeCustomURL, URL: "/about", Status: true, Children: []Item{{ID: idC, Label: "Team", Type: TypeCustomURL, URL: "#"}}},
	})
	cases := []struct {
		name  string
		tree  []Input
		error string // part of the message; "" means accepted
		check func(t *testing.T, got []Item)
	}{
		{"same tree", []Input{in(idA), in(idB, in(idC))}, "", func(t *testing.T, got []Item) {
			if got[1].Children[0].ID != idC || got[1].Position != 2 || got[1].Children[0].Position != 1 {
				t.Fatalf("%+v", got)
			}
		}},
		{"reorder and nest", []Input{in(idB), in(idA, in(idC))}, "", func(t *testing.T, got []Item) {
			if got[0].ID != idB || got[0].Position != 1 || got[1].ID != idA || got[1].Children[0].ID != idC || len(got[0].Children) != 0 {
				t.Fatalf("%+v", got)
			}
		}},
		{"left out is removed", []Input{in(idA)}, "", func(t *testing.T, got []Item) {
			if len(got) != 1 || Count(got) != 1 {
				t.Fatalf("%+v", got)
			}
		}},
		{"empty menu", []Input{}, "", func(t *testing.T, got []Item) {
			if len(got) != 0 {
				t.Fatalf("%+v", got)
			}
		}},
		{"fields edited", []Input{{ID: idA, Label: str(" Start "), URL: str("https://example.org/x"), Status: json.RawMessage(`"0"`)}}, "", func(t *testing.T, got []Item) {
			if got[0].Label != "Start" || got[0].URL != "https://example.org/x" || got[0].Status {
				t.Fatalf("%+v", got[0])
			}
		}},
		{"page item", []Input{{ID: idA, Type: str(TypePage), URL: str(pg)}}, "", func(t *testing.T, got []Item) {
			if ids := PageIDs(got); len(ids) != 1 || ids[0] != pg {
				t.Fatalf("%v", ids)
			}
		}},
		{"third level", []Input{in(idA, in(idB, in(idC)))}, "one level deep", nil},
		{"unknown id", []Input{in(idX)}, "not found", nil},
		{"no id", []Input{{Label: str("New")}}, "id starting with NEW_", nil},
		{"new items get ids and defaults", []Input{in(idA, Input{ID: "NEW_1", Label: str("News"), URL: str("/news")}), {ID: "NEW_2"}}, "", func(t *testing.T, got []Item) {
			kid, top := got[0].Children[0], got[1]
			if !ids.Valid(kid.ID) || kid.Label != "News" || kid.URL != "/news" || !kid.Status || kid.Type != TypeCustomURL {
				t.Fatalf("new child %+v", kid)
			}
			if !ids.Valid(top.ID) || top.ID == kid.ID || top.Label != "Link" || top.URL != "#" || top.Position != 2 {
				t.Fatalf("new item %+v", top)
			}
		}},
		{"a new id twice", []Input{{ID: "NEW_1"}, {ID: "NEW_1"}}, "appears twice", nil},
		{"an overlong new id", []Input{{ID: "NEW_" + strings.Repeat("x", 40)}}, "not found", nil},
		{"twice", []Input{in(idA), in(idB, in(idA))}, "appears twice", nil},
		{"empty label", []Input{{ID: idA, Label: str("  ")}}, "Label is required!", nil},
		{"long label", []Input{{ID: idA, Label: str(strings.Repeat("x", 101))}}, "at most 100", nil},
		{"bad type", []Input{{ID: idA, Type: str("LINK")}}, "PAGE or CUSTOM_URL", nil},
		{"page without page id", []Input{{ID: idA, Type: str(TypePage), URL: str("/about")}}, "choose a page", nil},
		{"javascript url", []Input{{ID: idA, URL: str("javascript:alert(1)")}}, "URL must be", nil},
		{"protocol-relative url", []Input{{ID: idA, URL: str("//evil.example")}}, "URL must be", nil},
		{"bare word url", []Input{{ID: idA, URL: str("about")}}, "URL must be", nil},
		{"bad status", []Input{{ID: idA, Status: json.RawMessage(`"maybe"`)}}, "true or false", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Rebuild(current, c.tree)
			if c.error == "" {
				if err != nil {
					t.Fatal(err)
				}
				c.check(t, got)
				return
			}
			apiErr, ok := err.(*api.Error)
			if !ok || apiErr.Status != 400 || !strings.Contains(apiErr.Message, c.error) {
				t.Fatalf("error %v, want a 400 containing %q", err, c.error)
			}
		})
	}
}

func TestRebuildBound(t *testing.T) {
	var current []Item
	var tree []Input
	for i := 0; i <= MaxItems; i++ {
		id := strings.Repeat("0", 23) + string(rune('A'+i/100)) + string(rune('A'+i/10%10)) + string(rune('A'+i%10))
		current = append(current, Item{ID: id, Label: "L", Type: TypeCustomURL, URL: "#"})
		tree = append(tree, in(id))
	}
	if _, err := Rebuild(current, tree); err == nil || !strings.Contains(err.Error(), "at most 200 items") {
		t.Fatalf("error %v", err)
	}
}

func TestInsertAndRemove(t *testing.T) {
	items := Normalize([]Item{{ID: idA}, {ID: idB, Children: []Item{{ID: idC}}}})
	got := Insert(items, Item{ID: idX}, 1)
	if got[0].ID != idX || got[1].Position != 2 || got[2].Position != 3 {
		t.Fatalf("%+v", got)
	}
	if got = Insert(items, Item{ID: idX}, 0); got[2].ID != idX {
		t.Fatalf("%+v", got)
	}
	got, ok := Remove(items, idB)
	if !ok || Count(got) != 1 {
		t.Fatalf("remove a parent removes its children: %+v", got)
	}
	got, ok = Remove(items, idC)
	if !ok || Count(got) != 2 || len(got[1].Children) != 0 {
		t.Fatalf("%+v", got)
	}
	if _, ok = Remove(items, idX); ok {
		t.Fatal("removed an unknown id")
	}
}

func TestNewItemDefaults(t *testing.T) {
	it, err := NewItem(idA, Input{})
	if err != nil || it.Label != "Link" || it.URL != "#" || it.Type != TypeCustomURL || !it.Status {
		t.Fatalf("%+v %v", it, err)
	}
	if _, err := NewItem(idA, Input{ID: idB}); err == nil {
		t.Fatal("a new item took a client id")
	}
}
