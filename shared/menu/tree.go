// Package menu serves /menu-items: the tenant's navigation menu, one DynamoDB item (T#{t} /
// MENU) holding the whole tree, so a reorder is one conditional write (DESIGN §3).
package menu

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
)

// Item types (SPEC §3).
const (
	TypePage      = "PAGE"
	TypeCustomURL = "CUSTOM_URL"
)

// Limits. The whole tree is one item under DynamoDB's 400 KB: 200 items of at most ~1.2 KB.
const (
	MaxItems = 200
	maxLabel = 100
	maxURL   = 1000
)

// Item is one menu entry; Children are one level deep, ordered by Position (1-based).
type Item struct {
	ID       string `dynamo:"id" json:"id"`
	Label    string `dynamo:"label" json:"label"`
	Type     string `dynamo:"type" json:"type"`
	URL      string `dynamo:"url" json:"url"`
	Status   bool   `dynamo:"status" json:"status"`
	Position int    `dynamo:"position" json:"position"`
	Children []Item `dynamo:"children" json:"children"`
	// Translations are the item's label in other languages (translations.go).
	Translations map[string]Texts `dynamo:"translations,omitempty" json:"translations,omitempty"`
}

// Input is an item as a client sends it: every field optional, status loosely typed (DESIGN §2).
type Input struct {
	ID       string          `json:"id"`
	Label    *string         `json:"label"`
	Type     *string         `json:"type"`
	URL      *string         `json:"url"`
	Status   json.RawMessage `json:"status"`
	Position json.RawMessage `json:"position"`
	Children []Input         `json:"children"`
	// Translations merge into the item's: {"fr": {"label": "…"}}, null removes a language.
	Translations json.RawMessage `json:"translations"`
}

// Count returns how many items the tree holds, children included.
func Count(items []Item) int {
	n := len(items)
	for _, it := range items {
		n += len(it.Children)
	}
	return n
}

// Normalize gives every list a non-nil children slice and 1-based positions in order.
func Normalize(items []Item) []Item {
	out := make([]Item, len(items))
	for i, it := range items {
		it.Position = i + 1
		kids := make([]Item, len(it.Children))
		for j, c := range it.Children {
			c.Position = j + 1
			c.Children = []Item{}
			kids[j] = c
		}
		it.Children = kids
		out[i] = it
	}
	return out
}

// PageIDs returns the distinct page ids PAGE items point at.
func PageIDs(items []Item) []string {
	seen := map[string]bool{}
	var out []string
	var walk func([]Item)
	walk = func(list []Item) {
		for _, it := range list {
			if it.Type == TypePage && !seen[it.URL] {
				seen[it.URL] = true
				out = append(out, it.URL)
			}
			walk(it.Children)
		}
	}
	walk(items)
	return out
}

// NewItem builds a new item from a create request with SPEC's defaults: label 'Link', url '#',
// type custom URL, status on.
func NewItem(id string, in Input) (Item, error) {
	if in.ID != "" || len(in.Children) > 0 {
		return Item{}, api.Errorf(http.StatusBadRequest, "A new menu item has no id and no children.")
	}
	it := Item{ID: id, Label: "Link", Type: TypeCustomURL, URL: "#", Status: true}
	return it, apply(&it, in)
}

// NewIDPrefix marks an item a save creates: "NEW_" and a client's own key (the page editor's
// draft), replaced by a permanent id in the saved tree, like a form's new fields.
const NewIDPrefix = "NEW_"

// maxNewID bounds a new item's client key.
const maxNewID = 40

// Rebuild turns a requested tree into the menu to save. Every item exists in current, or is new
// (an id starting with NewIDPrefix: it gets a permanent id and SPEC's defaults under what it
// gives), so a draft with added items is one conditional write; items left out are removed;
// fields are checked; nesting stops at one level; positions are renumbered by order.
func Rebuild(current []Item, in []Input) ([]Item, error) {
	known := map[string]Item{}
	for _, it := range current {
		known[it.ID] = it
		for _, c := range it.Children {
			known[c.ID] = c
		}
	}
	seen := map[string]bool{}
	total := 0
	var build func(list []Input, depth int) ([]Item, error)
	build = func(list []Input, depth int) ([]Item, error) {
		out := make([]Item, 0, len(list))
		for _, x := range list {
			total++
			if total > MaxItems {
				return nil, api.Errorf(http.StatusBadRequest, "A menu holds at most %d items.", MaxItems)
			}
			name := describe(x)
			switch {
			case x.ID == "":
				return nil, api.Errorf(http.StatusBadRequest, "Menu item %s has no id: give a new item an id starting with %s.", name, NewIDPrefix)
			case seen[x.ID]:
				return nil, api.Errorf(http.StatusBadRequest, "Menu item %s appears twice.", name)
			case depth > 0 && len(x.Children) > 0:
				return nil, api.Errorf(http.StatusBadRequest, "Menu items nest one level deep: %s cannot hold children of its own.", name)
			}
			old, ok := known[x.ID]
			if !ok && strings.HasPrefix(x.ID, NewIDPrefix) && len(x.ID) <= maxNewID {
				old, ok = Item{ID: ids.New(), Label: "Link", Type: TypeCustomURL, URL: "#", Status: true}, true
			}
			if !ok {
				return nil, api.Errorf(http.StatusBadRequest, "Menu item %s not found: reload the menu.", name)
			}
			seen[x.ID] = true
			it := Item{ID: old.ID, Label: old.Label, Type: old.Type, URL: old.URL, Status: old.Status, Translations: old.Translations}
			if err := apply(&it, x); err != nil {
				return nil, err
			}
			kids, err := build(x.Children, depth+1)
			if err != nil {
				return nil, err
			}
			it.Children = kids
			out = append(out, it)
		}
		return out, nil
	}
	items, err := build(in, 0)
	if err != nil {
		return nil, err
	}
	return Normalize(items), nil
}

func describe(x Input) string {
	if x.Label != nil && strings.TrimSpace(*x.Label) != "" {
		return fmt.Sprintf("%q", strings.TrimSpace(*x.Label))
	}
	if x.ID != "" {
		return x.ID
	}
	return "(unnamed)"
}

// apply sets the fields the input gives and checks the result.
func apply(it *Item, in Input) error {
	prevLabel := it.Label
	if in.Label != nil {
		it.Label = strings.TrimSpace(*in.Label)
	}
	if in.Type != nil {
		it.Type = strings.TrimSpace(*in.Type)
	}
	if in.URL != nil {
		it.URL = strings.TrimSpace(*in.URL)
	}
	if len(in.Status) > 0 && string(in.Status) != "null" {
		on, ok := api.ParseBool(in.Status)
		if !ok {
			return api.FieldError(http.StatusBadRequest, "status", "Status must be true or false.")
		}
		it.Status = on
	}
	if err := applyTranslations(it, in.Translations, prevLabel); err != nil {
		return err
	}
	switch {
	case it.Label == "":
		return api.FieldError(http.StatusBadRequest, "label", "Label is required!")
	case len(it.Label) > maxLabel:
		return api.FieldError(http.StatusBadRequest, "label", fmt.Sprintf("Label must be at most %d characters.", maxLabel))
	case it.Type != TypePage && it.Type != TypeCustomURL:
		return api.FieldError(http.StatusBadRequest, "type", "Type must be PAGE or CUSTOM_URL.")
	case it.Type == TypePage && !ids.Valid(it.URL):
		return api.FieldError(http.StatusBadRequest, "url", fmt.Sprintf("Menu item %q: please choose a page.", it.Label))
	case it.Type == TypeCustomURL:
		if msg := checkCustomURL(it.URL); msg != "" {
			return api.FieldError(http.StatusBadRequest, "url", fmt.Sprintf("Menu item %q: %s", it.Label, msg))
		}
	}
	return nil
}

// checkCustomURL accepts '#', a path on the site ('/about') or an http(s) address.
func checkCustomURL(s string) string {
	const msg = "URL must be #, a path starting with / or a web address starting with http:// or https://."
	switch {
	case len(s) > maxURL:
		return fmt.Sprintf("URL must be at most %d characters.", maxURL)
	case s == "#":
		return ""
	case strings.ContainsAny(s, " \t\r\n\\"):
		return msg
	case strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//"):
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return msg
	}
	return ""
}

// Insert places it at the 1-based position among the top-level items (the end when position
// is missing or past it) and renumbers.
func Insert(items []Item, it Item, position int) []Item {
	at := len(items)
	if position >= 1 && position <= len(items) {
		at = position - 1
	}
	out := make([]Item, 0, len(items)+1)
	out = append(out, items[:at]...)
	out = append(out, it)
	out = append(out, items[at:]...)
	return Normalize(out)
}

// Remove drops the item with the given id (and its children); ok is false if it is not there.
func Remove(items []Item, id string) ([]Item, bool) {
	out := make([]Item, 0, len(items))
	found := false
	for _, it := range items {
		if it.ID == id {
			found = true
			continue
		}
		kids := make([]Item, 0, len(it.Children))
		for _, c := range it.Children {
			if c.ID == id {
				found = true
				continue
			}
			kids = append(kids, c)
		}
		it.Children = kids
		out = append(out, it)
	}
	return Normalize(out), found
}
