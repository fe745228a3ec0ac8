package redirects_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// Create, list, update (the marker follows every change of path, target and status), delete (the
// path is free again), restore from the trash (the marker is back), through the HTTP API.
func TestRedirectLifecycle(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := create(t, tn, map[string]any{"fromPath": " /About-Us/ ", "to": "/about", "note": "Old WordPress page"})
	id := res.Get("result.id").(string)
	if res.Get("result.fromPath") != "/About-Us" || res.Get("result.to") != "/about" || res.Get("result.statusCode") != "301" {
		t.Fatalf("created %s", res.Raw)
	}
	wantMarker(t, tn.ID, "/About-Us", id, "/about", 301)

	list := as(t, tn, "GET", "/redirects?search=about", nil)
	testkit.Expect(t, list, 200, "")
	if list.Get("totalCount") != float64(1) || list.Get("result.0.fromPath") != "/About-Us" || list.Get("result.0.note") != "Old WordPress page" {
		t.Fatalf("list %s", list.Raw)
	}

	// A new target and status: the marker holds them.
	res = as(t, tn, "PATCH", "/redirects/"+id, map[string]any{"version": 1, "to": "https://www.example.org/about", "statusCode": "302"})
	testkit.Expect(t, res, 200, "Redirect updated successfully!")
	wantMarker(t, tn.ID, "/About-Us", id, "https://www.example.org/about", 302)
	// A note alone leaves the marker as it is.
	testkit.Expect(t, as(t, tn, "PATCH", "/redirects/"+id, map[string]any{"version": 2, "note": "Checked"}), 200, "")
	wantMarker(t, tn.ID, "/About-Us", id, "https://www.example.org/about", 302)
	// The Status switch: off in the marker too (the path stays taken), then on again.
	for i, on := range []bool{false, true} {
		testkit.Expect(t, as(t, tn, "PATCH", "/redirects/"+id, map[string]any{"status": on}), 200, "")
		if m, _ := marker(t, tn.ID, "/About-Us"); m.Off == on || m.RedirectID != id {
			t.Fatalf("switch %d (%v): marker %+v", i, on, m)
		}
	}
	testkit.Expect(t, as(t, tn, "POST", "/redirects", map[string]any{"fromPath": "/About-Us", "to": "/x"}), http.StatusConflict, "")
	// A new path moves the marker; the old path is free.
	res = as(t, tn, "PATCH", "/redirects/"+id, map[string]any{"version": 5, "fromPath": "/about-us.html"})
	testkit.Expect(t, res, 200, "")
	wantMarker(t, tn.ID, "/about-us.html", id, "https://www.example.org/about", 302)
	noMarker(t, tn.ID, "/About-Us")
	// Back to version 2: its path comes back with its marker, and the later path is free.
	res = as(t, tn, "POST", "/redirects/"+id+"/versions/2/restore", map[string]any{"version": 6})
	testkit.Expect(t, res, 200, "")
	wantMarker(t, tn.ID, "/About-Us", id, "https://www.example.org/about", 302)
	noMarker(t, tn.ID, "/about-us.html")
	other := create(t, tn, map[string]any{"fromPath": "/about-us.html", "to": "/elsewhere"}).Get("result.id").(string)
	// Back to version 6, whose path is another redirect's now: refused, nothing moves.
	res = as(t, tn, "POST", "/redirects/"+id+"/versions/6/restore", map[string]any{"version": 7})
	testkit.Expect(t, res, http.StatusConflict, "A redirect from this path already exists.")
	wantMarker(t, tn.ID, "/about-us.html", other, "/elsewhere", 301)
	wantMarker(t, tn.ID, "/About-Us", id, "https://www.example.org/about", 302)

	// Delete: the marker goes with the record, into the trash.
	version := int(as(t, tn, "GET", "/redirects/"+id, nil).Get("result.version").(float64))
	testkit.Expect(t, as(t, tn, "DELETE", "/redirects/"+id, nil), 200, "Redirect Deleted Successfully!")
	noMarker(t, tn.ID, "/About-Us")
	trash := as(t, tn, "GET", "/trash?kind=redirects", nil)
	if !strings.Contains(string(trash.Raw), id) {
		t.Fatalf("not in the trash: %s", trash.Raw)
	}
	// Restored: the marker is back.
	res = as(t, tn, "POST", fmt.Sprintf("/trash/redirects/%s/%d/restore", id, version), map[string]any{})
	testkit.Expect(t, res, 200, "")
	wantMarker(t, tn.ID, "/About-Us", id, "https://www.example.org/about", 302)
}

// A second redirect from the same path, however it is spelled, is a 409 on fromPath; a restore
// from the trash of a redirect whose path was taken meanwhile is refused the same way.
func TestFromPathIsUnique(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	first := create(t, tn, map[string]any{"fromPath": "/news/", "to": "/notices"}).Get("result.id").(string)
	for _, from := range []string{"/news", "/news/", "/%6Eews"} {
		res := as(t, tn, "POST", "/redirects", map[string]any{"fromPath": from, "to": "/elsewhere"})
		testkit.Expect(t, res, http.StatusConflict, "A redirect from this path already exists.")
		if res.Get("errors.fromPath") != "A redirect from this path already exists." {
			t.Fatalf("%s: %s", from, res.Raw)
		}
	}
	// Another path edited onto a taken one: 409, nothing changed.
	second := create(t, tn, map[string]any{"fromPath": "/events-old", "to": "/events"}).Get("result.id").(string)
	testkit.Expect(t, as(t, tn, "PATCH", "/redirects/"+second, map[string]any{"version": 1, "fromPath": "/news"}), http.StatusConflict,
		"A redirect from this path already exists.")
	wantMarker(t, tn.ID, "/events-old", second, "/events", 301)
	wantMarker(t, tn.ID, "/news", first, "/notices", 301)

	// Deleted, its path taken by another, then restored: refused, and the other keeps the path.
	testkit.Expect(t, as(t, tn, "DELETE", "/redirects/"+first, nil), 200, "")
	third := create(t, tn, map[string]any{"fromPath": "/news", "to": "/latest"}).Get("result.id").(string)
	res := as(t, tn, "POST", "/trash/redirects/"+first+"/1/restore", map[string]any{})
	testkit.Expect(t, res, http.StatusConflict, "A redirect from this path already exists.")
	wantMarker(t, tn.ID, "/news", third, "/latest", 301)
	if got := as(t, tn, "GET", "/redirects?limit=10", nil).Get("totalCount"); got != float64(2) {
		t.Fatalf("%v redirects, want 2", got)
	}
}

// Every bad input is a 400 naming its field, and writes nothing: no record, no marker, no count.
func TestBadInputIsRefused(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	existing := create(t, tn, map[string]any{"fromPath": "/kept", "to": "/target"}).Get("result.id").(string)
	ok := map[string]any{"fromPath": "/old", "to": "/new"}
	with := func(field string, v any) map[string]any {
		b := map[string]any{}
		for k, x := range ok {
			b[k] = x
		}
		b[field] = v
		return b
	}
	cases := []struct {
		name  string
		body  map[string]any
		field string
		msg   string
	}{
		{"no fromPath", map[string]any{"to": "/new"}, "fromPath", "From Path is required!"},
		{"no to", map[string]any{"fromPath": "/old"}, "to", "Redirect To is required!"},
		{"no leading slash", with("fromPath", "old"), "fromPath", "From Path must be a path on this website starting with /"},
		{"scheme in fromPath", with("fromPath", "https://old.example.org/old"), "fromPath", "From Path must be a path on this website starting with /"},
		{"host in fromPath", with("fromPath", "//old.example.org/old"), "fromPath", "From Path must be a path on this website starting with /"},
		{"fragment", with("fromPath", "/old#x"), "fromPath", "From Path can't contain a #fragment"},
		{"home page", with("fromPath", "/"), "fromPath", "The home page can't be redirected."},
		{"other query", with("fromPath", "/old?utm_source=x"), "fromPath", "From Path can carry only one WordPress query"},
		{"oversize fromPath", with("fromPath", "/"+strings.Repeat("a", 600)), "fromPath", "From Path must be at most 500 characters."},
		{"oversize once escaped", with("fromPath", "/"+strings.Repeat("é", 120)), "fromPath", "From Path must be at most 500 characters."},
		{"javascript to", with("to", "javascript:alert(1)"), "to", "Redirect To must be a path on this website starting with /"},
		{"http to", with("to", "http://www.example.org/"), "to", "Redirect To must start with https://"},
		{"data to", with("to", "data:text/html,<script>alert(1)</script>"), "to", "Redirect To must be a path on this website starting with /"},
		{"scheme-relative to", with("to", "//evil.example/"), "to", "Redirect To must be a path on this website starting with /"},
		{"header injection", with("to", "/a\r\nSet-Cookie: x=1"), "to", "Redirect To can't contain spaces or control characters."},
		{"oversize to", with("to", "/"+strings.Repeat("a", 2100)), "to", "Redirect To must be at most 2000 characters."},
		{"loop", with("to", "/old"), "to", "A redirect can't point to itself."},
		{"loop through a trailing slash", with("to", "/old/"), "to", "A redirect can't point to itself."},
		{"loop through a query", map[string]any{"fromPath": "/?p=5", "to": "/?p=5&utm_source=x"}, "to", "A redirect can't point to itself."},
		{"bad status", with("statusCode", "307"), "statusCode", "Status Code must be one of: 301, 302."},
		{"bad status number", with("statusCode", 307), "statusCode", "Status Code must be one of: 301, 302."},
		{"status as an object", with("statusCode", map[string]any{"x": 1}), "statusCode", "Status Code must be text."},
		{"unknown field", with("isAdmin", true), "isAdmin", `Field "isAdmin" is not allowed here.`},
		{"oversize note", with("note", strings.Repeat("n", 2100)), "note", "Note must be at most 2000 characters."},
	}
	for _, c := range cases {
		res := as(t, tn, "POST", "/redirects", c.body)
		msg, _ := res.Get("errors." + c.field).(string)
		if res.Status != http.StatusBadRequest || msg == "" || !strings.HasPrefix(msg, c.msg) {
			t.Errorf("%s: %d %s; want 400 on %s %q", c.name, res.Status, res.Raw, c.field, c.msg)
		}
		// The same through an edit of an existing redirect.
		patch := map[string]any{"version": 1}
		for k, v := range c.body {
			if _, keep := ok[k]; !keep || k == c.field {
				patch[k] = v
			}
		}
		if c.name == "no fromPath" || c.name == "no to" {
			patch[c.field] = nil
		}
		if strings.HasPrefix(c.name, "loop") {
			continue // the existing redirect's path is another: no loop there
		}
		res = as(t, tn, "PATCH", "/redirects/"+existing, patch)
		if msg, _ := res.Get("errors." + c.field).(string); res.Status != http.StatusBadRequest || !strings.HasPrefix(msg, c.msg) {
			t.Errorf("PATCH %s: %d %s", c.name, res.Status, res.Raw)
		}
	}
	list := as(t, tn, "GET", "/redirects?limit=10", nil)
	if list.Get("totalCount") != float64(1) || list.Get("result.0.version") != float64(1) {
		t.Fatalf("refused writes wrote: %s", list.Raw)
	}
	for _, from := range []string{"/old", "/?p=5"} {
		noMarker(t, tn.ID, from)
	}
	wantMarker(t, tn.ID, "/kept", existing, "/target", 301)
}

// The status may be sent as the number the website answers with; it is stored as the select's
// option, as the panel sends it.
func TestStatusCodeAsANumber(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := create(t, tn, map[string]any{"fromPath": "/?page_id=7", "to": "/admissions", "statusCode": 302})
	if res.Get("result.statusCode") != "302" {
		t.Fatalf("stored %s", res.Raw)
	}
	wantMarker(t, tn.ID, "/?page_id=7", res.Get("result.id").(string), "/admissions", 302)
}

// A tenant's token never reaches another tenant's redirects, and the same path is free in each
// tenant; a user without the right is refused.
func TestRedirectsAreIsolated(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	id := create(t, a, map[string]any{"fromPath": "/shared-path", "to": "/in-a"}).Get("result.id").(string)
	create(t, b, map[string]any{"fromPath": "/shared-path", "to": "/in-b"})
	crossed := func(method, path string, body any) testkit.Response {
		return testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: b.ID, Token: a.AdminToken, Body: body})
	}
	for _, c := range []struct{ method, path string }{{"GET", "/redirects"}, {"POST", "/redirects"}, {"GET", "/redirects/" + id},
		{"PATCH", "/redirects/" + id}, {"DELETE", "/redirects/" + id}} {
		if res := crossed(c.method, c.path, map[string]any{"fromPath": "/x", "to": "/y"}); res.Status != http.StatusUnauthorized {
			t.Errorf("A's token on B's %s %s: %d %s", c.method, c.path, res.Status, res.Raw)
		}
	}
	// B's own token on A's record: not found.
	testkit.Expect(t, as(t, b, "PATCH", "/redirects/"+id, map[string]any{"to": "/hijack"}), http.StatusNotFound, "")
	testkit.Expect(t, as(t, b, "DELETE", "/redirects/"+id, nil), http.StatusNotFound, "")
	wantMarker(t, a.ID, "/shared-path", id, "/in-a", 301)

	viewer := testkit.NewUser(t, a, "CMS_VIEW_REDIRECT")
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/redirects", Tenant: a.ID, Token: viewer}), 200, "")
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "POST", Path: "/redirects", Tenant: a.ID, Token: viewer,
		Body: map[string]any{"fromPath": "/v", "to": "/w"}}), http.StatusForbidden, "")
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/redirects"}), http.StatusNotFound, "")
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "GET", Path: "/redirects", Tenant: a.ID}), http.StatusUnauthorized, "")
}
