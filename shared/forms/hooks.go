package forms

import (
	"context"
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// HooksName is the name collections.json gives the custom-forms hooks ("hooks": "custom-forms").
const HooksName = "custom-forms"

// Hooks returns the collection hooks this package implements, for collections.Module and
// collections.SharedService (the same map in modules.All and in the forms group's main).
func Hooks() map[string]collections.Hooks {
	return map[string]collections.Hooks{HooksName: formHooks{}}
}

// formHooks are the rules of the custom-forms collection: its fields are checked and given
// permanent ids on every write, and a form goes to the trash (and comes back, or is purged) with
// its submissions.
type formHooks struct{}

var (
	_ collections.Hooks  = formHooks{}
	_ collections.Purger = formHooks{}
)

// BeforeWrite checks the form's mail settings (checkMailSettings) and the fields text, and stores it normalised (NEW_ ids replaced), so the answer
// to the write is the saved form with its permanent ids.
func (formHooks) BeforeWrite(ctx context.Context, s *collections.Service, w *collections.Write) error {
	if err := checkMailSettings(w.Values); err != nil {
		return err
	}
	raw, present := w.Values["fields"]
	if !present {
		if w.Old == nil {
			w.Rec["fields"] = "[]"
		}
		return restoredUnchecked(ctx, s, w)
	}
	text, _ := raw.(string)
	in, err := ParseFields(text)
	if err != nil {
		return err
	}
	fields, err := NormalizeFields(in)
	if err != nil {
		return err
	}
	oldText, _ := w.Old["fields"].(string)
	old, _ := ParseFields(oldText)
	changed, err := translateFields(in, fields, old, w.RestoredFrom != 0)
	if err != nil {
		return err
	}
	if err := s.RequireLanguages(ctx, w, changed); err != nil {
		return err
	}
	w.SetTextLanguages(fieldLanguages(fields))
	w.Rec["fields"] = MarshalFields(fields)
	return restoredUnchecked(ctx, s, w)
}

// BeforeDelete sends a form to the trash with its submissions: they stay under the form's id,
// out of reach while the form is gone, and its unchecked ones leave the tenant's count. The
// form's counter is checked unchanged in the same transaction, so a submission arriving while the
// form is deleted either lands first (and the delete is refused, to be tried again) or finds no
// form.
func (formHooks) BeforeDelete(ctx context.Context, s *collections.Service, w *collections.Write) error {
	st, scope := s.Store(), w.Caller.Scope
	id, _ := w.Old["id"].(string)
	c, err := readCounter(ctx, st, scope, id)
	if err != nil {
		return err
	}
	k := counterKey(scope, id)
	check := st.Table.Check("PK", k.PK).Range("SK", k.SK).If("$ = ?", "count", c.Count)
	if c.Count == 0 {
		check = st.Table.Check("PK", k.PK).Range("SK", k.SK).If("attribute_not_exists($) OR $ = ?", "count", "count", 0)
	}
	w.Also(check, errSubmittedMeanwhile)
	if c.Unchecked != 0 {
		w.Also(st.AddToCounter(scope, store.CountUncheckedFormSubmission, -c.Unchecked), nil)
	}
	return nil
}

var errSubmittedMeanwhile = &api.Error{Status: http.StatusConflict, Message: "Someone sent this form a moment ago. Please try again."}

// restoredUnchecked counts a form's unchecked submissions back into the tenant's count as the
// form comes back from the trash.
func restoredUnchecked(ctx context.Context, s *collections.Service, w *collections.Write) error {
	if w.Old != nil || w.RestoredFrom == 0 {
		return nil
	}
	id, _ := w.Rec["id"].(string)
	c, err := readCounter(ctx, s.Store(), w.Caller.Scope, id)
	if err != nil || c.Unchecked == 0 {
		return err
	}
	w.Also(s.Store().AddToCounter(w.Caller.Scope, store.CountUncheckedFormSubmission, c.Unchecked), nil)
	return nil
}

// PurgeSome deletes up to n of a purged form's submissions, oldest first, each with its search
// index entries in one transaction (several submissions share one, up to DynamoDB's 100 items),
// and says whether none is left; the last call also sweeps index entries no submission names any
// more (a submission indexed under other words) and deletes the form's counter. Bounded: n+1
// submissions read, at most n*(1+25) items deleted; repeated after a failure, it takes up
// what is left.
func (formHooks) PurgeSome(ctx context.Context, s *collections.Service, scope store.Scope, id string, n int) (bool, error) {
	st := s.Store()
	pk := submissionsPK(scope, id)
	var items []item
	if err := st.Table.Get("PK", pk).Limit(n+1).All(ctx, &items); err != nil {
		return false, store.Wrap("purge submissions", err)
	}
	more := len(items) > n
	if more {
		items = items[:n]
	}
	units := make([][]any, 0, len(items))
	for _, it := range items {
		units = append(units, append([]any{st.Table.Delete("PK", it.PK).Range("SK", it.SK)},
			listing.WordChanges(st.Table, it.PK, it.ID, it.words(), nil)...))
	}
	if err := deleteUnits(ctx, st, units); err != nil || more {
		return false, err
	}
	var keys []store.Key
	wp := listing.WordPartition(pk)
	if err := st.Table.Get("PK", wp).Project("PK", "SK").Limit(store.MaxTransactionItems+1).All(ctx, &keys); err != nil {
		return false, store.Wrap("purge submissions", err)
	}
	if len(keys) > 0 {
		unit := make([]any, 0, store.MaxTransactionItems)
		for _, k := range keys[:min(len(keys), store.MaxTransactionItems)] {
			unit = append(unit, st.Table.Delete("PK", k.PK).Range("SK", k.SK))
		}
		if err := deleteUnits(ctx, st, [][]any{unit}); err != nil || len(keys) > store.MaxTransactionItems {
			return false, err
		}
	}
	k := counterKey(scope, id)
	return true, store.Wrap("purge submissions", st.Table.Delete("PK", k.PK).Range("SK", k.SK).Run(ctx))
}

// deleteUnits runs the deletes of each unit in one transaction, as many whole units in each as
// fit in DynamoDB's 100 items (the store never batch-writes).
func deleteUnits(ctx context.Context, st *store.Store, units [][]any) error {
	var pending []any
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		tx := st.WriteTx()
		store.AddToTx(tx, pending...)
		pending = pending[:0]
		return store.Wrap("purge submissions", tx.Run(ctx))
	}
	for _, u := range units {
		if len(pending)+len(u) > store.MaxTransactionItems {
			if err := flush(); err != nil {
				return err
			}
		}
		pending = append(pending, u...)
	}
	return flush()
}
