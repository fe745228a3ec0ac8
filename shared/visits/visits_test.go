package visits_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/visits"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func scopeOf(t *testing.T, tn testkit.Tenant) store.Scope {
	t.Helper()
	s, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// items are the tenant's count items (the test reads them whole; the code never does).
func items(t *testing.T, scope store.Scope) []map[string]any {
	t.Helper()
	var out []map[string]any
	err := testkit.Deps(t).Store.Table.Get("PK", scope.Partition(visits.Partition)).Consistent(true).All(context.Background(), &out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCountsExactUnderConcurrentViews: 200 views at once over four paths, three shards and two
// referrers are all counted, each path's over at most three items, every shard used, and the
// report adds them up per day, page and referrer.
func TestCountsExactUnderConcurrentViews(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn)
	c := visits.NewCounter(testkit.Deps(t).Store).WithShards(3)
	paths := []string{"/", "/about", "/events", "/admissions"}
	refs := []string{"", "www.google.com", "", "news.example.org"}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Go(func() {
			if err := c.Count(context.Background(), scope, visits.View{Path: paths[i%4], Referrer: refs[i%4]}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rep, err := visits.Read(context.Background(), testkit.Deps(t).Store, scope, 1, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Days) != 1 || rep.Days[0].Views != 200 || rep.Days[0].Date != time.Now().UTC().Format(time.DateOnly) {
		t.Fatalf("days %+v, want 200 today", rep.Days)
	}
	want := []visits.PageViews{{Path: "/", Views: 50}, {Path: "/about", Views: 50}, {Path: "/admissions", Views: 50}, {Path: "/events", Views: 50}}
	if fmt.Sprint(rep.TopPages) != fmt.Sprint(want) {
		t.Fatalf("top pages %v, want %v", rep.TopPages, want)
	}
	wantRefs := []visits.HostViews{{Host: "news.example.org", Views: 50}, {Host: "www.google.com", Views: 50}}
	if fmt.Sprint(rep.TopReferrers) != fmt.Sprint(wantRefs) {
		t.Fatalf("top referrers %v, want %v", rep.TopReferrers, wantRefs)
	}
	perPath := map[string]int{}
	shards := map[string]bool{}
	for _, it := range items(t, scope) {
		sk := it["SK"].(string)
		parts := strings.SplitN(sk, "#", 4)
		if parts[1] == "P" {
			perPath[parts[3]]++
			shards[parts[2]] = true
		}
		if it["expiresAt"] == nil {
			t.Fatalf("%s has no expiry", sk)
		}
	}
	for p, n := range perPath {
		if n > 3 {
			t.Fatalf("%s counted over %d items, want at most 3", p, n)
		}
	}
	if len(shards) != 3 {
		t.Fatalf("shards used %v, want 3", shards)
	}
}

// TestDayBoundCountsTheRestAsOther: past the day's bound of items a new path's views go to the
// other item, counted still; a path that has its item keeps counting in it.
func TestDayBoundCountsTheRestAsOther(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn)
	st := testkit.Deps(t).Store
	c := visits.NewCounter(st).WithShards(1).WithMaxItems(3)
	for i, p := range []string{"/a", "/b", "/c", "/d", "/e", "/a", "/e"} {
		if err := c.Count(context.Background(), scope, visits.View{Path: p}); err != nil {
			t.Fatalf("view %d: %v", i, err)
		}
	}
	rep, err := visits.Read(context.Background(), st, scope, 7, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Days[len(rep.Days)-1].Views; got != 7 {
		t.Fatalf("today %d views, want 7", got)
	}
	want := []visits.PageViews{{Path: visits.Other, Views: 3}, {Path: "/a", Views: 2}, {Path: "/b", Views: 1}, {Path: "/c", Views: 1}}
	if fmt.Sprint(rep.TopPages) != fmt.Sprint(want) {
		t.Fatalf("top pages %v, want %v", rep.TopPages, want)
	}
	if n := len(items(t, scope)); n != 5 { // three paths, other, the bound's counter
		t.Fatalf("%d items, want 5", n)
	}
}

// TestReportCoversItsDaysOnly: a report has one entry per day up to today, zeros included, and
// counts nothing outside its period.
func TestReportCoversItsDaysOnly(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn)
	st := testkit.Deps(t).Store
	now := time.Now().UTC()
	for _, ago := range []int{0, 0, 2, 6, 7, 40} {
		day := now.AddDate(0, 0, -ago)
		c := visits.NewCounter(st).WithClock(func() time.Time { return day })
		if err := c.Count(context.Background(), scope, visits.View{Path: fmt.Sprintf("/d%d", ago), Referrer: "example.org"}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := visits.Read(context.Background(), st, scope, 7, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Days) != 7 || rep.Days[0].Date != now.AddDate(0, 0, -6).Format(time.DateOnly) || rep.Days[6].Date != now.Format(time.DateOnly) {
		t.Fatalf("days %+v", rep.Days)
	}
	views := []int64{}
	for _, d := range rep.Days {
		views = append(views, d.Views)
	}
	if fmt.Sprint(views) != "[1 0 0 0 1 0 2]" {
		t.Fatalf("views per day %v, want [1 0 0 0 1 0 2]", views)
	}
	if fmt.Sprint(rep.TopReferrers) != "[{example.org 4}]" {
		t.Fatalf("referrers %v", rep.TopReferrers)
	}
	if len(rep.TopPages) != 3 || rep.TopPages[0] != (visits.PageViews{Path: "/d0", Views: 2}) {
		t.Fatalf("top pages %v", rep.TopPages)
	}
}

// TestDaysInTheInstitutionsZone: a view counts on its day in the institution's time zone, and a
// report's days are that zone's.
func TestDaysInTheInstitutionsZone(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn)
	st := testkit.Deps(t).Store
	ny, _ := visits.Zone("America/New_York")
	// 03:00 UTC on 10 March 2026 is still 9 March in New York (23:00, EDT from 8 March).
	at := time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC)
	c := visits.NewCounter(st).WithClock(func() time.Time { return at })
	for _, zone := range []*time.Location{ny, nil} {
		if err := c.Count(context.Background(), scope, visits.View{Path: "/", Zone: zone}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := visits.Read(context.Background(), st, scope, 2, at, ny)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rep.Days) != "[{2026-03-08 0} {2026-03-09 1}]" || rep.TimeZone != "America/New_York" {
		t.Fatalf("New York: %v in %s", rep.Days, rep.TimeZone)
	}
	rep, err = visits.Read(context.Background(), st, scope, 2, at, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rep.Days) != "[{2026-03-09 1} {2026-03-10 1}]" || rep.TimeZone != "UTC" {
		t.Fatalf("UTC: %v in %s", rep.Days, rep.TimeZone)
	}
}

// TestVisitsRoute: GET /visits with the dashboard's permission (any signed-in user of the
// tenant), its period checked, and only the caller's tenant's counts.
func TestVisitsRoute(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	c := visits.NewCounter(testkit.Deps(t).Store)
	for range 3 {
		if err := c.Count(context.Background(), scopeOf(t, a), visits.View{Path: "/about", Referrer: "example.org"}); err != nil {
			t.Fatal(err)
		}
	}
	plain := testkit.NewUser(t, a) // no permission at all: the dashboard is everyone's
	cases := []struct {
		name   string
		tenant string
		token  string
		query  string
		status int
		msg    string
		views  float64
		days   int
	}{
		{"admin, default 30 days", a.ID, a.AdminToken, "", 200, "", 3, 30},
		{"any user", a.ID, plain, "?days=7", 200, "", 3, 7},
		{"90 days", a.ID, a.AdminToken, "?days=90", 200, "", 3, 90},
		{"other tenant's own counts", b.ID, b.AdminToken, "?days=1", 200, "", 0, 1},
		{"A's token on B", b.ID, a.AdminToken, "", 401, "", 0, 0},
		{"no token", a.ID, "", "", 401, "", 0, 0},
		{"days 0", a.ID, a.AdminToken, "?days=0", 400, "Days must be a whole number from 1 to 90.", 0, 0},
		{"days 91", a.ID, a.AdminToken, "?days=91", 400, "Days must be a whole number from 1 to 90.", 0, 0},
		{"days text", a.ID, a.AdminToken, "?days=many", 400, "Days must be a whole number from 1 to 90.", 0, 0},
	}
	// B's institution keeps Auckland's days: its report says so and ends on Auckland's today.
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/site-settings", Tenant: b.ID, Token: b.AdminToken,
		Body: map[string]any{"timeZone": "Pacific/Auckland"}}), 200, "")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/visits" + tc.query, Tenant: tc.tenant, Token: tc.token})
			testkit.Expect(t, res, tc.status, tc.msg)
			if tc.status != http.StatusOK {
				return
			}
			days := res.Get("result.days").([]any)
			if len(days) != tc.days {
				t.Fatalf("%d days, want %d", len(days), tc.days)
			}
			zone := map[bool]string{true: "UTC", false: "Pacific/Auckland"}[tc.tenant == a.ID]
			loc, _ := time.LoadLocation(zone)
			if res.Get("result.timeZone") != zone || res.Get(fmt.Sprintf("result.days.%d.date", tc.days-1)) != time.Now().In(loc).Format(time.DateOnly) {
				t.Fatalf("want days up to today in %s: %s", zone, res.Raw)
			}
			if got := res.Get(fmt.Sprintf("result.days.%d.views", tc.days-1)); got != tc.views {
				t.Fatalf("today %v views, want %v: %s", got, tc.views, res.Raw)
			}
			if tc.views > 0 {
				if res.Get("result.topPages.0.path") != "/about" || res.Get("result.topReferrers.0.host") != "example.org" {
					t.Fatalf("tops: %s", res.Raw)
				}
			} else if len(res.Get("result.topPages").([]any)) != 0 || len(res.Get("result.topReferrers").([]any)) != 0 {
				t.Fatalf("want empty lists: %s", res.Raw)
			}
		})
	}
}

// TestCountFailsCleanlyWhenBusy: a throttled table is an error (the beacon logs it), never a
// count written twice.
func TestCountFailsCleanlyWhenBusy(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn)
	remove := testkit.Faults(t).Inject(awsThrottle(tn.ID))
	err := visits.NewCounter(testkit.Deps(t).Store).Count(context.Background(), scope, visits.View{Path: "/"})
	remove()
	if !store.IsBusy(err) {
		t.Fatalf("err %v, want busy", err)
	}
	var got []map[string]any
	if err := testkit.Deps(t).Store.Table.Get("PK", scope.Partition(visits.Partition)).Consistent(true).All(context.Background(), &got); err != nil && err != dynamo.ErrNotFound {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("items %v, want none", got)
	}
}

func awsThrottle(tenant string) awsclient.Fault {
	return awsclient.Fault{Service: "dynamodb", Match: tenant, Status: 400, Code: "ProvisionedThroughputExceededException"}
}
