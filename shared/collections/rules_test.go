package collections_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestPagingSortingAndLimits(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	var wg sync.WaitGroup
	for i := 1; i <= 25; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
				Body: map[string]any{"question": fmt.Sprintf("Question %02d", i), "answer": "A", "position": 26 - i}})
			mustStatus(t, res, 201)
		}(i)
	}
	wg.Wait()
	cases := []struct {
		name, query string
		status      int
		first       any
		count       int
	}{
		{"default page", "", 200, nil, 10},
		{"third page of ten", "?page=3&limit=10&sort=question&order=asc", 200, "Question 21", 5},
		{"sort ascending", "?sort=question&order=asc&limit=5", 200, "Question 01", 5},
		{"sort descending", "?sort=question&order=desc&limit=5", 200, "Question 25", 5},
		{"sort by number", "?sort=position&order=asc&limit=5", 200, "Question 25", 5},
		{"page past the end", "?page=9", 200, nil, 0},
		{"search", "?search=question+1", 200, nil, 10},
		{"bad limit", "?limit=7", 400, nil, 0},
		{"bad page", "?page=0", 400, nil, 0},
		{"page that overflows an int", "?page=9223372036854775807", 400, nil, 0},
		{"page past int64", "?page=99999999999999999999", 400, nil, 0},
		{"unknown sort field", "?sort=passwordHash", 400, nil, 0},
		{"bad order", "?sort=question&order=sideways", 400, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "GET", Path: "/faqs" + c.query, Tenant: tn.ID, Token: tn.AdminToken})
			mustStatus(t, res, c.status)
			if c.status != 200 {
				return
			}
			if got := len(res.Body["result"].([]any)); got != c.count {
				t.Fatalf("%d records, want %d", got, c.count)
			}
			if c.first != nil && res.Get("result.0.question") != c.first {
				t.Fatalf("first %v, want %v", res.Get("result.0.question"), c.first)
			}
			if c.name != "search" && res.Get("totalCount") != float64(25) {
				t.Fatalf("totalCount %v", res.Get("totalCount"))
			}
		})
	}
}

func TestInputTypesAndHostileHTML(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	cases := []struct {
		name, path string
		body       map[string]any
		status     int
		message    string
	}{
		{"status as string 1", "/faqs", map[string]any{"question": "Q", "answer": "A", "status": "1"}, 201, ""},
		{"status as 0", "/faqs", map[string]any{"question": "Q", "answer": "A", "status": 0}, 201, ""},
		{"status as word", "/faqs", map[string]any{"question": "Q", "answer": "A", "status": "yes"}, 400, "Status must be true or false."},
		{"position as text", "/faqs", map[string]any{"question": "Q", "answer": "A", "position": "third"}, 400, "Position must be a number."},
		{"question as number", "/faqs", map[string]any{"question": 5, "answer": "A"}, 400, "Question must be text."},
		{"bad date", "/events", map[string]any{"title": "T", "startDate": "21/11/2026"}, 400, "Start Date must be a date (YYYY-MM-DD)."},
		{"bad select", "/sitemap-entries", map[string]any{"url": "https://x.org", "changeFreq": "hourly"}, 400, "Change Frequency must be one of: daily, weekly, monthly."},
		{"javascript url", "/sliders", map[string]any{"title": "T", "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png", "ctaUrl": "javascript:alert(1)"}, 400, ""},
		{"image outside media library", "/sliders", map[string]any{"title": "T", "image": "../other-tenant/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png"}, 400, ""},
		{"image as full url", "/sliders", map[string]any{"title": "T", "image": "https://evil.example/a.png"}, 400, ""},
		{"bad email", "/newsletter-signups", map[string]any{"email": "nope"}, 400, "Please enter a valid email!"},
		{"too long text", "/faqs", map[string]any{"question": strings.Repeat("q", 501), "answer": "A"}, 400, "Question must be at most 500 characters."},
		{"bad json text", "/custom-forms", map[string]any{"name": "F", "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png", "fields": "[{"}, 400, "Fields must be valid JSON."},
		{"unknown permission", "/roles", map[string]any{"name": "R", "permissionIds": []string{"CMS_FLY_PLANE"}}, 400, `Unknown permission "CMS_FLY_PLANE".`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "POST", Path: c.path, Tenant: tn.ID, Token: tn.AdminToken, Body: c.body})
			mustStatus(t, res, c.status)
			if c.message != "" && res.Message() != c.message {
				t.Fatalf("message %q, want %q", res.Message(), c.message)
			}
		})
	}
	res := testkit.Call(t, call{Method: "POST", Path: "/albums", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"title": "Trip", "description": `<p onclick="steal()">Hi <b>all</b></p><script>alert(document.cookie)</script><img src=x onerror=alert(1)>`}})
	mustStatus(t, res, 201)
	desc := res.Get("result.description").(string)
	if strings.Contains(desc, "script") || strings.Contains(desc, "onclick") || strings.Contains(desc, "onerror") || !strings.Contains(desc, "<b>all</b>") {
		t.Fatalf("rich text not sanitised: %q", desc)
	}
}

func TestReferencesAndCounters(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	post := func(tn testkit.Tenant, path string, body map[string]any) testkit.Response {
		return testkit.Call(t, call{Method: "POST", Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	album := post(tn, "/albums", map[string]any{"title": "Sports Day"})
	mustStatus(t, album, 201)
	albumID := album.Get("result.id").(string)
	foreignAlbum := post(other, "/albums", map[string]any{"title": "Elsewhere"}).Get("result.id").(string)

	photo := post(tn, "/photos", map[string]any{"albumId": albumID, "image": libraryFile(t, tn, "race.png", 2048), "caption": "Race"})
	mustStatus(t, photo, 201)
	photoID := photo.Get("result.id").(string)
	for name, id := range map[string]string{"unknown album": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "another tenant's album": foreignAlbum} {
		res := post(tn, "/photos", map[string]any{"albumId": id, "image": libraryFile(t, tn, "race.png", 2048)})
		mustStatus(t, res, 400)
		if res.Message() != "Album not found!" {
			t.Fatalf("%s: %q", name, res.Message())
		}
	}
	del := testkit.Call(t, call{Method: "DELETE", Path: "/albums/" + albumID, Tenant: tn.ID, Token: tn.AdminToken})
	mustStatus(t, del, 409)
	if !strings.Contains(del.Message(), "Photos") {
		t.Fatalf("refusal does not say why: %q", del.Message())
	}
	// Editing the album must not lose its reference count.
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/albums/" + albumID, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"title": "Sports Day 2026"}}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/albums/" + albumID, Tenant: tn.ID, Token: tn.AdminToken}), 409)
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/photos/" + photoID, Tenant: tn.ID, Token: tn.AdminToken}), 200)

	masters := testkit.Call(t, call{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	if masters.Get("result.dashboardStats.albumCount") != float64(1) {
		t.Fatalf("album counter: %s", masters.Raw)
	}
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/albums/" + albumID, Tenant: tn.ID, Token: tn.AdminToken}), 200)
	masters = testkit.Call(t, call{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	if masters.Get("result.dashboardStats.albumCount") != float64(0) {
		t.Fatalf("album counter after delete: %s", masters.Raw)
	}
}

func TestNotificationsMarkRead(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	var ids []any
	for i := 0; i < 4; i++ {
		res := testkit.Call(t, call{Method: "POST", Path: "/notifications", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"title": fmt.Sprint("N", i), "message": "M"}})
		mustStatus(t, res, 201)
		if res.Get("result.type") != "push" || res.Get("result.read") != false {
			t.Fatalf("defaults: %s", res.Raw)
		}
		ids = append(ids, res.Get("result.id"))
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/notifications?limit=10&page=1", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("facetCount") != float64(4) || list.Get("result.0.title") != "N3" {
		t.Fatalf("list: %s", list.Raw)
	}
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: other.AdminToken,
		Body: map[string]any{"passcode": "x", "notificaitonIds": ids[:2]}}), 401)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: other.ID, Token: other.AdminToken,
		Body: map[string]any{"passcode": "x", "notificaitonIds": ids[:2]}}), 404)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"passcode": "x", "notificaitonIds": ids[:2]}}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"notificationIds": ids[2:3]}}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"notificaitonIds": []string{}}}), 400)
	list = testkit.Call(t, call{Method: "GET", Path: "/notifications?limit=10&page=1", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("facetCount") != float64(1) {
		t.Fatalf("after marking: %s", list.Raw)
	}
}

func TestPermissionsCatalogueAndRoles(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	role := testkit.Call(t, call{Method: "POST", Path: "/roles", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "FAQ editor", "permissionIds": []string{"CMS_VIEW_FAQ", "CMS_EDIT_FAQ"}}})
	mustStatus(t, role, 201)
	roleID := role.Get("result.id").(string)
	res := testkit.Call(t, call{Method: "GET", Path: "/permissions?role_id=" + roleID, Tenant: tn.ID, Token: tn.AdminToken})
	mustStatus(t, res, 200)
	if len(res.Body["result"].([]any)) != 2 || res.Get("permissionsGrouped.FAQ.0.code") != "CMS_VIEW_FAQ" || res.Get("permissions.0.id") == nil {
		t.Fatalf("permissions: %.300s", res.Raw)
	}
	mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/permissions?role_id=01ARZ3NDEKTSV4RRFFQ69G5FAV", Tenant: tn.ID, Token: tn.AdminToken}), 404)
	roles := testkit.Call(t, call{Method: "GET", Path: "/user-roles", Tenant: tn.ID, Token: tn.AdminToken})
	if roles.Get("result.0.name") != "FAQ editor" {
		t.Fatalf("user-roles: %s", roles.Raw)
	}
	// A user holds its role's permissions.
	res = testkit.Call(t, call{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "F", "lastName": "E", "username": "faq-editor", "password": "editor-pw-1", "roleId": roleID}})
	mustStatus(t, res, 201)
	token := testkit.Login(t, tn.ID, "faq-editor", "editor-pw-1")
	mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: token}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/events", Tenant: tn.ID, Token: token}), 403)
	me := testkit.Call(t, call{Method: "GET", Path: "/auth/me", Tenant: tn.ID, Token: token})
	if len(me.Get("result.permissions").([]any)) != 2 {
		t.Fatalf("me permissions: %s", me.Raw)
	}
	// A role in use cannot be deleted; disabling it takes its rights away.
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/roles/" + roleID, Tenant: tn.ID, Token: tn.AdminToken}), 409)
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/roles/" + roleID, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"status": false}}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "GET", Path: "/faqs", Tenant: tn.ID, Token: token}), 403)
}

func TestUserRules(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	user := func(name string, extra map[string]any) map[string]any {
		b := map[string]any{"firstName": "F", "lastName": "L", "username": name, "password": "pass-word-1"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	// 20 concurrent creates of one username: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := admin("POST", "/users", user("Same-Name", nil))
			mu.Lock()
			codes[res.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[201] != 1 || codes[409] != 19 {
		t.Fatalf("concurrent creates: %v", codes)
	}
	list := admin("GET", "/users?search=same-name", nil)
	if list.Get("totalCount") != float64(1) {
		t.Fatalf("users named same-name: %s", list.Raw)
	}
	cases := []struct {
		name    string
		body    map[string]any
		status  int
		message string
	}{
		{"missing password", map[string]any{"firstName": "F", "lastName": "L", "username": "nopass"}, 400, "Password is required!"},
		{"short password", user("shorty", map[string]any{"password": "abc"}), 400, "Password should be atleast 6 characters!"},
		{"case-insensitive duplicate", user("SAME-name", nil), 409, "Username is already taken!"},
		{"bad username", user("has space", nil), 400, "Username may use 3 to 40 letters, digits and . _ - @ only!"},
		{"missing first name", map[string]any{"lastName": "L", "username": "nofirst", "password": "pass-word-1"}, 400, "First Name is required!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := admin("POST", "/users", c.body)
			mustStatus(t, res, c.status)
			if res.Message() != c.message {
				t.Fatalf("message %q, want %q", res.Message(), c.message)
			}
		})
	}

	created := admin("POST", "/users", user("clerk", map[string]any{"permissionIds": []string{"CMS_VIEW_USER", "CMS_EDIT_USER", "CMS_CREATE_USER"}}))
	mustStatus(t, created, 201)
	clerkID := created.Get("result.id").(string)
	clerk := testkit.Login(t, tn.ID, "clerk", "pass-word-1")
	asClerk := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: clerk, Body: body})
	}

	t.Run("empty password keeps the old one", func(t *testing.T) {
		mustStatus(t, admin("PATCH", "/users/"+clerkID, map[string]any{"password": "", "email": "clerk@example.org"}), 200)
		mustStatus(t, asClerk("GET", "/users/"+clerkID, nil), 200)
		testkit.Login(t, tn.ID, "clerk", "pass-word-1")
	})
	t.Run("cannot raise own rights", func(t *testing.T) {
		for _, body := range []map[string]any{{"isAdmin": true}, {"permissionIds": []string{"CMS_DELETE_USER"}}, {"status": false}} {
			res := asClerk("PATCH", "/users/"+clerkID, body)
			mustStatus(t, res, 403)
		}
	})
	t.Run("cannot grant what it does not hold", func(t *testing.T) {
		mustStatus(t, asClerk("POST", "/users", user("minion", map[string]any{"isAdmin": true})), 403)
		mustStatus(t, asClerk("POST", "/users", user("minion", map[string]any{"permissionIds": []string{"CMS_DELETE_FAQ"}})), 403)
		mustStatus(t, asClerk("POST", "/users", user("minion", map[string]any{"permissionIds": []string{"CMS_VIEW_USER"}})), 201)
	})
	t.Run("cannot touch an admin", func(t *testing.T) {
		mustStatus(t, asClerk("PATCH", "/users/"+tn.AdminID, map[string]any{"password": "taken-over-1"}), 403)
	})
	t.Run("cannot delete oneself", func(t *testing.T) {
		mustStatus(t, admin("DELETE", "/users/"+tn.AdminID, nil), 409)
	})
	t.Run("password change and disabling end sessions", func(t *testing.T) {
		mustStatus(t, admin("PATCH", "/users/"+clerkID, map[string]any{"password": "new-pass-word"}), 200)
		mustStatus(t, asClerk("GET", "/auth/me", nil), 401)
		clerk = testkit.Login(t, tn.ID, "clerk", "new-pass-word")
		mustStatus(t, asClerk("GET", "/auth/me", nil), 200)
		mustStatus(t, admin("PATCH", "/users/"+clerkID, map[string]any{"status": false}), 200)
		mustStatus(t, asClerk("GET", "/auth/me", nil), 401)
		res := testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "clerk", "password": "new-pass-word"}})
		mustStatus(t, res, http.StatusForbidden)
	})
	t.Run("rename moves the login and frees the old name", func(t *testing.T) {
		mustStatus(t, admin("PATCH", "/users/"+clerkID, map[string]any{"username": "registrar", "status": true}), 200)
		testkit.Login(t, tn.ID, "registrar", "new-pass-word")
		mustStatus(t, admin("POST", "/users", user("clerk", nil)), 201)
	})
	t.Run("deleting frees the username", func(t *testing.T) {
		mustStatus(t, admin("DELETE", "/users/"+clerkID, nil), 200)
		mustStatus(t, admin("POST", "/users", user("registrar", nil)), 201)
	})
}
