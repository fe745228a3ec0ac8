package forms

import (
	"context"
	"fmt"
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
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
// permanent ids on every write, and a form with submissions cannot be deleted.
type formHooks struct{}

var _ collections.Hooks = formHooks{}

// BeforeWrite checks the fields text and stores it normalised (NEW_ ids replaced), so the answer
// to the write is the saved form with its permanent ids.
func (formHooks) BeforeWrite(_ context.Context, _ *collections.Service, w *collections.Write) error {
	raw, present := w.Values["fields"]
	if !present {
		if w.Old == nil {
			w.Rec["fields"] = "[]"
		}
		return nil
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
	return nil
}

// BeforeDelete refuses to delete a form that has submissions: the form's submission counter is
// removed in the same transaction on condition that it is zero, so a submission arriving while
// the form is deleted either lands first (and the delete is refused) or finds no form.
func (formHooks) BeforeDelete(ctx context.Context, s *collections.Service, w *collections.Write) error {
	st := s.Store()
	id, _ := w.Old["id"].(string)
	n, err := submissionCount(ctx, st, w.Caller.Scope, id)
	if err != nil {
		return err
	}
	conflict := hasSubmissions(n)
	if n > 0 {
		return conflict
	}
	k := counterKey(w.Caller.Scope, id)
	w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK).If("attribute_not_exists($) OR $ <= ?", "count", "count", 0), conflict)
	return nil
}

func hasSubmissions(n int64) *api.Error {
	if n <= 0 {
		// The counter rose between the read and the delete: say so without a number.
		return &api.Error{Status: http.StatusConflict, Message: "This form has submissions and cannot be deleted. Disable it instead."}
	}
	return &api.Error{Status: http.StatusConflict, Message: fmt.Sprintf(
		"This form has %d submission(s) and cannot be deleted. Disable it instead, or delete its submissions first.", n)}
}

// submissionCount reads a form's submission counter (0 when it has none).
func submissionCount(ctx context.Context, st *store.Store, scope store.Scope, formID string) (int64, error) {
	c, err := readCounter(ctx, st, scope, formID)
	return c.Count, err
}
