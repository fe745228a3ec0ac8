package collections

import (
	"context"

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
	return words.Of(names...)
}

// indexWords is the observer that keeps the word index of a collection's records in each write's
// transaction: a create adds the record's words, a rename moves them, a delete takes them away
// (listing.WordChanges; nothing when the words stay the same).
func (s *Service) indexWords(_ context.Context, wr *Write) error {
	c := wr.C
	if c.Singleton != "" {
		return nil
	}
	before, after := wordsOf(c, wr.Old), wordsOf(c, wr.Rec)
	id := toString(wr.Rec["id"])
	if wr.Action == ActionDelete {
		after, id = nil, toString(wr.Old["id"])
	}
	for _, it := range listing.WordChanges(s.st.Table, s.key(wr.Caller.Scope, c, id).PK, id, before, after) {
		wr.Also(it, nil)
	}
	return nil
}
