package pages_test

import (
	"net/http"
	"regexp"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/testkit"
)

func TestSlugify(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"About Us", "about-us"},
		{"  Admissions 2026 / Fees!  ", "admissions-2026-fees"},
		{"Über uns & Café", "uber-uns-and-cafe"},
		{"!!!", "page"},
		{"日本語", "page"},
		{"a--b__c", "a-b-c"},
	}
	for _, c := range cases {
		if got := pages.Slugify(c.in); got != c.want {
			t.Errorf("Slugify(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := pages.Slugify("word " + repeat("abcdefghij", 20))
	if len(long) > 90 || !regexp.MustCompile(`^[a-z0-9-]+$`).MatchString(long) {
		t.Fatalf("long slug %q", long)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func TestSlugRules(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	aboutID, aboutSlug := newPage(t, tn, "About Us")
	if aboutSlug != "about-us" {
		t.Fatalf("slug %q", aboutSlug)
	}
	_, second := newPage(t, tn, "About us")
	_, third := newPage(t, tn, "ABOUT US!")
	if second != "about-us-2" || third != "about-us-3" {
		t.Fatalf("clashing slugs %q %q", second, third)
	}
	otherID, _ := newPage(t, tn, "Contact")

	cases := []struct {
		name    string
		method  string
		path    string
		body    map[string]any
		status  int
		message string
		slug    string
	}{
		{"blank title", "POST", "/pages", map[string]any{"title": "  ", "description": "x"}, 400, "Title is required!", ""},
		{"missing title", "POST", "/pages", map[string]any{"description": "x"}, 400, "Title is required!", ""},
		{"slug taken by another page", "PATCH", "/pages/" + otherID, map[string]any{"slug": "about-us"}, 409, "Slug already in use!", ""},
		{"slug with capitals", "PATCH", "/pages/" + otherID, map[string]any{"slug": "Contact-Us"}, 400, "", ""},
		{"slug with a slash", "PATCH", "/pages/" + otherID, map[string]any{"slug": "a/b"}, 400, "", ""},
		{"slug too long", "PATCH", "/pages/" + otherID, map[string]any{"slug": repeat("a", 101)}, 400, "", ""},
		{"slug emptied", "PATCH", "/pages/" + otherID, map[string]any{"slug": ""}, 400, "Slug is required!", ""},
		{"title change keeps the slug", "PATCH", "/pages/" + aboutID, map[string]any{"title": "Who we are"}, 200, "", "about-us"},
		{"own slug again", "PATCH", "/pages/" + aboutID, map[string]any{"slug": "about-us"}, 200, "", "about-us"},
		{"free slug", "PATCH", "/pages/" + otherID, map[string]any{"slug": "contact-us"}, 200, "", "contact-us"},
	}
	for _, c := range cases {
		res := as(t, tn, c.method, c.path, c.body)
		if res.Status != c.status || (c.message != "" && res.Message() != c.message) {
			t.Fatalf("%s: %d %s", c.name, res.Status, res.Raw)
		}
		if c.slug != "" && res.Get("result.slug") != c.slug {
			t.Fatalf("%s: slug %v", c.name, res.Get("result.slug"))
		}
	}
	// The old slug was released: a new page titled Contact gets it.
	if _, s := newPage(t, tn, "Contact"); s != "contact" {
		t.Fatalf("released slug not reused: %q", s)
	}
	// Deleting a page releases its slug too.
	mustStatus(t, as(t, tn, "DELETE", "/pages/"+aboutID, nil), 200)
	if _, s := newPage(t, tn, "About Us"); s != "about-us" {
		t.Fatalf("deleted page's slug not reused: %q", s)
	}
	// Slugs are per tenant.
	if _, s := newPage(t, testkit.NewTenant(t), "About Us"); s != "about-us" {
		t.Fatalf("another tenant: %q", s)
	}
}

func TestConcurrentCreatesOfOneTitle(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	const n = 20
	var wg sync.WaitGroup
	slugs := make([]string, n)
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := as(t, tn, "POST", "/pages", map[string]any{"title": "Open Day"})
			statuses[i] = res.Status
			slugs[i], _ = res.Get("result.slug").(string)
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	pattern := regexp.MustCompile(`^open-day(-([2-9]|[1-9][0-9]))?$`)
	for i := range n {
		if statuses[i] != http.StatusCreated {
			t.Fatalf("create %d: status %d", i, statuses[i])
		}
		if seen[slugs[i]] || !pattern.MatchString(slugs[i]) {
			t.Fatalf("slug %q repeated or malformed in %v", slugs[i], slugs)
		}
		seen[slugs[i]] = true
	}
	if !seen["open-day"] {
		t.Fatalf("nobody got the plain slug: %v", slugs)
	}
	res := as(t, tn, "GET", "/pages?limit=100", nil)
	if res.Get("totalCount") != float64(n) {
		t.Fatalf("totalCount %v", res.Get("totalCount"))
	}
	dash := as(t, tn, "GET", "/misc/masters", nil)
	if dash.Get("result.dashboardStats.pageCount") != float64(n) {
		t.Fatalf("dashboard pages %v", dash.Get("result.dashboardStats.pageCount"))
	}
}
