package collections

import (
	"context"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// addMarkRead queues, for PATCH /notifications/, the updates that mark the listed notifications
// read: each unread one leaves the sparse unread index and the unread counter drops by as many,
// in the same transaction. One batch read first tells unread from already read (marking a read
// one again is a no-op, as before) and finds ids that are not the tenant's (404).
func (s *Service) addMarkRead(ctx context.Context, wr *Write, scope store.Scope, list []string) error {
	c := wr.C
	keys := make([]store.Key, 0, len(list))
	for _, id := range list {
		if !ids.Valid(id) {
			return notFound(c)
		}
		keys = append(keys, s.key(scope, c, id))
	}
	found, err := s.st.GetMany(ctx, keys...)
	if err != nil {
		return err
	}
	unread := int64(0)
	now := s.now().UTC()
	for _, k := range keys {
		var rec Record
		ok, err := store.Decode(found, k, &rec)
		if err != nil {
			return err
		}
		if !ok {
			return notFound(c)
		}
		if facetOf(c, rec) == "" {
			continue
		}
		unread++
		// An edit like any other: version and updatedAt move (and the updatedAt index with them), so
		// an editor holding the old version gets a 409 rather than silently turning it unread again.
		upd := s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("read", true).
			Set("updatedAt", now.Format(time.RFC3339Nano)).Set("GSI1SK", listing.TimeKey(now)+"#"+k.SK).Add("version", 1).
			If("attribute_exists(GSI3PK)")
		for _, name := range listing.FacetAttributes {
			upd.Remove(name)
		}
		// Someone else marked it read between the read and the write: the counter would drift.
		wr.add("read", upd, &api.Error{Status: http.StatusConflict, Message: "These notifications changed; please reload."})
	}
	if unread > 0 {
		wr.add("unread counter", s.st.AddToCounter(scope, listing.CounterName(c.Key, c.Facet.Name), -unread), nil)
	}
	return nil
}
