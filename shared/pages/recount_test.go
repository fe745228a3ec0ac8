package pages_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// TestRecountFormReferences: pages saved before pages counted the forms they show left those
// forms without a count (deletable while shown); the recount sets each form's count to the pages
// showing it, whatever it held, and a second run changes nothing. Another tenant is untouched.
func TestRecountFormReferences(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	types := typeIDs(t, tn)
	shown, twice, unused := newForm(t, tn), newForm(t, tn), newForm(t, tn)
	one, _ := newPage(t, tn, "One")
	two, _ := newPage(t, tn, "Two")
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+one, map[string]any{"version": 1, "pageSections": []any{
		formSection(types, "A", shown), formSection(types, "B", twice), formSection(types, "C", twice)}}), 200)
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+two, map[string]any{"version": 1, "pageSections": []any{formSection(types, "A", twice)}}), 200)
	theirs := newForm(t, other)

	// As an older release left them: no counts, or wrong ones.
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	st, ctx := testkit.Deps(t).Store, context.Background()
	forms := scope.Collection("custom-forms")
	for _, upd := range []interface{ Run(context.Context) error }{
		st.Table.Update("PK", forms).Range("SK", shown).Remove("refCount"),
		st.Table.Update("PK", forms).Range("SK", twice).Set("refCount", -1),
		st.Table.Update("PK", forms).Range("SK", unused).Set("refCount", 3),
	} {
		if err := upd.Run(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mustStatus(t, as(t, tn, "DELETE", "/custom-forms/"+shown, nil), http.StatusOK) // what the missing count let happen
	mustStatus(t, as(t, tn, "POST", "/trash/custom-forms/"+shown+"/1/restore", nil), http.StatusOK)

	n, err := pages.RecountFormReferences(ctx, st, scope)
	if err != nil || n != 3 {
		t.Fatalf("recount: %d changed, %v", n, err)
	}
	for id, want := range map[string]int{shown: 1, twice: 2, unused: 0} {
		if got := refCount(t, tn, id); got != want {
			t.Fatalf("form %s: refCount %d, want %d", id, got, want)
		}
	}
	if n, err := pages.RecountFormReferences(ctx, st, scope); err != nil || n != 0 {
		t.Fatalf("second recount: %d changed, %v", n, err)
	}
	testkit.Expect(t, as(t, tn, "DELETE", "/custom-forms/"+twice, nil), http.StatusConflict,
		"This Form is still used by 2 record(s) (Pages). Delete or reassign them first.")
	mustStatus(t, as(t, tn, "DELETE", "/custom-forms/"+unused, nil), http.StatusOK)
	if got := refCount(t, other, theirs); got != 0 {
		t.Fatalf("another tenant's form: refCount %d", got)
	}
}
