package collections

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// unreadOf reads, for PATCH /notifications/, which of the listed notifications are unread (one
// batch read; marking a read one again is a no-op, as before); an id that is not the tenant's is
// a 404, before anything is written.
func (s *Service) unreadOf(ctx context.Context, c *Collection, scope store.Scope, list []string) ([]store.Key, error) {
	keys := make([]store.Key, 0, len(list))
	for _, id := range list {
		if !ids.Valid(id) {
			return nil, notFound(c)
		}
		keys = append(keys, s.key(scope, c, id))
	}
	found, err := s.st.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	var unread []store.Key
	for _, k := range keys {
		var rec Record
		ok, err := store.Decode(found, k, &rec)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, notFound(c)
		}
		if facetOf(c, rec) != "" {
			unread = append(unread, k)
		}
	}
	return unread, nil
}

// addMarkRead queues the updates that mark unread notifications read: each leaves the sparse
// unread index, and the unread counter drops by as many, in the same transaction.
func (s *Service) addMarkRead(wr *Write, scope store.Scope, unread []store.Key) {
	c := wr.C
	now := s.now().UTC()
	for _, k := range unread {
		// An edit like any other: version and updatedAt move (and the updatedAt index with them), so
		// an editor holding the old version gets a 409 rather than silently turning it unread again.
		attr, key := listing.UpdatedIndex(now, k.SK)
		upd := s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("read", true).
			Set("updatedAt", now.Format(time.RFC3339Nano)).Set(attr, key).Add("version", 1).
			If("attribute_exists(GSI3PK)")
		for _, name := range listing.FacetAttributes {
			upd.Remove(name)
		}
		// Someone else marked it read between the read and the write: the counter would drift.
		wr.add(upd, &api.Error{Status: http.StatusConflict, Message: "These notifications changed; please reload."})
	}
	if len(unread) > 0 {
		wr.add(s.st.AddToCounter(scope, listing.CounterName(c.Key, c.Facet.Name), -int64(len(unread))), nil)
		// One audit entry for the batch: which notifications were marked read, by whom.
		ids := make([]string, len(unread))
		for i, k := range unread {
			ids[i] = k.SK
		}
		e := AuditEntry(wr.Caller, now, ActionUpdate, c.Key, strings.Join(ids, ","))
		e.Changed = []string{"read"}
		wr.add(s.st.Table.Put(audit.Item(scope, e)), nil)
	}
}
