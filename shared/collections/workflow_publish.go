package collections

// Publishing a draft: now, at a time (the schedule job), into a new or a live record.

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// DraftDueKey is the due item of a draft's scheduled publishing.
func draftDueKey(scope store.Scope, kind, id string) store.Key {
	return store.Key{PK: DuePartition(scope), SK: "DRAFT#" + kind + "#" + id}
}

// publishRoute serves POST …/draft/publish {version?, publishAt?}.
func (s *Service) publishRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
	b, err := readStepBody(r)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	var at time.Time
	if b.PublishAt != "" {
		if at, err = time.Parse(time.RFC3339, b.PublishAt); err != nil {
			return api.FieldError(http.StatusBadRequest, "publishAt", "publishAt must be a date and time with its offset (RFC 3339).")
		}
	}
	d, err := s.currentDraft(r.Context(), caller.Scope, c, id, b)
	if err != nil {
		return err
	}
	ok, err := s.MayPublish(r.Context(), caller, c)
	if err != nil {
		return err
	}
	if !ok {
		return errMayNotPublish(c)
	}
	if !at.IsZero() && at.After(s.now()) {
		return s.schedulePublish(w, r, caller, c, d, at)
	}
	rec, err := s.PublishDraft(r.Context(), caller, c, id, d.Version)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: rec, Message: c.Title + " published!"})
}

// schedulePublish keeps the draft with its publishing time and a due item the schedule job reads
// (PublishDue), in one transaction with its audit entry.
func (s *Service) schedulePublish(w http.ResponseWriter, r *http.Request, caller *auth.Caller, c *Collection, d *draftItem, at time.Time) error {
	now := s.now()
	stamp := nowString(now)
	old := d.Version
	d.Version++
	d.PublishAt = at.UTC().Format(time.RFC3339)
	d.UpdatedAt = stamp
	d.addStep("scheduled", caller.User, stamp, "")
	d.index(caller.Scope)
	t := s.newStepTx(s.st.Table.Put(d).If("version = ? AND attribute_not_exists(trashed)", old), errDraftStale)
	dk := draftDueKey(caller.Scope, c.Key, d.ID)
	t.add(s.st.Table.Put(DueItem{PK: dk.PK, SK: dk.SK, IndexPK: DueIndex, IndexSK: d.PublishAt + "#" + dk.PK + "#" + dk.SK,
		Collection: c.Key, ID: d.ID, DueAt: d.PublishAt, Draft: true, Version: d.Version}))
	t.add(s.auditItem(caller, now, ActionDraftSchedule, c, d.ID, nil))
	if err := t.run(r.Context(), "schedule draft"); err != nil {
		return err
	}
	out, err := d.view(false)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: fmt.Sprintf("%s will be published at %s.", c.Title, d.PublishAt)})
}

// PublishDraft writes record id's draft at version into its live record, in one transaction with
// what every write records (the live record's version, audit entry, words, counters, due item)
// and the draft's removal, conditioned on the draft's version: a save of the draft racing the
// publish makes one of them a 409, never a mix. It answers the live record as GET one shows it.
func (s *Service) PublishDraft(ctx context.Context, caller *auth.Caller, c *Collection, id string, version int) (Record, error) {
	d, found, err := s.loadDraft(ctx, caller.Scope, c, id)
	if err != nil {
		return nil, err
	}
	if !found || d.Trashed {
		return nil, errNoDraft
	}
	if d.Version != version {
		return nil, errDraftChanged
	}
	fields, err := d.fields()
	if err != nil {
		return nil, err
	}
	now := s.now()
	notices, err := s.notifyItems(ctx, caller, c, d, "publish", "", now)
	if err != nil {
		return nil, err
	}
	rec, err := s.publishDraft(ctx, caller, c, d, fields, notices)
	if isStatus(err, http.StatusRequestEntityTooLarge) && len(notices) > 0 {
		// The largest pages leave no room for the notification beside them: published alone,
		// then told in a transaction of its own.
		if rec, err = s.publishDraft(ctx, caller, c, d, fields, nil); err == nil {
			tx := s.st.WriteTx()
			store.AddToTx(tx, notices...)
			if terr := tx.Run(ctx); terr != nil {
				return rec, nil // published; only the bell and the mail are missing
			}
		}
	}
	return rec, err
}

// publishDraft is one try of PublishDraft, with the notification's items (or none).
func (s *Service) publishDraft(ctx context.Context, caller *auth.Caller, c *Collection, d *draftItem, fields Record, notices []any) (Record, error) {
	id := d.ID
	k := draftKey(caller.Scope, c.Key, id)
	also := func(wr *Write) error {
		wr.viaDraft = true
		wr.Also(s.st.Table.Delete("PK", k.PK).Range("SK", k.SK).If("version = ? AND attribute_not_exists(trashed)", d.Version), errDraftChanged)
		if d.PublishAt != "" {
			dk := draftDueKey(caller.Scope, c.Key, id)
			wr.Also(s.st.Table.Delete("PK", dk.PK).Range("SK", dk.SK), nil)
		}
		for _, it := range notices {
			wr.Also(it, nil)
		}
		return nil
	}
	live, err := s.liveOf(ctx, caller.Scope, c, id)
	if err != nil {
		return nil, err
	}
	if live == nil && d.LiveVersion != 0 {
		return nil, errNoDraft // its record was deleted (a delete racing its first save)
	}
	var wr *Write
	if live == nil {
		in, err := keptInput(c, fields, true)
		if err != nil {
			return nil, err
		}
		values, err := s.conv.values(caller.Scope, c, in, true)
		if err != nil {
			return nil, err
		}
		if wr, err = s.createRecordWith(ctx, caller, c, id, values, nil, also); err != nil {
			return nil, err
		}
	} else {
		in, err := keptInput(c, fields, false)
		if err != nil {
			return nil, err
		}
		w, ver, err := s.prepareUpdate(ctx, caller, c, id, in, func(context.Context, store.Scope, *Collection, string) (Record, error) { return live, nil })
		if err != nil {
			return nil, err
		}
		if err := also(w); err != nil {
			return nil, err
		}
		if err := s.update(ctx, w, ver); err != nil {
			return nil, err
		}
		wr = w
	}
	return s.writtenView(ctx, wr)
}

// PublishDue publishes a draft whose scheduled time came (the schedule job, as caller): the
// draft must still be the version that was scheduled (a save since cancelled it). done false
// means there was nothing to publish any more; the due item is gone either way.
func (s *Service) PublishDue(ctx context.Context, caller *auth.Caller, d DueItem) (bool, error) {
	c := s.reg[d.Collection]
	forget := func() error {
		return store.Wrap("forget draft due", s.st.Table.Delete("PK", d.PK).Range("SK", d.SK).If("version = ?", d.Version).Run(ctx))
	}
	if c == nil || !c.Workflow {
		return false, forget()
	}
	_, err := s.PublishDraft(ctx, caller, c, d.ID, d.Version)
	if isStatus(err, http.StatusNotFound) || isStatus(err, http.StatusConflict) {
		if ferr := forget(); ferr != nil && !dynamo.IsCondCheckFailed(ferr) {
			return false, ferr
		}
		return false, nil
	}
	return err == nil, err
}

// createRecordWith is createRecord with prep adding items to each try's write before its commit.
func (s *Service) createRecordWith(ctx context.Context, caller *auth.Caller, c *Collection, id string, values map[string]any, back *restoring, prep func(*Write) error) (*Write, error) {
	for attempt := 0; ; attempt++ {
		wr, err := s.commitCreateWith(ctx, caller, c, id, maps.Clone(values), attempt, back, prep)
		if err != ErrRetry || attempt+1 >= maxAttempts {
			return wr, err
		}
	}
}
