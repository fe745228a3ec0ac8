package collections

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// Purging what a trash entry holds back. A record whose hooks hold data back while it is in the
// trash (Purger: a form's submissions) loses that data when its entry goes, whichever way the
// entry goes, and never in one unbounded step:
//
//   - The delete that makes the entry puts a due item in the engine's due index (DueItem.Purge,
//     at purgeDueKey), due when the entry expires, in the delete's own transaction. The schedule
//     job runs it (PurgeDue): one batch a run, the item moved behind the others while more is
//     left, failures retried with the job's backoff. DynamoDB's TTL may remove the entry itself
//     before or after (the table has no stream to tell anyone): that changes nothing.
//   - "Delete forever" (PurgeDeleted) first claims the entry, in one transaction with its audit
//     entry and the due item, made due now: the entry is marked purging and loses its expiry, so
//     it stays listed (purging) until the purge ends and can no longer be restored. It then
//     purges purgeSteps batches and answers; what is left, the job finishes, or the next "Delete
//     forever" of the entry does.
//   - The last step deletes the entry, the rest of the record's history and the due item in one
//     transaction (finishPurge).
//
// Every step can be repeated: a batch deletes what is still there, whole units at a time, and a
// step that failed half way is taken up from what is left. A restore takes the entry out of the
// trash only while no purge has begun (Untrash); the due item it leaves behind finds the record
// back when it comes due and is forgotten.

// PurgeBatch is how many units (a form's submissions) one step of a purge deletes: the schedule
// job takes one step per run of each purge that is due, "Delete forever" purgeSteps.
const PurgeBatch = 50

// purgeSteps bounds the steps one "Delete forever" request takes before it answers.
const purgeSteps = 2

var errBeingPurged = &api.Error{Status: http.StatusConflict, Message: "This item is being deleted forever and can no longer be restored."}

// purgeDueKey is the key of the due item of the purge of record id of kind: one per record, so
// a record deleted again (after a restore) replaces it.
func purgeDueKey(scope store.Scope, kind, id string) store.Key {
	return store.Key{PK: DuePartition(scope), SK: "PURGE#" + kind + "#" + id}
}

// purgeDueItem is the due item that has the job purge record id of kind, deleted at version,
// from time at.
func purgeDueItem(scope store.Scope, kind, id string, version int, at time.Time) DueItem {
	k := purgeDueKey(scope, kind, id)
	due := at.UTC().Format(time.RFC3339)
	return DueItem{PK: k.PK, SK: k.SK, IndexPK: DueIndex, IndexSK: due + "#" + k.PK + "#" + k.SK,
		Collection: kind, ID: id, DueAt: due, Purge: true, Version: version}
}

// addPurgeDue queues, in the transaction of a delete that sends a record whose hooks hold data
// back to the trash, the due item that purges it when its trash entry expires (keepVersion calls
// it after the entry: its time is at or after the entry's expiry).
func (s *Service) addPurgeDue(wr *Write, hooks Hooks) {
	if _, holds := hooks.(Purger); !holds || wr.Action != ActionDelete || wr.C.Singleton != "" {
		return
	}
	expires := time.Unix(s.timeOf(wr).Add(TrashTTL).Unix(), 0)
	wr.Also(s.st.Table.Put(purgeDueItem(wr.Caller.Scope, wr.C.Key, toString(wr.Old["id"]), toInt(wr.Old["version"]), expires)), nil)
}

// trashItem is a trash entry as a purge reads it (not its state).
type trashItem struct {
	Version   int    `dynamo:"version"`
	TrashPK   string `dynamo:"GSI1PK"`
	ExpiresAt int64  `dynamo:"expiresAt"`
	// Purging is when a purge of the entry began (claimPurge).
	Purging string `dynamo:"purging"`
}

// readTrashItem reads the kept version of record id at version; found is false when its slot
// holds none or another version.
func readTrashItem(ctx context.Context, st *store.Store, scope store.Scope, kind, id string, version int) (trashItem, bool, error) {
	var it trashItem
	k := versionKey(scope, kind, id, version)
	err := st.Table.Get("PK", k.PK).Range("SK", dynamo.Equal, k.SK).Project("version", "GSI1PK", "expiresAt", "purging").
		Consistent(true).One(ctx, &it)
	if errors.Is(err, dynamo.ErrNotFound) {
		return it, false, nil
	}
	if err != nil {
		return it, false, store.Wrap("read trash entry", err)
	}
	return it, it.Version == version, nil
}

// claimPurge marks the trash entry of record id of kind at version as being purged, with extra
// queued in the same transaction, on condition that it is still in the trash at that version and
// no purge began: from then on it cannot be restored (Untrash), and it keeps no expiry (it stays
// listed until finishPurge deletes it). claimed is false when the condition failed.
func (s *Service) claimPurge(ctx context.Context, scope store.Scope, kind, id string, version int, now time.Time, extra ...any) (claimed bool, err error) {
	k := versionKey(scope, kind, id, version)
	tx := s.st.WriteTx().Update(s.st.Table.Update("PK", k.PK).Range("SK", k.SK).
		Set("purging", now.UTC().Format(time.RFC3339)).Remove("expiresAt").
		If("attribute_exists(GSI1PK) AND version = ? AND attribute_not_exists(purging)", version))
	store.AddToTx(tx, extra...)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return false, nil
	}
	return err == nil, store.Wrap("purge "+kind, err)
}

// finishPurge deletes what is left of a record once what it held back is gone: its trash entry
// (if the TTL has not), the rest of its history (at most KeptVersions items) and its purge's due
// item, in one transaction.
func (s *Service) finishPurge(ctx context.Context, scope store.Scope, kind, id string) error {
	var keys []store.Key
	err := s.st.Table.Get("PK", historyPartition(scope, kind, id)).Project("PK", "SK").Limit(KeptVersions).All(ctx, &keys)
	if err != nil {
		return store.Wrap("purge history of "+kind, err)
	}
	due := purgeDueKey(scope, kind, id)
	tx := s.st.WriteTx().Delete(s.st.Table.Delete("PK", due.PK).Range("SK", due.SK))
	for _, k := range keys {
		tx.Delete(s.st.Table.Delete("PK", k.PK).Range("SK", k.SK))
	}
	return store.Wrap("purge "+kind, tx.Run(ctx))
}

// purgeSome takes up to steps steps of record id's purge, n units each, and finishes it when
// nothing is left (done).
func (s *Service) purgeSome(ctx context.Context, scope store.Scope, c *Collection, p Purger, id string, steps, n int) (done bool, err error) {
	for range steps {
		if done, err = p.PurgeSome(ctx, s, scope, id, n); err != nil || done {
			break
		}
	}
	if err != nil || !done {
		return false, err
	}
	return true, s.finishPurge(ctx, scope, c.Key, id)
}

// PurgeDeleted deletes record id of c from the trash for good ("Delete forever"), with what its
// hooks hold back beside it. A record that holds nothing back goes at once (Purge). One that
// does is claimed first (the audit entry recorded, the entry marked purging, its due item due
// now), then purged purgeSteps batches at a time: done is false when some is left, which the
// schedule job finishes (or the next call: it takes the purge up where it stopped, as it does
// after a failure). An entry no longer in the trash is a 404, and an expired one too (the job
// purges it).
func (s *Service) PurgeDeleted(ctx context.Context, caller *auth.Caller, c *Collection, id string, version int) (done bool, err error) {
	if c.Singleton != "" {
		return false, errNotInTrash
	}
	hooks, err := s.hooksOf(c)
	if err != nil {
		return false, err
	}
	now, scope := s.now(), caller.Scope
	p, holds := hooks.(Purger)
	if !holds {
		return true, Purge(ctx, s.st, caller, c.Key, id, version, now)
	}
	it, found, err := readTrashItem(ctx, s.st, scope, c.Key, id, version)
	switch {
	case err != nil:
		return false, err
	case !found || it.TrashPK == "" || (it.Purging == "" && it.ExpiresAt < now.Unix()):
		return false, errNotInTrash
	case it.Purging == "":
		claimed, err := s.claimPurge(ctx, scope, c.Key, id, version, now,
			s.st.Table.Put(audit.Item(scope, AuditEntry(caller, now, ActionPurge, c.Key, id))),
			s.st.Table.Put(purgeDueItem(scope, c.Key, id, version, now)))
		if err != nil {
			return false, err
		}
		if !claimed {
			// Restored, purged or claimed meanwhile: only a purge under way goes on.
			if it, found, err = readTrashItem(ctx, s.st, scope, c.Key, id, version); err != nil {
				return false, err
			}
			if !found || it.TrashPK == "" || it.Purging == "" {
				return false, errNotInTrash
			}
		}
	}
	return s.purgeSome(ctx, scope, c, p, id, purgeSteps, PurgeBatch)
}

// PurgeOutcome is what one step of a purge's due item did (PurgeDue).
type PurgeOutcome int

const (
	// PurgeSkipped: nothing was purged: the record is back from the trash (its due item is
	// forgotten), the item is not due (it was moved to its time) or not the one stored any more.
	PurgeSkipped PurgeOutcome = iota
	// PurgeMore: a batch went and more is left, for the next run.
	PurgeMore
	// PurgeDone: nothing is left: the trash entry, the record's history and the due item are gone.
	PurgeDone
)

// PurgeDue takes one step, of n units, of the purge that due item d asks for (DueItem.Purge), as
// the schedule job runs it at now. d is read again from the table (the job reads the index,
// which may lag): a record deleted again meanwhile has replaced it. Its record back from the
// trash, the item is forgotten; its entry still in the trash and not claimed, it is claimed (no
// audit entry: the trash's own time ran out), unless it is not due yet; an entry being purged, or
// gone (the TTL removed it: nothing can restore it), is purged a batch, and finished when
// nothing is left.
func (s *Service) PurgeDue(ctx context.Context, d DueItem, n int, now time.Time) (PurgeOutcome, error) {
	scope, err := d.Scope()
	if err != nil {
		return PurgeSkipped, err
	}
	var cur DueItem
	err = s.st.Get(ctx, store.Key{PK: d.PK, SK: d.SK}, &cur)
	switch {
	case store.IsNotFound(err):
		return PurgeSkipped, nil // finished by another run or "Delete forever"
	case err != nil:
		return PurgeSkipped, err
	case !cur.Purge || cur.DueAt > now.UTC().Format(time.RFC3339):
		return PurgeSkipped, nil // replaced by a later delete's: its index place follows
	}
	c := s.reg[cur.Collection]
	var p Purger
	if c != nil && c.Singleton == "" {
		hooks, err := s.hooksOf(c)
		if err != nil {
			return PurgeSkipped, err
		}
		p, _ = hooks.(Purger)
	}
	if p == nil {
		return PurgeSkipped, s.forgetPurge(ctx, cur) // nothing held back (its declaration changed)
	}
	if _, err := s.Load(ctx, scope, c, cur.ID); err == nil {
		return PurgeSkipped, s.forgetPurge(ctx, cur) // restored: what it holds is its own again
	} else if !isStatus(err, http.StatusNotFound) {
		return PurgeSkipped, err
	}
	it, found, err := readTrashItem(ctx, s.st, scope, c.Key, cur.ID, cur.Version)
	switch {
	case err != nil:
		return PurgeSkipped, err
	case found && it.TrashPK == "":
		return PurgeSkipped, s.forgetPurge(ctx, cur) // taken out of the trash by a restore
	case found && it.Purging == "" && it.ExpiresAt > now.Unix():
		return PurgeSkipped, s.moveDue(ctx, cur, time.Unix(it.ExpiresAt, 0)) // not due yet
	case found && it.Purging == "":
		claimed, err := s.claimPurge(ctx, scope, c.Key, cur.ID, cur.Version, now)
		if err != nil || !claimed {
			return PurgeSkipped, err // restored a moment ago: the next run finds it back
		}
	}
	done, err := s.purgeSome(ctx, scope, c, p, cur.ID, 1, n)
	switch {
	case err != nil:
		return PurgeSkipped, err
	case done:
		return PurgeDone, nil
	}
	return PurgeMore, nil
}

// forgetPurge deletes a purge's due item that has nothing to purge, if it is still the one read.
func (s *Service) forgetPurge(ctx context.Context, d DueItem) error {
	err := s.st.Table.Delete("PK", d.PK).Range("SK", d.SK).If("version = ?", d.Version).Run(ctx)
	if dynamo.IsCondCheckFailed(err) {
		return nil
	}
	return store.Wrap("forget purge", err)
}

// moveDue moves a due item read too early to its time, if it is still the one read.
func (s *Service) moveDue(ctx context.Context, d DueItem, at time.Time) error {
	due := at.UTC().Format(time.RFC3339)
	err := s.st.Table.Update("PK", d.PK).Range("SK", d.SK).Set("dueAt", due).Set("GSI3SK", due+"#"+d.PK+"#"+d.SK).
		If("version = ? AND GSI3PK = ?", d.Version, d.IndexPK).Run(ctx)
	if dynamo.IsCondCheckFailed(err) {
		return nil
	}
	return store.Wrap("move purge", err)
}

func isStatus(err error, status int) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status == status
}
