package collections

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/store"
)

// MoveReferences queues in w's transaction the reference counts that the write moves through
// field, a transient field declaring "ref" whose hooks keep the references in items of their own
// (a page's sections show forms): before and after are the ids of the referenced collection the
// record refers to through it before and after the write. A record counts once however many of
// its items refer to the same one, so a write moves each count by one at most: up by one for an
// id only in after, on condition that the record is there (else the write is refused: "{Title}
// not found!", 400), and down by one for an id only in before. The down moves read the records
// first and leave out those gone or not counted (a reference stored before counts were kept), so
// a count never goes below zero. The engine's delete refuses a record whose count is above zero,
// so a record that is referred to can never be deleted between a check and a write.
func (s *Service) MoveReferences(ctx context.Context, w *Write, field string, before, after []string) error {
	f, ok := w.C.Field(field)
	if !ok || !f.Transient || f.Ref == "" {
		return fmt.Errorf("collections: %s.%s declares no references kept by hooks", w.C.Key, field)
	}
	ref := s.reg[f.Ref]
	scope := w.Caller.Scope
	var lost []store.Key
	for _, id := range distinct(before) {
		if !slices.Contains(after, id) {
			lost = append(lost, s.key(scope, ref, id))
		}
	}
	if len(lost) > 0 {
		found, err := s.st.GetMany(ctx, lost...)
		if err != nil {
			return err
		}
		for _, k := range lost {
			var rec struct {
				RefCount int `dynamo:"refCount"`
			}
			if ok, err := store.Decode(found, k, &rec); err != nil || !ok || rec.RefCount <= 0 {
				if err != nil {
					return err
				}
				continue
			}
			w.Also(s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("refCount", -1).If("attribute_exists(PK)"), nil)
		}
	}
	gone := api.FieldError(http.StatusBadRequest, field, ref.Title+" not found!")
	for _, id := range distinct(after) {
		if !slices.Contains(before, id) {
			k := s.key(scope, ref, id)
			w.Also(s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("refCount", 1).If("attribute_exists(PK)"), gone)
		}
	}
	return nil
}

// distinct is ids without repeats or empty ones, in their first order.
func distinct(ids []string) []string {
	var out []string
	for _, id := range ids {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
