package collections

import (
	"context"
	"time"

	"github.com/campuscms/panel/shared/store"
)

// Jobs: work a record's hooks do outside the request, one bounded step per run of the schedule
// job (a newsletter's sending, page by page of its recipients). The write that starts it puts a
// due item with Job set (JobDueItem) in its own transaction; the hooks keep their progress in
// that item (extra attributes beside DueItem's), each step in one transaction with what the step
// writes, so a step cut short is taken up again from the last one that committed. The last step
// deletes the item.

// Jobber is implemented by hooks whose records have jobs: RunJob takes one step of the job of
// due item d and reports whether more is left (the schedule job then moves the item behind the
// others due). A step that fails is tried again with the schedule job's backoff.
type Jobber interface {
	RunJob(ctx context.Context, s *Service, d DueItem, now time.Time) (more bool, err error)
}

// JobDueKey is the key of the due item of the job of record id of kind: one per record.
func JobDueKey(scope store.Scope, kind, id string) store.Key {
	return store.Key{PK: DuePartition(scope), SK: "JOB#" + kind + "#" + id}
}

// JobDueItem is the due item of the job of record id of kind, due at at.
func JobDueItem(scope store.Scope, kind, id string, at time.Time) DueItem {
	k := JobDueKey(scope, kind, id)
	due := at.UTC().Format(time.RFC3339)
	return DueItem{PK: k.PK, SK: k.SK, IndexPK: DueIndex, IndexSK: due + "#" + k.PK + "#" + k.SK,
		Collection: kind, ID: id, DueAt: due, Job: true}
}

// RunJob takes one step of the job of due item d through its collection's hooks; an item whose
// collection has no Jobber hooks any more is forgotten.
func (s *Service) RunJob(ctx context.Context, d DueItem, now time.Time) (more bool, err error) {
	c := s.reg[d.Collection]
	var j Jobber
	if c != nil {
		hooks, err := s.hooksOf(c)
		if err != nil {
			return false, err
		}
		j, _ = hooks.(Jobber)
	}
	if j == nil {
		return false, store.Wrap("forget job", s.st.Table.Delete("PK", d.PK).Range("SK", d.SK).Run(ctx))
	}
	return j.RunJob(ctx, s, d, now)
}
