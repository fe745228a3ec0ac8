package forms

import (
	"context"
	"time"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// setChecked marks a submission checked or unchecked. The submission's update is conditional on
// the state it was read in, and both unchecked counters move in the same transaction, so
// concurrent checks of one submission move the counters once.
func setChecked(ctx context.Context, st *store.Store, caller *auth.Caller, formID, id string, checked bool) (Submission, error) {
	scope := caller.Scope
	it, err := loadSubmission(ctx, st, scope, formID, id)
	if err != nil {
		return nil, err
	}
	if it.Checked == checked {
		return it.view(), nil
	}
	delta := int64(1)
	if checked {
		delta = -1
	}
	ck := counterKey(scope, formID)
	err = st.WriteTx().
		Update(st.Table.Update("PK", it.PK).Range("SK", it.SK).Set("checked", checked).If("attribute_exists(PK) AND $ = ?", "checked", it.Checked)).
		Update(st.Table.Update("PK", ck.PK).Range("SK", ck.SK).Add("unchecked", delta)).
		Update(st.AddToCounter(scope, store.CountUncheckedFormSubmission, delta)).
		Put(st.Table.Put(audit.Item(scope, submissionEntry(caller, collections.ActionUpdate, it, "checked")))).
		Run(ctx)
	if store.CondFailedAt(err, 0) {
		// Someone else changed it first: answer with what is stored now (or 404 if deleted).
		it, err = loadSubmission(ctx, st, scope, formID, id)
		return it.view(), err
	}
	if err != nil {
		return nil, store.Wrap("check submission", err)
	}
	it.Checked = checked
	return it.view(), nil
}

// deleteSubmission deletes a submission and takes it off both counters in one transaction.
func deleteSubmission(ctx context.Context, st *store.Store, caller *auth.Caller, formID, id string) error {
	scope := caller.Scope
	it, err := loadSubmission(ctx, st, scope, formID, id)
	if err != nil {
		return err
	}
	unchecked := int64(0)
	if !it.Checked {
		unchecked = -1
	}
	ck := counterKey(scope, formID)
	tx := st.WriteTx().
		Delete(st.Table.Delete("PK", it.PK).Range("SK", it.SK).If("attribute_exists(PK) AND $ = ?", "checked", it.Checked)).
		Update(st.Table.Update("PK", ck.PK).Range("SK", ck.SK).Add("count", -1).Add("unchecked", unchecked)).
		Put(st.Table.Put(audit.Item(scope, submissionEntry(caller, collections.ActionDelete, it))))
	if unchecked != 0 {
		tx.Update(st.AddToCounter(scope, store.CountUncheckedFormSubmission, unchecked))
	}
	store.AddToTx(tx, wordChanges(st, it, false)...)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		// Deleted or checked meanwhile: the caller may retry and will see which.
		return store.Wrap("delete submission", store.ErrConflict)
	}
	return store.Wrap("delete submission", err)
}

// submissionEntry is the audit log's entry of a staff write to a submission (the record is
// "{formId}/{id}", so the log can be filtered to one form's).
func submissionEntry(caller *auth.Caller, action string, it item, changed ...string) audit.Entry {
	e := collections.AuditEntry(caller, time.Now(), action, Prefix, it.FormID+"/"+it.ID)
	e.Changed = changed
	return e
}
