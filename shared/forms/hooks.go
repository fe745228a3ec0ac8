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

// BeforeWrite checks the fields text and stores it normalised (NEW_ ids replaced), so the answer
// to the write is the saved form with its permanent ids.
func (formHooks) BeforeWrite(ctx context.Context, s *collections.Service, w *collections.Write) error {
	raw, present := w.Values["fields"]
	if !present {
		if w.Old == nil {
			w.Rec["fields"] = "[]"
		}
		return restoredUnchecked(ctx, s, w)
	}
	text, _ := raw.(string)
	fields, err := ParseFields(text)
	if err != nil {
		return err
	}
	if fields, err = NormalizeFields(fields); err != nil {
		return err
	}
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

// Purge deletes a purged form's submissions and its counter, a transaction of 100 at a time
// (the store never batch-writes).
func (formHooks) Purge(ctx context.Context, s *collections.Service, scope store.Scope, id string) error {
	st := s.Store()
	for _, pk := range []string{submissionsPK(scope, id), listing.WordPartition(submissionsPK(scope, id))} {
		if err := purgePartition(ctx, st, pk); err != nil {
			return err
		}
	}
	k := counterKey(scope, id)
	return store.Wrap("purge submissions", st.Table.Delete("PK", k.PK).Range("SK", k.SK).Run(ctx))
}

// purgePartition deletes every item of a partition, a transaction of 100 at a time.
func purgePartition(ctx context.Context, st *store.Store, pk string) error {
	for {
		var keys []store.Key
		err := st.Table.Get("PK", pk).Project("PK", "SK").Limit(100).All(ctx, &keys)
		if err != nil {
			return store.Wrap("purge submissions", err)
		}
		if len(keys) == 0 {
			return nil
		}
		tx := st.WriteTx()
		for _, k := range keys {
			tx.Delete(st.Table.Delete("PK", k.PK).Range("SK", k.SK))
		}
		if err := tx.Run(ctx); err != nil {
			return store.Wrap("purge submissions", err)
		}
	}

}
