package misc_test

import (
	"context"
	"testing"

	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

func TestMastersCountsTheTenantsOwnCounters(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	st := testkit.Deps(t).Store
	scope, _ := store.NewScope(a.ID)
	tx := st.DB.WriteTx().
		Update(st.AddToCounter(scope, store.CountPages, 3)).
		Update(st.AddToCounter(scope, store.CountForms, 2)).
		Update(st.AddToCounter(scope, store.CountUncheckedFormSubmission, 7))
	if err := tx.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		tenant testkit.Tenant
		field  string
		want   float64
	}{
		{"pages", a, "pageCount", 3},
		{"forms", a, "formCount", 2},
		{"unchecked submissions", a, "customFormSubmissionCount", 7},
		{"albums default to zero", a, "albumCount", 0},
		{"other tenant sees none", b, "pageCount", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "GET", Path: "/misc/masters", Tenant: c.tenant.ID, Token: c.tenant.AdminToken})
			if res.Status != 200 {
				t.Fatalf("%d %s", res.Status, res.Raw)
			}
			if got := res.Get("result.dashboardStats." + c.field); got != c.want {
				t.Fatalf("%s = %v, want %v", c.field, got, c.want)
			}
			for _, group := range []string{"productTypes", "reportingCategories", "weightUnits", "warehouseRooms", "transferStatuses"} {
				if res.Get("result.itemGroups."+group+".0.name") == nil {
					t.Fatalf("itemGroups lacks %s", group)
				}
			}
		})
	}
}

func TestMiscRoutes(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	cases := []struct {
		name, path, tenant, token string
		status                    int
		check                     string
		want                      any
	}{
		{"server time", "/misc/server-time", a.ID, "", 200, "result.serverDate", nil},
		{"states of us", "/misc/states?country_id=us", a.ID, a.AdminToken, 200, "result.0.countryId", "US"},
		{"cities of california", "/misc/cities?state_id=US-CA", a.ID, a.AdminToken, 200, "result.0.stateId", "US-CA"},
		{"countries with states", "/misc/countries-states-cities", a.ID, a.AdminToken, 200, "result.0.states", nil},
		{"unknown country", "/misc/states?country_id=ZZ", a.ID, a.AdminToken, 404, "message", "Unknown country_id ZZ!"},
		{"missing state id", "/misc/cities", a.ID, a.AdminToken, 400, "message", "state_id is required!"},
		{"masters without token", "/misc/masters", a.ID, "", 401, "", nil},
		{"masters with other tenant's token", "/misc/masters", b.ID, a.AdminToken, 401, "", nil},
		{"states with other tenant's token", "/misc/states?country_id=US", b.ID, a.AdminToken, 401, "", nil},
		{"unknown tenant", "/misc/server-time", "no-such-school", "", 404, "message", "Could not find institution!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "GET", Path: c.path, Tenant: c.tenant, Token: c.token})
			if res.Status != c.status {
				t.Fatalf("%d %s", res.Status, res.Raw)
			}
			if c.check == "" {
				return
			}
			got := res.Get(c.check)
			if got == nil || (c.want != nil && got != c.want) {
				t.Fatalf("%s = %v, want %v", c.check, got, c.want)
			}
		})
	}
}
