package a11ycheck_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func call(t *testing.T, tn testkit.Tenant, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
}

func counts(t *testing.T, tn testkit.Tenant) a11ycheck.Counts {
	t.Helper()
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a11ycheck.ReadCounts(context.Background(), testkit.Deps(t).Store, scope)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantCounts checks the counters and that the report agrees with them.
func wantCounts(t *testing.T, tn testkit.Tenant, records, findings int64) {
	t.Helper()
	if c := counts(t, tn); c.Records != records || c.Findings != findings {
		t.Fatalf("counters: %d records, %d findings; want %d, %d", c.Records, c.Findings, records, findings)
	}
	res := call(t, tn, "GET", "/accessibility-report?limit=100", nil)
	testkit.Expect(t, res, http.StatusOK, "")
	list, _ := res.Get("result").([]any)
	n := 0
	for _, e := range list {
		fs, _ := e.(map[string]any)["findings"].([]any)
		n += len(fs)
	}
	if int64(len(list)) != records || int64(n) != findings || res.Get("totalCount") != float64(records) || res.Get("findingsCount") != float64(findings) {
		t.Fatalf("report: %d records, %d findings (totals %v, %v); want %d, %d", len(list), n, res.Get("totalCount"), res.Get("findingsCount"), records, findings)
	}
}

const twoProblems = `<h2>Visit</h2><h5>Parking</h5><p>For directions <a href="https://example.org/map">click here</a>.</p>`

// TestFindingsStoredAndCountedExactly: a published page's findings are stored with it and
// counted; an update, an unpublish, a delete and a restore from the trash keep the counters
// exact, and the report lists only published records with findings.
func TestFindingsStoredAndCountedExactly(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := call(t, tn, "POST", "/pages", map[string]any{"title": "Visit us", "slug": "visit", "isPublished": true, "content": twoProblems})
	testkit.Expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)
	wantCounts(t, tn, 1, 2)

	// An unpublished page with problems is not on the site: not in the report.
	res = call(t, tn, "POST", "/pages", map[string]any{"title": "Draft", "slug": "draft", "isPublished": false, "content": twoProblems})
	testkit.Expect(t, res, http.StatusCreated, "")
	draft := res.Get("result.id").(string)
	wantCounts(t, tn, 1, 2)

	// A notice (another kind) with an h1.
	res = call(t, tn, "POST", "/notices", map[string]any{"title": "Closure", "message": "Closed", "content": "<h1>Closed</h1>", "status": true})
	testkit.Expect(t, res, http.StatusCreated, "")
	notice := res.Get("result.id").(string)
	wantCounts(t, tn, 2, 3)

	// Fixing one of the page's problems.
	res = call(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "content": `<h2>Visit</h2><h3>Parking</h3><p><a href="https://example.org/map">click here</a></p>`})
	testkit.Expect(t, res, http.StatusOK, "")
	wantCounts(t, tn, 2, 2)

	// Publishing the draft counts it; unpublishing takes it out.
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+draft, map[string]any{"version": 1, "isPublished": true}), http.StatusOK, "")
	wantCounts(t, tn, 3, 4)
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+draft, map[string]any{"version": 2, "isPublished": false}), http.StatusOK, "")
	wantCounts(t, tn, 2, 2)

	// Deleting the notice, then restoring it from the trash.
	testkit.Expect(t, call(t, tn, "DELETE", "/notices/"+notice, nil), http.StatusOK, "")
	wantCounts(t, tn, 1, 1)
	res = call(t, tn, "GET", "/trash", nil)
	testkit.Expect(t, res, http.StatusOK, "")
	var version any
	for _, e := range res.Get("result").([]any) {
		m := e.(map[string]any)
		if m["id"] == notice {
			version = m["version"]
		}
	}
	if version == nil {
		t.Fatalf("the notice is not in the trash: %s", res.Raw)
	}
	testkit.Expect(t, call(t, tn, "POST", fmt.Sprintf("/trash/notices/%s/%v/restore", notice, version), nil), http.StatusOK, "")
	wantCounts(t, tn, 2, 2)

	// Fixing everything: the report reaches zero.
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 2, "content": `<h2>Visit</h2><p><a href="https://example.org/map">Directions to the campus</a></p>`}), http.StatusOK, "")
	res = call(t, tn, "GET", "/notices/"+notice, nil)
	testkit.Expect(t, res, http.StatusOK, "")
	testkit.Expect(t, call(t, tn, "PATCH", "/notices/"+notice, map[string]any{"version": res.Get("result.version"), "content": "<h2>Closed</h2>"}), http.StatusOK, "")
	wantCounts(t, tn, 0, 0)
}

// TestBrokenInternalLink: a link to a page that does not exist, then to one that exists but is
// unpublished, then to a published one.
func TestBrokenInternalLink(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	check := func(html string) []any {
		res := call(t, tn, "POST", "/accessibility-check", map[string]any{"collection": "pages", "values": map[string]any{"content": html}})
		testkit.Expect(t, res, http.StatusOK, "")
		fs, _ := res.Get("findings").([]any)
		return fs
	}
	link := `<a href="/fees">Fees and funding</a>`
	if fs := check(link); len(fs) != 1 || fs[0].(map[string]any)["rule"] != "broken-link" {
		t.Fatalf("missing page: %v", fs)
	}
	res := call(t, tn, "POST", "/pages", map[string]any{"title": "Fees", "slug": "fees", "isPublished": false})
	testkit.Expect(t, res, http.StatusCreated, "")
	if fs := check(link); len(fs) != 1 || !strings.Contains(fs[0].(map[string]any)["message"].(string), "not published") {
		t.Fatalf("unpublished page: %v", fs)
	}
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+res.Get("result.id").(string), map[string]any{"version": 1, "isPublished": true}), http.StatusOK, "")
	if fs := check(link); len(fs) != 0 {
		t.Fatalf("published page: %v", fs)
	}
}

// TestCheckRoute: the editor's check answers findings with their places and writes nothing; it
// needs the collection's edit or create permission; bad bodies are 4xx.
func TestCheckRoute(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	_, ref := testkit.LibraryJPEG(t, tn.ID, "lawn.jpg", testkit.SmallJPEG(t))
	body := map[string]any{"collection": "pages", "values": map[string]any{"title": "Home", "pageSections": []any{
		map[string]any{"title": "Welcome", "pageSectionTypeId": "2", "backgroundColor": "#ffffff", "fontColor": "#eeeeee", "subTitle": "Hello",
			"config": []any{map[string]any{"image": ref, "title": "Lawn"}}}}}}
	res := call(t, tn, "POST", "/accessibility-check", body)
	testkit.Expect(t, res, http.StatusOK, "")
	fs, _ := res.Get("findings").([]any)
	if len(fs) != 2 {
		t.Fatalf("findings %s, want contrast and img-alt", res.Raw)
	}
	got := map[string]any{}
	for _, f := range fs {
		m := f.(map[string]any)
		got[m["rule"].(string)] = m["field"]
		if m["section"] != float64(0) {
			t.Fatalf("finding %v: section index", m)
		}
	}
	if got["contrast"] != "sections[0].fontColor" || got["img-alt"] != "sections[0].config[0].image" {
		t.Fatalf("findings %v", got)
	}
	wantCounts(t, tn, 0, 0) // nothing written

	// The image given alt text in the library passes.
	scope, _ := store.NewScope(tn.ID)
	err := testkit.Deps(t).Store.Table.Update("PK", scope.Collection("media")).Range("SK", strings.Split(ref, "/")[0]).Set("altText", "Students on the lawn").Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res = call(t, tn, "POST", "/accessibility-check", body)
	if fs, _ := res.Get("findings").([]any); len(fs) != 1 {
		t.Fatalf("after alt text: %s", res.Raw)
	}

	for _, tc := range []struct {
		name   string
		token  string
		body   any
		status int
	}{
		{"no permission", testkit.NewUser(t, tn, "CMS_VIEW_PAGE"), body, http.StatusForbidden},
		{"edit permission", testkit.NewUser(t, tn, "CMS_EDIT_PAGE"), body, http.StatusOK},
		{"no token", "", body, http.StatusUnauthorized},
		{"unknown collection", tn.AdminToken, map[string]any{"collection": "users", "values": map[string]any{}}, http.StatusBadRequest},
		{"not an object", tn.AdminToken, `[]`, http.StatusBadRequest},
		{"values not an object", tn.AdminToken, map[string]any{"collection": "pages", "values": "x"}, http.StatusBadRequest},
	} {
		res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/accessibility-check", Tenant: tn.ID, Token: tc.token, Body: tc.body})
		if res.Status != tc.status {
			t.Fatalf("%s: %d, want %d: %s", tc.name, res.Status, tc.status, res.Raw)
		}
	}
}

// TestBlockingOnErrors: with blockOnAccessibilityErrors on, saving or publishing a page with
// errors answers 422 with the findings and writes nothing; warnings never block; an unpublished
// page saves.
func TestBlockingOnErrors(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	testkit.Expect(t, call(t, tn, "PATCH", "/site-settings", map[string]any{"blockOnAccessibilityErrors": true}), http.StatusOK, "")
	bad := `<p><img src="/x.png"></p>`
	res := call(t, tn, "POST", "/pages", map[string]any{"title": "A", "slug": "a", "isPublished": true, "content": bad})
	testkit.Expect(t, res, http.StatusUnprocessableEntity, a11ycheck.ErrBlocked)
	if fs, _ := res.Get("findings").([]any); len(fs) != 1 || fs[0].(map[string]any)["rule"] != "img-alt" {
		t.Fatalf("422 body %s", res.Raw)
	}
	if list := call(t, tn, "GET", "/pages", nil); list.Get("totalCount") != float64(0) {
		t.Fatalf("a refused save wrote a page: %s", list.Raw)
	}
	// Warnings only: saved.
	testkit.Expect(t, call(t, tn, "POST", "/pages", map[string]any{"title": "W", "slug": "w", "isPublished": true, "content": `<a href="https://e.org">here</a>`}), http.StatusCreated, "")
	// Unpublished with errors: saved; publishing it: refused.
	res = call(t, tn, "POST", "/pages", map[string]any{"title": "B", "slug": "b", "isPublished": false, "content": bad})
	testkit.Expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "isPublished": true}), http.StatusUnprocessableEntity, a11ycheck.ErrBlocked)
	// Fixed and published in one save: accepted.
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "isPublished": true, "content": `<p><img src="/x.png" alt="Map"></p>`}), http.StatusOK, "")
	// Blocking off: a page with errors saves and is reported.
	testkit.Expect(t, call(t, tn, "PATCH", "/site-settings", map[string]any{"blockOnAccessibilityErrors": false}), http.StatusOK, "")
	testkit.Expect(t, call(t, tn, "POST", "/pages", map[string]any{"title": "C", "slug": "c", "isPublished": true, "content": bad}), http.StatusCreated, "")
	wantCounts(t, tn, 2, 2)
}

// TestReport: the rule filter, paging with a cursor, the CSV export, the permission, and
// another tenant's token gets nothing.
func TestReport(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for i := range 3 {
		testkit.Expect(t, call(t, tn, "POST", "/pages", map[string]any{"title": fmt.Sprintf("=Page %d", i), "slug": fmt.Sprintf("p%d", i), "isPublished": true,
			"content": `<h1>x</h1><a href="https://e.org">here</a>`}), http.StatusCreated, "")
	}
	testkit.Expect(t, call(t, tn, "POST", "/faqs", map[string]any{"question": "Q?", "answer": "A", "status": true}), http.StatusCreated, "")
	res := call(t, tn, "GET", "/accessibility-report?rule=heading-h1", nil)
	testkit.Expect(t, res, http.StatusOK, "")
	for _, e := range res.Get("result").([]any) {
		for _, f := range e.(map[string]any)["findings"].([]any) {
			if f.(map[string]any)["rule"] != "heading-h1" {
				t.Fatalf("rule filter: %s", res.Raw)
			}
		}
	}
	seen := map[string]bool{}
	cursor := ""
	for range 5 {
		res := call(t, tn, "GET", "/accessibility-report?limit=2&cursor="+cursor, nil)
		testkit.Expect(t, res, http.StatusOK, "")
		for _, e := range res.Get("result").([]any) {
			seen[e.(map[string]any)["id"].(string)] = true
		}
		c, _ := res.Get("cursor").(string)
		if c == "" {
			break
		}
		cursor = c
	}
	if len(seen) != 3 {
		t.Fatalf("paging saw %d records, want 3", len(seen))
	}
	raw := testkit.Call(t, testkit.Request{Method: "GET", Path: "/accessibility-report?format=csv", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, raw, http.StatusOK, "")
	if !strings.HasPrefix(raw.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("content type %q", raw.Header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(string(raw.Raw))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 || strings.Join(rows[0], ",") != "kind,id,title,rule,severity,message,field" || rows[1][0] != "pages" || !strings.HasPrefix(rows[1][2], "'=") {
		t.Fatalf("csv %q", rows)
	}
	for _, tc := range []struct {
		name, path, tenant, token string
		status                    int
	}{
		{"bad rule", "/accessibility-report?rule=nope", tn.ID, tn.AdminToken, http.StatusBadRequest},
		{"bad limit", "/accessibility-report?limit=0", tn.ID, tn.AdminToken, http.StatusBadRequest},
		{"bad cursor", "/accessibility-report?cursor=abc", tn.ID, tn.AdminToken, http.StatusBadRequest},
		{"bad format", "/accessibility-report?format=xml", tn.ID, tn.AdminToken, http.StatusBadRequest},
		{"without the permission", "/accessibility-report", tn.ID, testkit.NewUser(t, tn, "CMS_VIEW_PAGE"), http.StatusForbidden},
		{"with it", "/accessibility-report", tn.ID, testkit.NewUser(t, tn, a11ycheck.ReportPermission), http.StatusOK},
		{"no token", "/accessibility-report", tn.ID, "", http.StatusUnauthorized},
	} {
		res := testkit.Call(t, testkit.Request{Method: "GET", Path: tc.path, Tenant: tc.tenant, Token: tc.token})
		if res.Status != tc.status {
			t.Fatalf("%s: %d, want %d: %s", tc.name, res.Status, tc.status, res.Raw)
		}
	}
	// Another tenant: its token is unknown here, and its own report is empty.
	other := testkit.NewTenant(t)
	res = testkit.Call(t, testkit.Request{Method: "GET", Path: "/accessibility-report", Tenant: tn.ID, Token: other.AdminToken})
	if res.Status != http.StatusUnauthorized {
		t.Fatalf("another tenant's token: %d %s", res.Status, res.Raw)
	}
	res = call(t, other, "GET", "/accessibility-report", nil)
	if list, _ := res.Get("result").([]any); len(list) != 0 || res.Get("totalCount") != float64(0) {
		t.Fatalf("another tenant's report: %s", res.Raw)
	}
	// A cursor of this tenant is refused to the other.
	res = call(t, tn, "GET", "/accessibility-report?limit=1", nil)
	c, _ := res.Get("cursor").(string)
	if c == "" {
		t.Fatalf("no cursor: %s", res.Raw)
	}
	if r := call(t, other, "GET", "/accessibility-report?cursor="+c, nil); r.Status != http.StatusBadRequest {
		t.Fatalf("another tenant's cursor: %d", r.Status)
	}
}
