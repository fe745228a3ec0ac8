package menu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
)

// A menu item's label is translated as a record's fields are (issue 35): the item carries
// translations: {"fr": {"label": "À propos"}}; a save merges what it sends into what the item
// holds (a language null removes it, a label "" or null removes that label, an item sent
// without translations keeps its own), each label checked by the default label's rule, the
// languages by the site's (collections.Change.Languages), the menu's state listing the
// languages its labels hold (collections.TextLanguagesField) for the language counters.

// Texts are an item's texts in one language.
type Texts struct {
	Label string `dynamo:"label" json:"label"`
	// Outdated: the default label changed since this one was saved (derived; cleared when the
	// label is saved again).
	Outdated bool `dynamo:"outdated,omitempty" json:"outdated,omitempty"`
}

var labelRule = collections.TextRule{Label: "Label", Max: maxLabel}

// applyTranslations merges an item's translations input into it; prevLabel is its default
// label before the write (a changed one marks the labels the write does not set outdated).
func applyTranslations(it *Item, raw json.RawMessage, prevLabel string) error {
	set := map[string]bool{} // the languages whose label the write sets
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := mergeTranslations(it, raw, set); err != nil {
			return err
		}
	}
	if it.Label == prevLabel || prevLabel == "" || len(it.Translations) == 0 {
		return nil
	}
	it.Translations = maps.Clone(it.Translations)
	for lang, tr := range it.Translations {
		if !set[lang] {
			tr.Outdated = true
			it.Translations[lang] = tr
		}
	}
	return nil
}

// mergeTranslations merges an item's translations input into it, noting in set the languages
// whose label it sets.
func mergeTranslations(it *Item, raw json.RawMessage, set map[string]bool) error {
	errs, order := map[string]string{}, []string{}
	fail := func(k, msg string) {
		if _, ok := errs[k]; !ok {
			errs[k] = fmt.Sprintf("Menu item %q: %s", it.Label, msg)
			order = append(order, k)
		}
	}
	byLang, ok := collections.SplitTranslations(raw, "translations", fail)
	next := maps.Clone(it.Translations)
	if next == nil {
		next = map[string]Texts{}
	}
	for _, lang := range slices.Sorted(maps.Keys(byLang)) {
		if !ok {
			break
		}
		if byLang[lang] == nil {
			delete(next, lang)
			continue
		}
		key := "translations." + lang
		var in map[string]json.RawMessage
		if err := json.Unmarshal(byLang[lang], &in); err != nil {
			fail(key, "a translation must be an object such as {\"label\": \"…\"}.")
			continue
		}
		cur := next[lang]
		for _, name := range slices.Sorted(maps.Keys(in)) {
			if name == "outdated" {
				continue // derived
			}
			if name != "label" {
				fail(key+"."+name, fmt.Sprintf("%q cannot be translated: a menu item's translation holds its label.", name))
				continue
			}
			set[lang] = true
			s, msg := collections.TranslatedText(lang, labelRule, in[name])
			if msg != "" {
				fail(key+"."+name, msg)
				continue
			}
			cur.Label, cur.Outdated = s, false
		}
		if cur.Label == "" {
			delete(next, lang)
		} else {
			next[lang] = cur
		}
	}
	if len(errs) > 0 {
		return api.BadRequest(errs, order...)
	}
	if len(next) == 0 {
		next = nil
	}
	it.Translations = next
	return nil
}

// labelsByLanguage are the translated labels of a tree, by language and item id.
func labelsByLanguage(items []Item) map[string]map[string]string {
	out := map[string]map[string]string{}
	var walk func([]Item)
	walk = func(list []Item) {
		for _, it := range list {
			for lang, tr := range it.Translations {
				if out[lang] == nil {
					out[lang] = map[string]string{}
				}
				out[lang][it.ID] = tr.Label
			}
			walk(it.Children)
		}
	}
	walk(items)
	return out
}

// Languages are the languages a tree's labels are translated into, sorted.
func Languages(items []Item) []string {
	return slices.Sorted(maps.Keys(labelsByLanguage(items)))
}

// changedLanguages are the languages whose labels differ between two trees (code → error key):
// those a save must find among the site's.
func changedLanguages(before, after []Item) map[string]string {
	was, is := labelsByLanguage(before), labelsByLanguage(after)
	out := map[string]string{}
	for lang, labels := range is {
		if !maps.Equal(labels, was[lang]) {
			out[lang] = "translations." + lang
		}
	}
	return out
}

// maxTreeBytes keeps the tree, translations included, inside one DynamoDB item (400 KB).
const maxTreeBytes = 350_000

var errTreeTooLarge = api.Errorf(http.StatusRequestEntityTooLarge, "This menu is too large to save (at most %d KB): shorten its labels or their translations.", maxTreeBytes/1000)
