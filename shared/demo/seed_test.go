package demo_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// wantTotals are the list totals the panel shows after a seed, by list path.
var wantTotals = map[string]int{
	"/sliders": 3, "/events": 6, "/notices": 5, "/albums": 2, "/photos": 10, "/departments": 4,
	"/staff-members": 8, "/faqs": 6, "/resources": 3, "/testimonials": 3, "/popups": 1,
	"/custom-forms": 1, "/pages": 4, "/newsletter-signups": 3,
	"/media": 40, "/media?mediaType=IMAGE": 37, "/media?mediaType=DOCUMENT": 3,
}

// wantDashboard is the dashboard's six counters after a seed.
var wantDashboard = map[string]any{"pageCount": 4.0, "formCount": 1.0, "popupCount": 1.0, "albumCount": 2.0,
	"newsletterSignupCount": 3.0, "customFormSubmissionCount": 2.0}

func mustRegistry(t *testing.T) collections.Registry {
	t.Helper()
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func seed(t *testing.T, tenant string) demo.Summary {
	t.Helper()
	d := testkit.Deps(t)
	sum, err := demo.Seed(context.Background(), d.Store, s3client.New(d.AWS), d.Config.MediaBucket, tenant)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(sum)
	return sum
}

// totals reads every list's totalCount as the panel does.
func totals(t *testing.T, tn testkit.Tenant) map[string]int {
	t.Helper()
	out := map[string]int{}
	for path := range wantTotals {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: path, Tenant: tn.ID, Token: tn.AdminToken})
		testkit.Expect(t, res, http.StatusOK, "")
		n, _ := res.Get("totalCount").(float64)
		out[path] = int(n)
	}
	return out
}

func counters(t *testing.T, tenant string) map[string]int64 {
	t.Helper()
	scope, _ := store.NewScope(tenant)
	c, err := testkit.Deps(t).Store.Counters(context.Background(), scope)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSeed(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	testkit.CreateRecord(t, other, mustRegistry(t), mustRegistry(t)["faqs"], 1)
	otherBefore := counters(t, other.ID)

	first := seed(t, tn.ID)
	if first.AlreadySeeded || first.Written["media"] != 40 || first.Existing != 0 {
		t.Fatalf("first run: %+v", first)
	}
	got := totals(t, tn)
	for path, want := range wantTotals {
		if got[path] != want {
			t.Errorf("GET %s: totalCount %d, want %d", path, got[path], want)
		}
	}
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	for k, want := range wantDashboard {
		if got := res.Get("result.dashboardStats." + k); got != want {
			t.Errorf("dashboard %s = %v, want %v", k, got, want)
		}
	}

	t.Run("sections", func(t *testing.T) { checkSections(t, tn) })
	t.Run("menu", func(t *testing.T) { checkMenu(t, tn) })
	t.Run("website", func(t *testing.T) { checkWebsite(t, tn) })
	t.Run("settings", func(t *testing.T) { checkSettings(t, tn) })
	t.Run("events", func(t *testing.T) { checkEvents(t, tn) })
	t.Run("objects", func(t *testing.T) { checkObjects(t, tn.ID, 40) })

	before := counters(t, tn.ID)
	second := seed(t, tn.ID)
	if !second.AlreadySeeded || len(second.Written) != 0 {
		t.Fatalf("second run: %+v", second)
	}
	// Without the marker (a run that stopped before writing it), every record is found by its
	// fixed id and skipped: nothing is written twice.
	scope, _ := store.NewScope(tn.ID)
	if err := testkit.Deps(t).Store.Table.Delete("PK", scope.Root()).Range("SK", "DEMO").Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	retry := seed(t, tn.ID)
	if retry.AlreadySeeded || len(retry.Written) != 0 || retry.Existing == 0 {
		t.Fatalf("run without the marker: %+v", retry)
	}
	if after := counters(t, tn.ID); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("counters changed by a second run:\n%v\n%v", before, after)
	}
	if again := totals(t, tn); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Fatalf("list totals changed by a second run:\n%v\n%v", got, again)
	}
	checkObjects(t, tn.ID, 40)

	if after := counters(t, other.ID); fmt.Sprint(after) != fmt.Sprint(otherBefore) {
		t.Fatalf("another tenant's counters changed:\n%v\n%v", otherBefore, after)
	}
	checkObjects(t, other.ID, 0)
}

// checkSections: home and about hold the six section types between them, and each page reads
// back with its sections (the page's Viewer).
func checkSections(t *testing.T, tn testkit.Tenant) {
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages?limit=10", Tenant: tn.ID, Token: tn.AdminToken})
	types := map[string]bool{}
	slugs := map[string]bool{}
	for _, p := range list.Body["result"].([]any) {
		page := p.(map[string]any)
		slug := page["slug"].(string)
		slugs[slug] = true
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages/" + page["id"].(string), Tenant: tn.ID, Token: tn.AdminToken})
		testkit.Expect(t, res, http.StatusOK, "")
		if page["isPublished"] != true || page["status"] != true {
			t.Errorf("page %s is not published and active: %v", slug, page)
		}
		for _, s := range res.Get("result.pageSections").([]any) {
			if slug == "home" || slug == "about" {
				types[s.(map[string]any)["pageSectionType"].(map[string]any)["slug"].(string)] = true
			}
		}
	}
	for _, slug := range []string{"home", "about", "admissions", "contact"} {
		if !slugs[slug] {
			t.Errorf("no page with slug %s: %v", slug, slugs)
		}
	}
	for _, typ := range []string{"slider", "card-row", "banner", "text-image", "embed", "form"} {
		if !types[typ] {
			t.Errorf("home and about have no %s section (have %v)", typ, types)
		}
	}
}

// checkMenu: the menu reads back as a tree with a nested child, and its page items name pages.
func checkMenu(t *testing.T, tn testkit.Tenant) {
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	items := res.Body["result"].([]any)
	labels := []string{}
	nested := 0
	for _, it := range items {
		m := it.(map[string]any)
		labels = append(labels, m["label"].(string))
		nested += len(m["children"].([]any))
	}
	if want := "Home About Admissions Events News Gallery Staff Contact"; strings.Join(labels, " ") != want {
		t.Errorf("menu %v, want %s", labels, want)
	}
	if nested == 0 {
		t.Error("no nested menu item")
	}
	// A save of the tree as read passes the menu's own checks (every PAGE item a page of the tenant).
	save := testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"menuItems": items, "version": res.Body["version"]}})
	testkit.Expect(t, save, http.StatusOK, "")
}

// checkWebsite reads the seeded site through the public API, as the website will.
func checkWebsite(t *testing.T, tn testkit.Tenant) {
	for _, c := range []struct {
		path string
		want func(testkit.Response) bool
	}{
		{"/pages/home", func(r testkit.Response) bool {
			return r.Get("result.metaTitle") != nil && len(r.Get("result.sections").([]any)) == 4
		}},
		{"/pages/about", func(r testkit.Response) bool { return len(r.Get("result.sections").([]any)) == 3 }},
		{"/popups", func(r testkit.Response) bool { return r.Get("totalCount") == 1.0 }},
		{"/site", func(r testkit.Response) bool {
			return r.Get("result.header.title") != nil && len(r.Get("result.menu").([]any)) == 8
		}},
	} {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/api/v1/public" + c.path, Tenant: tn.ID})
		if res.Status != http.StatusOK || !c.want(res) {
			t.Errorf("GET public %s: %d %.400s", c.path, res.Status, res.Raw)
		}
	}
}

func checkSettings(t *testing.T, tn testkit.Tenant) {
	get := func(path string) testkit.Response {
		return testkit.Call(t, testkit.Request{Method: "GET", Path: path, Tenant: tn.ID, Token: tn.AdminToken})
	}
	for _, c := range []struct{ path, field string }{
		{"/header", "result.logoUrl"}, {"/footer", "result.contactEmail"}, {"/seo-settings", "result.defaultDescription"},
	} {
		if v, _ := get(c.path).Get(c.field).(string); v == "" {
			t.Errorf("%s: %s is empty", c.path, c.field)
		}
	}
	if v := get("/header").Get("result.title"); v != "Test "+tn.ID {
		t.Errorf("header title %v, want the tenant's name", v)
	}
	if v := get("/footer").Get("result.showNewsletterSignup"); v != true {
		t.Errorf("footer showNewsletterSignup %v", v)
	}
	theme := get("/theme-settings")
	// No font chosen: the theme's system stack, which no visitor downloads.
	if theme.Get("result.theme") != "classic" || theme.Get("result.fontFamily") != nil || theme.Get("result.primaryColor") != "#1e88e5" {
		t.Errorf("theme settings %s", theme.Raw)
	}
}

// checkEvents: three events are still to come and three are over, whenever the test runs.
func checkEvents(t *testing.T, tn testkit.Tenant) {
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/events?limit=10", Tenant: tn.ID, Token: tn.AdminToken})
	today := time.Now().UTC().Format(time.DateOnly)
	upcoming := 0
	for _, e := range res.Body["result"].([]any) {
		if e.(map[string]any)["startDate"].(string) >= today {
			upcoming++
		}
	}
	if upcoming != 3 {
		t.Errorf("%d upcoming events, want 3", upcoming)
	}
}

// checkObjects: the tenant's prefix of the media bucket holds n objects, none larger than the
// size a quick first page load allows.
func checkObjects(t *testing.T, tenant string, n int) {
	t.Helper()
	d := testkit.Deps(t)
	out, err := s3client.New(d.AWS).ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{
		Bucket: aws.String(d.Config.MediaBucket), Prefix: aws.String("media/" + tenant + "/")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Contents) != n {
		t.Fatalf("%d objects under media/%s/, want %d", len(out.Contents), tenant, n)
	}
	for _, o := range out.Contents {
		if aws.ToInt64(o.Size) > 120_000 {
			t.Errorf("%s is %d bytes", aws.ToString(o.Key), aws.ToInt64(o.Size))
		}
	}
}

func TestSeedUnknownTenant(t *testing.T) {
	t.Parallel()
	d := testkit.Deps(t)
	_, err := demo.Seed(context.Background(), d.Store, s3client.New(d.AWS), d.Config.MediaBucket, "no-such-tenant")
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("error %v, want not found", err)
	}
}
