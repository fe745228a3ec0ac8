package public_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

// samples are a valid record of each listed collection (an active one; status is set per case).
func samples(t *testing.T, tn testkit.Tenant, n int) map[string]map[string]any {
	day := time.Now().UTC().Format(time.DateOnly)
	return map[string]map[string]any{
		"sliders":       {"title": fmt.Sprint("Slide ", n), "subtitle": "s", "ctaText": "Go", "ctaUrl": "https://example.org/x", "image": img},
		"events":        {"title": fmt.Sprint("Event ", n), "startDate": day, "location": "Hall", "image": img},
		"albums":        {"title": fmt.Sprint("Album ", n), "image": img, "description": "<p>Hi</p>"},
		"testimonials":  {"name": fmt.Sprint("Ann ", n), "description": "Great", "designation": "Parent", "image": img},
		"faqs":          {"question": fmt.Sprint("Q", n), "answer": "A", "position": n},
		"staff-members": {"name": fmt.Sprint("Bob ", n), "role": "Teacher", "email": "bob@example.org", "position": n},
		"departments":   {"name": fmt.Sprint("Dept ", n), "hod": "Dr X"},
		"resources":     {"title": fmt.Sprint("Res ", n), "fileUrl": "01ARZ3NDEKTSV4RRFFQ69G5FAV/doc.pdf", "fileSize": 12, "category": "Forms"},
		"notices":       {"title": fmt.Sprint("Notice ", n), "message": "Closed Monday"},
		"popups":        {"title": fmt.Sprint("Popup ", n), "startDate": day, "linkUrl": "https://example.org/p"},
	}
}

// internalFields never appear in any public answer, at any depth.
var internalFields = []string{"version", "password", "passwordHash", "permissionIds", "permissions", "isAdmin", "read",
	"checked", "isChecked", "refCount", "PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "GSI3PK", "GSI3SK",
	"status", "createdAt", "expiresAt", "sessionEpoch", "roleId", "tenantId", "planId"}

// noInternalFields walks a decoded JSON value and fails on any internal field name.
func noInternalFields(t *testing.T, where string, v any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if slices.Contains(internalFields, k) {
				t.Errorf("%s: internal field %q in the answer", where, k)
			}
			noInternalFields(t, where+"."+k, val)
		}
	case []any:
		for i, val := range x {
			noInternalFields(t, fmt.Sprintf("%s.%d", where, i), val)
		}
	}
}

// TestListsShowOnlyActiveRecords: every public list shows the active records and hides the
// inactive ones, with only allow-listed fields and media as full URLs.
func TestListsShowOnlyActiveRecords(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	active, inactive := map[string]string{}, map[string]string{}
	for kind, body := range samples(t, tn, 1) {
		active[kind] = create(t, tn, kind, body)
	}
	for kind, body := range samples(t, tn, 2) {
		body["status"] = false
		inactive[kind] = create(t, tn, kind, body)
	}
	for kind := range active {
		t.Run(kind, func(t *testing.T) {
			res := public(t, req{path: "/" + kind, tenant: tn.ID})
			expect(t, res, http.StatusOK)
			if got := res.ids(); !slices.Equal(got, []string{active[kind]}) {
				t.Fatalf("ids %v, want only the active %s", got, active[kind])
			}
			if res.body["totalCount"] != float64(1) {
				t.Fatalf("totalCount %v", res.body["totalCount"])
			}
			noInternalFields(t, kind, res.body["result"])
			for _, f := range []string{"image", "fileUrl"} {
				if u, ok := res.list()[0][f].(string); ok && !strings.HasPrefix(u, "http://example.com/media/"+tn.ID+"/01ARZ3NDEKTSV4RRFFQ69G5FAV/") {
					t.Fatalf("%s %q is not a full media URL", f, u)
				}
			}
		})
	}
	// Deactivating a record takes it off the website.
	patch(t, tn, "faqs", active["faqs"], map[string]any{"status": false})
	if got := public(t, req{path: "/faqs", tenant: tn.ID}).ids(); len(got) != 0 {
		t.Fatalf("deactivated faq still listed: %v", got)
	}
}

func TestListPagingAndOrder(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	var faqs []string
	for _, pos := range []int{3, 1, 2} {
		faqs = append(faqs, create(t, tn, "faqs", map[string]any{"question": fmt.Sprint("Q", pos), "answer": "A", "position": pos}))
	}
	res := public(t, req{path: "/faqs", tenant: tn.ID})
	if want := []string{faqs[1], faqs[2], faqs[0]}; !slices.Equal(res.ids(), want) {
		t.Fatalf("faqs %v, want by position %v", res.ids(), want)
	}
	page2 := public(t, req{path: "/faqs?page=2&limit=5", tenant: tn.ID})
	expect(t, page2, http.StatusOK)
	if len(page2.ids()) != 0 || page2.body["totalCount"] != float64(3) {
		t.Fatalf("page 2: %s", page2.raw)
	}
	for _, bad := range []string{"/faqs?limit=7", "/faqs?page=0", "/faqs?sort=question", "/events?when=soon", "/staff-members?department=x"} {
		expect(t, public(t, req{path: bad, tenant: tn.ID}), http.StatusBadRequest)
	}
}

func TestStaffByDepartment(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	math := create(t, tn, "departments", map[string]any{"name": "Maths"})
	art := create(t, tn, "departments", map[string]any{"name": "Art"})
	m1 := create(t, tn, "staff-members", map[string]any{"name": "M1", "role": "T", "department": math, "position": 2})
	m2 := create(t, tn, "staff-members", map[string]any{"name": "M2", "role": "T", "department": math, "position": 1})
	create(t, tn, "staff-members", map[string]any{"name": "A1", "role": "T", "department": art})
	res := public(t, req{path: "/staff-members?department=" + math, tenant: tn.ID})
	if want := []string{m2, m1}; !slices.Equal(res.ids(), want) {
		t.Fatalf("maths staff %v, want %v", res.ids(), want)
	}
	if got := public(t, req{path: "/departments", tenant: tn.ID}).ids(); !slices.Equal(got, []string{art, math}) {
		t.Fatalf("departments %v, want by name", got)
	}
}

func TestPopupsOnlyWhileShowing(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	day := func(d int) string { return time.Now().UTC().AddDate(0, 0, d).Format(time.DateOnly) }
	showing := create(t, tn, "popups", map[string]any{"title": "Now", "startDate": day(-1), "endDate": day(1)})
	endsToday := create(t, tn, "popups", map[string]any{"title": "Today", "startDate": day(0), "endDate": day(0)})
	openEnded := create(t, tn, "popups", map[string]any{"title": "Open", "startDate": day(-3)})
	create(t, tn, "popups", map[string]any{"title": "Future", "startDate": day(2), "endDate": day(5)})
	create(t, tn, "popups", map[string]any{"title": "Expired", "startDate": day(-5), "endDate": day(-1)})
	create(t, tn, "popups", map[string]any{"title": "Off", "startDate": day(-1), "status": false})
	got := public(t, req{path: "/popups", tenant: tn.ID}).ids()
	slices.Sort(got)
	want := []string{showing, endsToday, openEnded}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("popups %v, want %v", got, want)
	}
}

func TestEventsUpcomingFirst(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	day := func(d int) string { return time.Now().UTC().AddDate(0, 0, d).Format(time.DateOnly) }
	later := create(t, tn, "events", map[string]any{"title": "Later", "startDate": day(10)})
	soon := create(t, tn, "events", map[string]any{"title": "Soon", "startDate": day(1)})
	running := create(t, tn, "events", map[string]any{"title": "Running", "startDate": day(-2), "endDate": day(2)})
	old := create(t, tn, "events", map[string]any{"title": "Old", "startDate": day(-30)})
	recent := create(t, tn, "events", map[string]any{"title": "Recent", "startDate": day(-3), "endDate": day(-1)})
	cases := map[string][]string{
		"/events":               {running, soon, later, recent, old},
		"/events?when=upcoming": {running, soon, later},
		"/events?when=past":     {recent, old},
	}
	for path, want := range cases {
		if got := public(t, req{path: path, tenant: tn.ID}).ids(); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

func TestAlbumPhotos(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	album := create(t, tn, "albums", map[string]any{"title": "Sports day"})
	hidden := create(t, tn, "albums", map[string]any{"title": "Draft", "status": false})
	shown := create(t, tn, "photos", map[string]any{"albumId": album, "image": img, "caption": "Race", "fileSize": 10})
	create(t, tn, "photos", map[string]any{"albumId": album, "image": img, "caption": "Off", "fileSize": 10, "status": false})
	create(t, tn, "photos", map[string]any{"albumId": hidden, "image": img, "caption": "Draft", "fileSize": 10})
	res := public(t, req{path: "/albums/" + album + "/photos", tenant: tn.ID})
	if !slices.Equal(res.ids(), []string{shown}) {
		t.Fatalf("photos %v, want %v", res.ids(), shown)
	}
	noInternalFields(t, "photos", res.body["result"])
	for _, path := range []string{"/albums/" + hidden + "/photos", "/albums/01ARZ3NDEKTSV4RRFFQ69G5FAV/photos", "/albums/nope/photos"} {
		expect(t, public(t, req{path: path, tenant: tn.ID}), http.StatusNotFound)
	}
	// Another tenant cannot reach the album by its id.
	expect(t, public(t, req{path: "/albums/" + album + "/photos", tenant: other.ID}), http.StatusNotFound)
}

// TestListSearchByWords: a public list's search follows the panel's word rules: every typed word
// begins a word of the name, in any order, accents and case ignored.
func TestListSearchByWords(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	create(t, tn, "faqs", map[string]any{"question": "Où est la cafétéria ?", "answer": "Au rez-de-chaussée"})
	create(t, tn, "faqs", map[string]any{"question": "When does the library open?", "answer": "At 8"})
	for search, want := range map[string]int{"cafeteria ou": 1, "OPEN library": 1, "brary": 0, "": 2} {
		res := public(t, req{path: "/faqs?search=" + url.QueryEscape(search), tenant: tn.ID})
		expect(t, res, http.StatusOK)
		if got := len(res.list()); got != want {
			t.Errorf("search %q: %d results, want %d", search, got, want)
		}
	}
}
