package collections

import (
	"context"
	"maps"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// unreadOf reads, for PATCH /notifications/, which of the listed notifications are unread (one
// batch read; marking a read one again is a no-op, as before); an id that is not the tenant's is
// a 404, before anything is written.
func (s *Service) unreadOf(ctx context.Context, c *Collection, scope store.Scope, list []string) ([]Record, error) {
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
	var unread []Record
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
			unread = append(unread, rec)
		}
	}
	return unread, nil
}

// errNotificationsChanged answers a mark-read that lost a race with another write of one of them.
var errNotificationsChanged = &api.Error{Status: http.StatusConflict, Message: "These notifications changed; please reload."}

// markRead marks unread notifications read as caller: each is an edit like any other (version and
// updatedAt move, and the updatedAt index with them, so an editor holding the old version gets a
// 409 rather than silently turning it unread again), recorded like one (collections' effects: its
// kept version, its audit entry, its index attributes: it leaves the sparse unread index), and the
// unread counter drops by as many, moved once per transaction. A request larger than a
// transaction is split: marking read is the same whatever was marked before, and each
// transaction keeps its own count, so a failure leaves those before it done and the counter
// true, and marking the rest again finishes it.
func (s *Service) markRead(ctx context.Context, caller *auth.Caller, c *Collection, unread []Record) error {
	now := s.now().UTC()
	var wr *Write
	counters := map[string]int64{}
	flush := func() error {
		if wr == nil {
			return nil
		}
		for name, delta := range counters {
			wr.add(s.st.AddToCounter(caller.Scope, name, delta), nil)
		}
		clear(counters)
		err := wr.run(ctx, errNotificationsChanged)
		wr = nil
		return err
	}
	for _, old := range unread {
		rec := maps.Clone(old)
		rec["read"], rec["version"], rec["updatedAt"] = true, toInt(old["version"])+1, now.Format(time.RFC3339Nano)
		fx, err := s.SideEffects(ctx, Change{Caller: caller, Kind: KindOf(c), Action: ActionUpdate, Before: old, After: rec, At: now})
		if err != nil {
			return err
		}
		newCounters := 0
		for _, ct := range fx.Counters {
			if _, ok := counters[ct.Name]; !ok {
				newCounters++
			}
		}
		if wr != nil && wr.items+1+len(fx.Items)+len(counters)+newCounters > store.MaxTransactionItems {
			if err := flush(); err != nil {
				return err
			}
		}
		if wr == nil {
			wr = s.writeAs(caller, c, nil)
		}
		k := s.key(caller.Scope, c, toString(old["id"]))
		upd := s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("read", true).
			Set("updatedAt", rec["updatedAt"]).Set("version", rec["version"]).
			If("attribute_exists(GSI3PK) AND version = ?", old["version"])
		fx.Set(upd)
		// Someone else changed it between the read and the write: the counter would drift.
		wr.add(upd, errNotificationsChanged)
		for _, it := range fx.Items {
			wr.add(it.Item, it.Conflict)
		}
		for _, ct := range fx.Counters {
			counters[ct.Name] += ct.Delta
		}
	}
	return flush()
}
