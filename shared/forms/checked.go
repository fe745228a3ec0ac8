package forms

import (
	"context"

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
	after := it
	after.Checked = checked
	fx, err := effects(ctx, st, caller, collections.ActionUpdate, it, after, "checked")
	if err != nil {
		return nil, err
	}
	ck := counterKey(scope, formID)
	tx := st.WriteTx().
		Update(st.Table.Update("PK", it.PK).Range("SK", it.SK).Set("checked", checked).If("attribute_exists(PK) AND $ = ?", "checked", it.Checked)).
		Update(st.Table.Update("PK", ck.PK).Range("SK", ck.SK).Add("unchecked", delta)).
		Update(st.AddToCounter(scope, store.CountUncheckedFormSubmission, delta))
	fx.AddTo(st, scope, tx)
	err = tx.Run(ctx)
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
	fx, err := effects(ctx, st, caller, collections.ActionDelete, it, item{})
	if err != nil {
		return err
	}
	ck := counterKey(scope, formID)
	tx := st.WriteTx().
		Delete(st.Table.Delete("PK", it.PK).Range("SK", it.SK).If("attribute_exists(PK) AND $ = ?", "checked", it.Checked)).
		Update(st.Table.Update("PK", ck.PK).Range("SK", ck.SK).Add("count", -1).Add("unchecked", unchecked))
	if unchecked != 0 {
		tx.Update(st.AddToCounter(scope, store.CountUncheckedFormSubmission, unchecked))
	}
	fx.AddTo(st, scope, tx)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		// Deleted or checked meanwhile: the caller may retry and will see which.
		return store.Wrap("delete submission", store.ErrConflict)
	}
	return store.Wrap("delete submission", err)
}
