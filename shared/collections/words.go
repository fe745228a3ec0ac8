package collections

import (
	"context"
	"maps"
	"slices"

	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/words"
)

// SearchFields are the fields a list's search reads: the declared ones, or the name field.
func (c *Collection) SearchFields() []string {
	if len(c.Search) > 0 {
		return c.Search
	}
	return []string{c.NameField}
}

// wordsOf are the words record rec is found by (none for no record).
func wordsOf(c *Collection, rec Record) []string {
	if rec == nil {
		return nil
	}
	names := make([]string, 0, len(c.SearchFields()))
	for _, f := range c.SearchFields() {
		names = append(names, toString(rec[f]))
	}
	all, _ := rec[TranslationsField].(map[string]any)
	if len(all) == 0 {
		return words.Of(names...)
	}
	// A record is found by its words in every language it is translated into. The index keeps
	// words.MaxWords in all (the largest write's budget), taken from each language in turn, so
	// a translation's first words are indexed however long the default name is.
	per := [][]string{words.Of(names...)}
	for _, lang := range slices.Sorted(maps.Keys(all)) {
		tr, _ := all[lang].(map[string]any)
		names = names[:0]
		for _, f := range c.SearchFields() {
			names = append(names, toString(tr[f]))
		}
		per = append(per, words.Of(names...))
	}
	var out []string
	for i := 0; len(out) < words.MaxWords; i++ {
		more := false
		for _, list := range per {
			if i < len(list) {
				more = true
				if !slices.Contains(out, list[i]) && len(out) < words.MaxWords {
					out = append(out, list[i])
				}
			}
		}
		if !more {
			break
		}
	}
	return out
}

// indexWords keeps the word index of a kind's records in each write's transaction (effects): a
// create adds the record's words, a rename moves them, a delete takes them away
// (listing.WordChanges; nothing when the words stay the same).
func (s *Service) indexWords(_ context.Context, wr *Write) error {
	k := wr.Kind()
	if k.Singleton != "" {
		return nil
	}
	rec := wr.Rec
	if wr.Action == ActionDelete {
		rec = nil
	}
	stored := rec
	if stored == nil {
		stored = wr.Old
	}
	id := toString(stored["id"])
	for _, it := range listing.WordChanges(s.st.Table, k.partition(wr.Caller.Scope, stored), id, k.words(wr.Old), k.words(rec)) {
		wr.Also(it, nil)
	}
	return nil
}
