package pages_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// formSection is a form section showing form id.
func formSection(types map[string]string, title, id string) map[string]any {
	return map[string]any{"title": title, "pageSectionTypeId": types["form"], "config": items(1, map[string]any{"formId": id})}
}

// refCount reads a form's reference count as stored (0 when it has none).
func refCount(t *testing.T, tn testkit.Tenant, formID string) int {
	t.Helper()
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		RefCount int `dynamo:"refCount"`
	}
	if err := testkit.Deps(t).Store.Get(context.Background(), store.Key{PK: scope.Collection("custom-forms"), SK: formID}, &rec); err != nil {
		t.Fatal(err)
	}
	return rec.RefCount
}

// TestAFormShownOnAPageCannotBeDeleted: a form a page's section shows counts that page once (two
// sections of one page showing it count once), moved in the page's own transaction by every way
// sections change (a page save, the /page-sections routes, a page's delete and its restore from
// the trash); a form still shown is refused with the engine's message for records still used.
func TestAFormShownOnAPageCannotBeDeleted(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	form := newForm(t, tn)
	one, _ := newPage(t, tn, "One")
	two, _ := newPage(t, tn, "Two")
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+one, map[string]any{"version": 1, "pageSections": []any{
		formSection(types, "Ask", form), formSection(types, "Ask again", form)}}), 200)
	if n := refCount(t, tn, form); n != 1 {
		t.Fatalf("one page showing the form twice: refCount %d, want 1", n)
	}
	sec := as(t, tn, "POST", "/page-sections", map[string]any{"pageId": two, "title": "Contact", "pageSectionTypeId": types["form"],
		"config": items(1, map[string]any{"formId": form})})
	mustStatus(t, sec, 201)
	if n := refCount(t, tn, form); n != 2 {
		t.Fatalf("two pages: refCount %d, want 2", n)
	}
	testkit.Expect(t, as(t, tn, "DELETE", "/custom-forms/"+form, nil), http.StatusConflict,
		"This Form is still used by 2 record(s) (Pages). Delete or reassign them first.")

	// The section route's delete, a save without the form, a page's delete: each takes its page off.
	mustStatus(t, as(t, tn, "DELETE", "/page-sections/"+sec.Get("result.id").(string), nil), 200)
	if n := refCount(t, tn, form); n != 1 {
		t.Fatalf("after the section's delete: refCount %d, want 1", n)
	}
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+one, map[string]any{"version": 2, "pageSections": []any{formSection(types, "Ask", form)}}), 200)
	if n := refCount(t, tn, form); n != 1 {
		t.Fatalf("one section of two dropped: refCount %d, want 1", n)
	}
	testkit.Expect(t, as(t, tn, "DELETE", "/custom-forms/"+form, nil), http.StatusConflict,
		"This Form is still used by 1 record(s) (Pages). Delete or reassign them first.")
	mustStatus(t, as(t, tn, "DELETE", "/pages/"+one, nil), 200)
	if n := refCount(t, tn, form); n != 0 {
		t.Fatalf("after the page's delete: refCount %d, want 0", n)
	}
	// Back from the trash, the page shows the form again and counts again.
	mustStatus(t, as(t, tn, "POST", fmt.Sprintf("/trash/pages/%s/3/restore", one), nil), 200)
	if n := refCount(t, tn, form); n != 1 {
		t.Fatalf("after the page's restore: refCount %d, want 1", n)
	}
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+one, map[string]any{"version": 4, "pageSections": []any{}}), 200)
	mustStatus(t, as(t, tn, "DELETE", "/custom-forms/"+form, nil), 200)
	// A page can no longer be given the deleted form, nor come back from the trash with it.
	res := as(t, tn, "PATCH", "/pages/"+two, map[string]any{"version": 3, "pageSections": []any{formSection(types, "Ask", form)}})
	mustStatus(t, res, 400)
	if !strings.Contains(string(res.Raw), "Form not found!") {
		t.Fatalf("a deleted form shown: %s", res.Raw)
	}
}

// TestAFormDeleteRacingASaveThatShowsIt: a form's delete and a page save adding a section that
// shows it, sent at once, never leave a section showing a deleted form: the save moves the form's
// reference count in its own transaction (on condition the form is there), and the delete is
// conditioned on the count being zero, so one of them is refused whichever comes first.
func TestAFormDeleteRacingASaveThatShowsIt(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	const rounds = 12
	outcomes := map[string]int{}
	for round := range rounds {
		form := newForm(t, tn)
		page, _ := newPage(t, tn, fmt.Sprint("Race ", round))
		var del, save testkit.Response
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			del = as(t, tn, "DELETE", "/custom-forms/"+form, nil)
		}()
		go func() {
			defer wg.Done()
			save = as(t, tn, "PATCH", "/pages/"+page, map[string]any{"version": 1, "pageSections": []any{formSection(types, "Ask", form)}})
		}()
		wg.Wait()
		formThere := as(t, tn, "GET", "/custom-forms/"+form, nil).Status == http.StatusOK
		got := as(t, tn, "GET", "/pages/"+page, nil)
		shown := strings.Contains(string(got.Raw), form)
		switch {
		case shown && !formThere:
			t.Fatalf("round %d: a section shows the deleted form (delete %d, save %d)", round, del.Status, save.Status)
		case save.Status == http.StatusOK && del.Status == http.StatusOK:
			t.Fatalf("round %d: both the save and the delete were accepted", round)
		case save.Status != http.StatusOK && save.Status != http.StatusBadRequest,
			del.Status != http.StatusOK && del.Status != http.StatusConflict:
			t.Fatalf("round %d: delete %d %s, save %d %s", round, del.Status, del.Raw, save.Status, save.Raw)
		}
		if shown && refCount(t, tn, form) != 1 {
			t.Fatalf("round %d: the form is shown and counts %d", round, refCount(t, tn, form))
		}
		outcomes[fmt.Sprintf("delete %d, save %d", del.Status, save.Status)]++
	}
	t.Logf("outcomes over %d rounds: %v", rounds, outcomes)
}

// TestTheLargestWriteWithForms: the forms a page shows count towards its sections (each distinct
// form one more), so the largest save with forms, all sections replaced by others showing other
// forms, still fits in one transaction of at most pages.LargestWrite items; one more section is
// refused before anything is written.
func TestTheLargestWriteWithForms(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	const forms = 2
	sections := func(tag string, formIDs ...string) []map[string]any {
		out := make([]map[string]any, 0, pages.MaxSections)
		for _, id := range formIDs {
			out = append(out, formSection(types, tag+" form", id))
		}
		for i := len(out); i < pages.MaxSections-len(formIDs); i++ {
			out = append(out, map[string]any{"title": fmt.Sprintf("%s %d", tag, i), "pageSectionTypeId": types["banner"], "config": items(1, nil)})
		}
		return out
	}
	a1, a2, b1, b2 := newForm(t, tn), newForm(t, tn), newForm(t, tn), newForm(t, tn)
	title := strings.Repeat("Open Day Campus Tours Admissions Scholarships Library ", 3)
	res := as(t, tn, "POST", "/pages", map[string]any{"title": title, "slug": "open-day", "publishAt": "2098-01-01T00:00:00Z", "pageSections": sections("A", a1, a2)})
	check(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)

	tooMany := append(sections("B", b1, b2), map[string]any{"title": "One more", "pageSectionTypeId": types["banner"], "config": items(1, nil)})
	res = as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": tooMany})
	check(t, res, http.StatusBadRequest, "")
	if msg, _ := res.Get("errors.pageSections").(string); !strings.Contains(msg, "each form it shows counts as one more") {
		t.Fatalf("%d sections and 2 forms: %s", pages.MaxSections-1, res.Raw)
	}

	from := len(testkit.Faults(t).Calls(tn.ID))
	res = as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": sections("B", b1, b2),
		"title": strings.Repeat("Research Faculty Alumni Events Sport Housing Careers ", 3), "slug": "research", "publishAt": "2099-01-01T00:00:00Z"})
	check(t, res, http.StatusOK, "")
	if _, n, _, _ := txItems(t, tn.ID, from); len(n) != 1 || n[0] != measuredLargest {
		t.Fatalf("the largest save with %d forms: transactions of %v items, want one of %d", forms, n, measuredLargest)
	}
	from = len(testkit.Faults(t).Calls(tn.ID))
	check(t, as(t, tn, "POST", "/pages/"+id+"/versions/1/restore", map[string]any{"version": 2}), http.StatusOK, "")
	if _, n, _, _ := txItems(t, tn.ID, from); len(n) != 1 || n[0] != measuredLargest {
		t.Fatalf("its restore: transactions of %v items, want one of %d", n, measuredLargest)
	}
	for _, f := range []string{a1, a2} {
		if n := refCount(t, tn, f); n != 1 {
			t.Fatalf("form %s shown again after the restore: refCount %d", f, n)
		}
	}
	for _, f := range []string{b1, b2} {
		if n := refCount(t, tn, f); n != 0 {
			t.Fatalf("form %s no longer shown: refCount %d", f, n)
		}
	}
}
