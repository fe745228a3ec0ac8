package plans_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

const pagesRefused = "Your plan (Starter) allows up to 20 pages. Upgrade your plan to add more."

// addToCounter moves a usage counter as if that many records (or bytes) were there: the limit
// reads the counter, never the records.
func addToCounter(t *testing.T, tn testkit.Tenant, name string, n int64) {
	t.Helper()
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	if err := st.AddToCounter(scope, name, n).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func registry(t *testing.T) collections.Registry {
	t.Helper()
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func create(t *testing.T, tn testkit.Tenant, reg collections.Registry, key string, n int) testkit.Response {
	return testkit.Call(t, testkit.Request{Method: "POST", Path: "/" + key, Tenant: tn.ID, Token: tn.AdminToken,
		Body: testkit.SampleBody(t, tn, reg, reg[key], n)})
}

func TestCatalogueDeclaresLimits(t *testing.T) {
	def, err := plans.Default()
	if err != nil || def != "premium" {
		t.Fatalf("default plan %q, %v; want premium (the demo and new tenants need forms and a domain)", def, err)
	}
	starter, err := plans.Of("starter")
	if err != nil {
		t.Fatal(err)
	}
	want := plans.Limits{Pages: 20, MediaBytes: 1 << 30, MonthlyEmails: 1000}
	if starter.Limits != want {
		t.Errorf("starter limits %+v, want %+v", starter.Limits, want)
	}
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1 << 30, "1 GB"}, {10 << 30, "10 GB"}, {1536 << 10, "1.5 MB"}} {
		if got := plans.FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if _, err := plans.Of("gold"); err == nil {
		t.Error("an unknown plan has no limits")
	}
}

// TestPageLimit: on Starter the 21st page is refused with a 403 naming the plan and the limit;
// the count is the pages counter (no scan), and GET /plans shows it as usage.
func TestPageLimit(t *testing.T) {
	reg := registry(t)
	tn := testkit.NewTenant(t)
	testkit.SetPlan(t, tn.ID, "standard")
	addToCounter(t, tn, "pages", 19)
	res := create(t, tn, reg, "pages", 1)
	testkit.Expect(t, res, http.StatusCreated, "")
	res = create(t, tn, reg, "pages", 2) // Standard: unlimited pages
	testkit.Expect(t, res, http.StatusCreated, "")

	testkit.SetPlan(t, tn.ID, "starter") // 21 pages now: a downgrade keeps them all
	res = create(t, tn, reg, "pages", 3)
	testkit.Expect(t, res, http.StatusForbidden, pagesRefused)
	res = testkit.Call(t, testkit.Request{Method: "GET", Path: "/plans", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	for path, want := range map[string]any{"usage.planId": "starter", "usage.pages": float64(21), "usage.pageLimit": float64(20),
		"usage.mediaLimit": float64(1 << 30), "totalCount": float64(3)} {
		if got := res.Get(path); got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
	// A page kept past the limit is still edited; fewer pages make room again.
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages?limit=5", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, http.StatusOK, "")
	page := list.Get("result").([]any)[0].(map[string]any)
	res = testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/pages/" + page["id"].(string), Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"title": "Edited on Starter", "version": page["version"]}})
	testkit.Expect(t, res, http.StatusOK, "")
	addToCounter(t, tn, "pages", -2) // 19 left
	res = create(t, tn, reg, "pages", 4)
	testkit.Expect(t, res, http.StatusCreated, "")
}

// TestPageLimitRace: two creates racing for the last place: one is refused (the condition sits on
// the counter's own update).
func TestPageLimitRace(t *testing.T) {
	reg := registry(t)
	tn := testkit.NewTenant(t)
	testkit.SetPlan(t, tn.ID, "starter")
	addToCounter(t, tn, "pages", 19)
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = create(t, tn, reg, "pages", 10+i).Status
		}()
	}
	wg.Wait()
	created, refused := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusForbidden:
			refused++
		}
	}
	if created != 1 || refused != 1 {
		t.Fatalf("statuses %v, want one 201 and one 403", statuses)
	}
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(tn.ID)
	if n, err := st.Count(context.Background(), scope, "pages"); err != nil || n != 20 {
		t.Errorf("pages counter %d, %v; want 20", n, err)
	}
}

// TestCustomFormsNeedAPlanWithForms: Starter refuses a new form (403 naming the plan); a form
// made before a downgrade stays, opens and is edited, and only new ones are refused.
func TestCustomFormsNeedAPlanWithForms(t *testing.T) {
	reg := registry(t)
	tn := testkit.NewTenant(t) // the default plan: Premium
	form := create(t, tn, reg, "custom-forms", 1)
	testkit.Expect(t, form, http.StatusCreated, "")
	testkit.SetPlan(t, tn.ID, "starter")
	res := create(t, tn, reg, "custom-forms", 2)
	testkit.Expect(t, res, http.StatusForbidden, "Your plan (Starter) does not include custom forms. Upgrade your plan to add one.")
	id := form.Get("result.id").(string)
	res = testkit.Call(t, testkit.Request{Method: "GET", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	res = testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "Kept on Starter", "version": form.Get("result.version")}})
	testkit.Expect(t, res, http.StatusOK, "")
	// Deleted, it cannot come back from the trash on Starter: a restore is a create.
	res = testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	trash := testkit.Call(t, testkit.Request{Method: "GET", Path: "/trash?kind=custom-forms", Tenant: tn.ID, Token: tn.AdminToken})
	entry := trash.Get("result").([]any)[0].(map[string]any)
	res = testkit.Call(t, testkit.Request{Method: "POST", Tenant: tn.ID, Token: tn.AdminToken,
		Path: "/trash/custom-forms/" + id + "/" + jsonNumber(entry["version"]) + "/restore"})
	testkit.Expect(t, res, http.StatusForbidden, "")
	testkit.SetPlan(t, tn.ID, "standard")
	res = create(t, tn, reg, "custom-forms", 3)
	testkit.Expect(t, res, http.StatusCreated, "")
}

func jsonNumber(v any) string {
	f, _ := v.(float64)
	return fmt.Sprint(int64(f))
}
