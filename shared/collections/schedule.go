package collections

import (
	"fmt"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
)

// The fields of a scheduled collection ("scheduled": true in collections.json).
const (
	FieldPublishAt   = "publishAt"
	FieldUnpublishAt = "unpublishAt"
	// FieldSchedule is the derived state the engine stores on every write (ScheduleAt the
	// write's updatedAt) and the schedule job moves when a date passes.
	FieldSchedule = "schedule"
)

// Schedule states. A record without dates has none (it is simply live).
const (
	ScheduleScheduled = "scheduled"
	ScheduleLive      = "live"
	ScheduleExpired   = "expired"
)

// checkScheduled checks a scheduled collection declares its three fields as the engine uses them.
func checkScheduled(c *Collection) error {
	if !c.Scheduled {
		return nil
	}
	state, ok := c.Field(FieldSchedule)
	if !c.hasField(FieldPublishAt, TypeDateTime) || !c.hasField(FieldUnpublishAt, TypeDateTime) ||
		!ok || !state.Derived || state.Type != TypeSelect || c.Singleton != "" {
		return fmt.Errorf("collections: %s: a scheduled collection declares datetime fields %s and %s and the derived select %s",
			c.Key, FieldPublishAt, FieldUnpublishAt, FieldSchedule)
	}
	return nil
}

// scheduleTimes reads a record's publishAt and unpublishAt (zero when absent or unreadable).
func scheduleTimes(rec Record) (from, until time.Time) {
	from, _ = time.Parse(time.RFC3339, toString(rec[FieldPublishAt]))
	until, _ = time.Parse(time.RFC3339, toString(rec[FieldUnpublishAt]))
	return from, until
}

// ScheduleAt is a record's schedule state at now, from its dates alone: "scheduled" before its
// publishAt, "expired" from its unpublishAt on, "live" otherwise, and "" when it has neither date.
// Public reads show a record only while this is not scheduled or expired (public.Visible), so a
// date is honoured at the second it passes, whatever the stored state says.
func ScheduleAt(rec Record, now time.Time) string {
	from, until := scheduleTimes(rec)
	switch {
	case from.IsZero() && until.IsZero():
		return ""
	case !until.IsZero() && !now.Before(until):
		return ScheduleExpired
	case !from.IsZero() && now.Before(from):
		return ScheduleScheduled
	}
	return ScheduleLive
}

// deriveSchedule sets the stored state of a record of a scheduled collection as it will be
// written: its state at the write's own time (updatedAt), or none without dates.
func deriveSchedule(c *Collection, rec Record) {
	if !c.Scheduled {
		return
	}
	at, err := time.Parse(time.RFC3339Nano, toString(rec["updatedAt"]))
	if err != nil {
		at = time.Now()
	}
	if state := ScheduleAt(rec, at); state != "" {
		rec[FieldSchedule] = state
	} else {
		delete(rec, FieldSchedule)
	}
}

// DuePartition is the tenant's due index: one item per record whose stored schedule state will
// change, at a key of its own ({collection}#{id}) that does not move when its time does, so moving
// a record's time is one Put (an item of the write's transaction, not two: the largest write,
// pages.LargestWrite, has no room for a second). The time is in the item and in its GSI3 key,
// which the job reads by time. (Items written before kept the time in their key,
// {time}#{collection}#{id}; the job forgets each when its time comes, as one a record no longer
// points at.)
func DuePartition(scope store.Scope) string { return scope.Partition("DUE") }

// DueIndex is the GSI3 partition every due item is also indexed under, by {time}#{its key}, so the
// job reads what is due in every tenant with one Query, without a tenant registry: the items stay
// in their tenant's partition, and only due ones are ever read.
const DueIndex = "DUE"

// DueItem is an item of the due index.
type DueItem struct {
	PK         string `dynamo:"PK,hash"`
	SK         string `dynamo:"SK,range"`
	IndexPK    string `dynamo:"GSI3PK"`
	IndexSK    string `dynamo:"GSI3SK"`
	Collection string `dynamo:"collection"`
	ID         string `dynamo:"id"`
	DueAt      string `dynamo:"dueAt"`
	// Purge marks the due item of a record in the trash whose hooks hold data back (Purger):
	// due when its trash entry expires (or now, once "Delete forever" began), it has the job
	// purge what the record holds back a batch at a time (PurgeDue). Version is the version its
	// delete kept, the trash entry's.
	Purge   bool `dynamo:"purge,omitempty"`
	Version int  `dynamo:"version,omitempty"`
	// Job marks the due item of work a record's hooks do outside the request, a step a run
	// (Jobber: a newsletter's sending); the hooks keep their own state in the item.
	Job bool `dynamo:"job,omitempty"`
	// Draft marks the due item of a draft's scheduled publishing (workflow.go: PublishDue), at
	// the draft's Version when it was scheduled.
	Draft bool `dynamo:"draft,omitempty"`
}

// Scope is the tenant the due item belongs to.
func (d DueItem) Scope() (store.Scope, error) {
	rest, ok := strings.CutPrefix(d.PK, "T#")
	tenant, _, found := strings.Cut(rest, "#")
	if !ok || !found {
		return store.Scope{}, store.ErrBadTenant
	}
	return store.NewScope(tenant)
}

// DueBound is the sort key bound of the due items at or before now: their times are RFC 3339
// UTC to the second, so "{now}#~" sorts after every item of that second and before the next.
func DueBound(now time.Time) string { return now.UTC().Format(time.RFC3339) + "#~" }

// dueAt is when a stored record's state changes next: its publishAt while scheduled, its
// unpublishAt while live; none once expired or without dates. It reads the stored state, so the
// item a write put is the one the next write of the record finds and replaces.
func dueAt(rec Record) string {
	if rec == nil {
		return ""
	}
	switch toString(rec[FieldSchedule]) {
	case ScheduleScheduled:
		return toString(rec[FieldPublishAt])
	case ScheduleLive:
		return toString(rec[FieldUnpublishAt])
	}
	return ""
}

// DueKeyOf is the key of the due item a stored record has, if it has one.
func DueKeyOf(scope store.Scope, c *Collection, rec Record) (store.Key, bool) {
	return dueKey(scope, c, toString(rec["id"])), dueAt(rec) != ""
}

func dueKey(scope store.Scope, c *Collection, id string) store.Key {
	return store.Key{PK: DuePartition(scope), SK: c.Key + "#" + id}
}

// addDueChanges keeps a scheduled record's due item in the write's own transaction: when the
// time it is due at moves (a date changed, the job moved the state), its item is put again with
// the new time; when it has none any more (expired, its dates cleared, the record deleted), its
// item goes. One item at most, none when nothing moved.
func (s *Service) addDueChanges(wr *Write, before, after Record) {
	if !wr.C.Scheduled {
		return
	}
	was, is := dueAt(before), dueAt(after)
	if was == is {
		return
	}
	id := toString(wr.Rec["id"])
	if after == nil {
		id = toString(before["id"])
	}
	k := dueKey(wr.Caller.Scope, wr.C, id)
	if is == "" {
		wr.add(s.st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
		return
	}
	wr.add(s.st.Table.Put(DueItem{PK: k.PK, SK: k.SK, IndexPK: DueIndex, IndexSK: is + "#" + k.PK + "#" + k.SK,
		Collection: wr.C.Key, ID: id, DueAt: is}), nil)
}

// removeScheduleAttribute drops a stored state a record no longer has (its dates cleared).
func removeScheduleAttribute(upd *dynamo.Update, c *Collection, attrs map[string]any) {
	if _, ok := attrs[FieldSchedule]; c.Scheduled && !ok {
		upd.Remove(FieldSchedule)
	}
}
