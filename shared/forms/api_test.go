package forms_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) {
	// The panel's address notifications link to (notify_test.go).
	os.Setenv("PANEL_URL", testPanel)
	testkit.Main(m)
}

type call = testkit.Request

const cover = "01ARZ3NDEKTSV4RRFFQ69G5FAV/cover.png"

// everyType is a form with one field of each type, as the builder sends it (NEW_ ids).
var everyType = []map[string]any{
	{"id": "NEW_1", "label": "Name", "fieldType": "text", "required": true, "hint": "Your full name"},
	{"id": "NEW_2", "label": "About", "fieldType": "textarea"},
	{"id": "NEW_3", "label": "Born", "fieldType": "date"},
	{"id": "NEW_4", "label": "CV", "fieldType": "file"},
	{"id": "NEW_5", "label": "Course", "fieldType": "select", "options": []map[string]any{{"id": "NEW_6", "name": "Art"}, {"id": "NEW_7", "name": "Maths"}}},
	{"id": "NEW_8", "label": "Shift", "fieldType": "radio", "options": []map[string]any{{"id": "NEW_9", "name": "Day"}, {"id": "NEW_10", "name": "Night"}}},
	{"id": "NEW_11", "label": "Days", "fieldType": "checkbox", "options": []map[string]any{{"id": "NEW_12", "name": "Mon"}, {"id": "NEW_13", "name": "Tue"}}},
}

func fieldsText(t *testing.T, f any) string {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// createForm creates a form with the given fields and returns its id.
func createForm(t *testing.T, tn testkit.Tenant, fields any) string {
	t.Helper()
	res := testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "Admissions", "image": cover, "fields": fieldsText(t, fields)}})
	testkit.Expect(t, res, http.StatusCreated, "")
	return res.Get("result.id").(string)
}

func submit(t *testing.T, tn testkit.Tenant, token string, body map[string]any) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: "POST", Path: "/custom-form-submissions", Tenant: tn.ID, Token: token, Body: body})
}

func dashboardCount(t *testing.T, tn testkit.Tenant) float64 {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, 200, "")
	return res.Get("result.dashboardStats.customFormSubmissionCount").(float64)
}

// putMedia stores a media record of the tenant as the upload flow's confirmation would.
func putMedia(t *testing.T, tn testkit.Tenant, name string) string {
	t.Helper()
	scope, _ := store.NewScope(tn.ID)
	id := ids.New()
	ref := id + "/" + name
	k := mediaref.RecordKey(scope, ref)
	now := time.Now().UTC()
	it := media.Item{PK: k.PK, SK: k.SK, ID: id, Name: name, FileURL: ref, FileSize: 10, MimeType: "application/pdf", MediaType: "DOCUMENT", CreatedAt: now, UpdatedAt: now}
	if err := testkit.Deps(t).Store.Table.Put(it).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestFormFieldsAreValidatedAndGetPermanentIDs(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id := createForm(t, tn, everyType)
	res := testkit.Call(t, call{Method: "GET", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, 200, "")
	var saved []map[string]any
	if err := json.Unmarshal([]byte(res.Get("result.fields").(string)), &saved); err != nil {
		t.Fatal(err)
	}
	if len(saved) != len(everyType) {
		t.Fatalf("saved %d fields, want %d", len(saved), len(everyType))
	}
	for _, f := range saved {
		if strings.HasPrefix(f["id"].(string), "NEW_") {
			t.Errorf("field %v kept its temporary id", f["label"])
		}
		if opts, ok := f["options"].([]any); ok {
			for _, o := range opts {
				if strings.HasPrefix(o.(map[string]any)["id"].(string), "NEW_") {
					t.Errorf("option %v kept its temporary id", o)
				}
			}
		}
	}
	// A patch keeps saved ids and replaces new ones; the answer is the saved form.
	saved = append(saved[:1], map[string]any{"id": "NEW_x", "label": "Email", "fieldType": "text"})
	patch := testkit.Call(t, call{Method: "PATCH", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": res.Get("result.version"), "fields": fieldsText(t, saved)}})
	testkit.Expect(t, patch, 200, "")
	var after []map[string]any
	_ = json.Unmarshal([]byte(patch.Get("result.fields").(string)), &after)
	if len(after) != 2 || after[0]["id"] != saved[0]["id"] || strings.HasPrefix(after[1]["id"].(string), "NEW_") {
		t.Fatalf("patched fields %v", after)
	}
	bad := []struct{ name, fields, errKey string }{
		{"duplicate labels", `[{"id":"NEW_1","label":"A","fieldType":"text"},{"id":"NEW_2","label":"a","fieldType":"date"}]`, "fields.1.label"},
		{"select without options", `[{"id":"NEW_1","label":"A","fieldType":"select","options":[]}]`, "fields.0.options"},
		{"not a list", `{"label":"A"}`, "fields"},
		{"not JSON", `[{`, "fields"},
	}
	for _, b := range bad {
		res := testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"name": "Bad", "image": cover, "fields": b.fields}})
		testkit.Expect(t, res, 400, "")
		if errs, _ := res.Body["errors"].(map[string]any); errs[b.errKey] == nil {
			t.Errorf("%s: errors %v, want one on %s", b.name, res.Body["errors"], b.errKey)
		}
	}
}

func TestSubmitListCheckExport(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := createForm(t, tn, everyType)
	ref := putMedia(t, tn, "cv.pdf")

	// Required field empty: the preview's message.
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "About": "x"}), 400, "Name is required!")
	// A file reference that is well formed but not in the library.
	res := submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "A", "CV": ids.New() + "/cv.pdf"})
	testkit.Expect(t, res, 400, "CV must be a file uploaded to this institution's media library.")

	res = submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "Ada", "About": "=HYPERLINK(\"http://evil\")",
		"Born": "2001-02-03", "CV": ref, "Course": "Art", "Shift": "Night", "Days": []string{"Tue", "Mon"}})
	testkit.Expect(t, res, 201, "Form Submitted!")
	first := res.Get("result.id").(string)
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "Bob"}), 201, "")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "-1+2"}), 201, "")

	list := testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&limit=5", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, 200, "")
	if list.Get("totalCount") != 3.0 || list.Get("result.0.Name") != "-1+2" || list.Get("result.2.Name") != "Ada" {
		t.Fatalf("list %s", list.Raw)
	}
	if list.Get("result.2.checked") != false || list.Get("result.2.formId") != formID || list.Get("result.2.Days.1") != "Tue" {
		t.Fatalf("submission %v", list.Get("result.2"))
	}
	// Paging: page 2 of size 2 (skip), then the cursor of page 1 gives the same.
	p2 := testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&limit=5&page=2", Tenant: tn.ID, Token: tn.AdminToken})
	if n := len(p2.Body["result"].([]any)); n != 0 || p2.Get("totalCount") != 3.0 {
		t.Fatalf("page 2 of 5: %s", p2.Raw)
	}
	testPaging(t, tn, formID)

	if got := dashboardCount(t, tn); got != 3 {
		t.Fatalf("unchecked %v, want 3", got)
	}
	chk := testkit.Call(t, call{Method: "PATCH", Path: "/custom-form-submissions/" + first, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"checked": true, "formId": formID}})
	testkit.Expect(t, chk, 200, "")
	if chk.Get("result.checked") != true || chk.Get("result.Name") != "Ada" {
		t.Fatalf("checked %s", chk.Raw)
	}
	// Checking twice changes nothing.
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/custom-form-submissions/" + first + "?formId=" + formID, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"checked": true}}), 200, "")
	if got := dashboardCount(t, tn); got != 2 {
		t.Fatalf("unchecked %v, want 2", got)
	}

	exp := testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions/export?formId=" + formID, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, exp, 200, "")
	if ct := exp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Fatalf("content type %q", ct)
	}
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(exp.Raw, []byte("\uFEFF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := []string{"Name", "About", "Born", "CV", "Course", "Shift", "Days", "Submitted At"}
	if fmt.Sprint(rows[0]) != fmt.Sprint(wantHeader) || len(rows) != 4 {
		t.Fatalf("csv rows %q", rows)
	}
	ada := rows[3]
	want := []string{"Ada", `'=HYPERLINK("http://evil")`, "2001-02-03", "/media/" + tn.ID + "/" + ref, "Art", "Night", "Mon, Tue"}
	if fmt.Sprint(ada[:7]) != fmt.Sprint(want) {
		t.Fatalf("csv row %q, want %q", ada[:7], want)
	}
	if rows[1][0] != "'-1+2" {
		t.Fatalf("injection guard: %q", rows[1][0])
	}
	if _, err := time.Parse(time.RFC3339, ada[7]); err != nil {
		t.Fatalf("submitted at %q", ada[7])
	}

	// A form with submissions goes to the trash with them: its unchecked ones leave the
	// dashboard's count, and come back with it.
	before := dashboardCount(t, tn)
	testkit.Expect(t, testkit.Call(t, call{Method: "DELETE", Path: "/custom-forms/" + formID, Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
	if got := dashboardCount(t, tn); got != 0 || before == 0 {
		t.Fatalf("unchecked after the form's delete %v (before %v), want 0", got, before)
	}
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID, Tenant: tn.ID, Token: tn.AdminToken}), 404, "Form not found!")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "Late"}), 404, "Form not found!")
}

// testPaging walks the form's three submissions two at a time by cursor and by page.
func testPaging(t *testing.T, tn testkit.Tenant, formID string) {
	t.Helper()
	get := func(q string) testkit.Response {
		return testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&limit=5" + q, Tenant: tn.ID, Token: tn.AdminToken})
	}
	all := get("")
	names := func(r testkit.Response) (out []string) {
		for _, s := range r.Body["result"].([]any) {
			out = append(out, s.(map[string]any)["Name"].(string))
		}
		return out
	}
	if all.Get("nextCursor") != nil {
		t.Fatalf("a last page has a cursor: %s", all.Raw)
	}
	byFive := names(all)
	// limit 5 holds all three; check a cursor from the middle continues exactly after it.
	mid := all.Get("result.0.id").(string)
	rest := get("&cursor=" + mid)
	if fmt.Sprint(names(rest)) != fmt.Sprint(byFive[1:]) {
		t.Fatalf("after cursor %v, want %v", names(rest), byFive[1:])
	}
	testkit.Expect(t, get("&cursor=nope"), 400, "")
}

func TestInactiveAndUnknownForms(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := createForm(t, tn, everyType[:1])
	res := testkit.Call(t, call{Method: "PATCH", Path: "/custom-forms/" + formID, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"status": false}})
	testkit.Expect(t, res, 200, "")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "A"}), 404, "Form not found!")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": ids.New(), "Name": "A"}), 404, "Form not found!")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"Name": "A"}), 400, "formId is required!")
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions", Tenant: tn.ID, Token: tn.AdminToken}), 400, "formId is required!")
}

// TestCountersUnderConcurrency: 20 concurrent submits, then 20 concurrent checks of one
// submission, leave both counters exact.
func TestCountersUnderConcurrency(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := createForm(t, tn, everyType[:1])
	var wg sync.WaitGroup
	codes := make(chan int, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": fmt.Sprint("p", i)}).Status
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 201 {
			t.Fatalf("a submit answered %d", c)
		}
	}
	list := testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&limit=50", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("totalCount") != 20.0 || len(list.Body["result"].([]any)) != 20 {
		t.Fatalf("after 20 submits: %v total, %d listed", list.Get("totalCount"), len(list.Body["result"].([]any)))
	}
	if got := dashboardCount(t, tn); got != 20 {
		t.Fatalf("unchecked %v, want 20", got)
	}
	one := list.Get("result.0.id").(string)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			testkit.Call(t, call{Method: "PATCH", Path: "/custom-form-submissions/" + one, Tenant: tn.ID, Token: tn.AdminToken,
				Body: map[string]any{"checked": true, "formId": formID}})
		}()
	}
	wg.Wait()
	if got := dashboardCount(t, tn); got != 19 {
		t.Fatalf("unchecked after 20 checks of one submission %v, want 19", got)
	}
}

// TestSubmissionRoutesAccess covers every new route: no token, another tenant's token, another
// tenant's ids, and a user without the permission.
func TestSubmissionRoutesAccess(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	formID := createForm(t, tn, everyType[:1])
	sub := submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "A"}).Get("result.id").(string)
	otherForm := createForm(t, other, everyType[:1])
	type route struct {
		method, path, perm string
		body               map[string]any
	}
	routes := func(form, id string) []route {
		return []route{
			{"POST", "/custom-form-submissions", "CMS_CREATE_FORM_SUBMISSION", map[string]any{"formId": form, "Name": "B"}},
			{"GET", "/custom-form-submissions?formId=" + form, "CMS_VIEW_FORM_SUBMISSION", nil},
			{"GET", "/custom-form-submissions/export?formId=" + form, "CMS_VIEW_FORM_SUBMISSION", nil},
			{"PATCH", "/custom-form-submissions/" + id, "CMS_EDIT_FORM_SUBMISSION", map[string]any{"checked": true, "formId": form}},
			{"DELETE", "/custom-form-submissions/" + id + "?formId=" + form, "CMS_DELETE_FORM_SUBMISSION", nil},
		}
	}
	viewerOfForms := testkit.NewUser(t, tn, "CMS_VIEW_CUSTOM_FORM", "CMS_EDIT_CUSTOM_FORM")
	for _, r := range routes(formID, sub) {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			var body any
			if r.body != nil {
				body = r.body
			}
			testkit.Expect(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Body: body}), 401, "")
			testkit.Expect(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Token: other.AdminToken, Body: body}), 401, "")
			// The other tenant's admin, on its own tenant, cannot reach this tenant's form or submission.
			testkit.Expect(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: other.ID, Token: other.AdminToken, Body: body}), 404, "")
			testkit.Expect(t, testkit.Call(t, call{Method: r.method, Path: r.path, Tenant: tn.ID, Token: viewerOfForms, Body: body}), 403, "")
		})
	}
	// This tenant's submission id with the other tenant's form id, asked by this tenant: not found.
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/custom-form-submissions/" + sub, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"checked": true, "formId": otherForm}}), 404, "")
	// The permission alone is enough, and it is all it takes.
	clerk := testkit.NewUser(t, tn, "CMS_VIEW_FORM_SUBMISSION", "CMS_EDIT_FORM_SUBMISSION")
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID, Tenant: tn.ID, Token: clerk}), 200, "")
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/custom-form-submissions/" + sub, Tenant: tn.ID, Token: clerk,
		Body: map[string]any{"checked": true, "formId": formID}}), 200, "")
	testkit.Expect(t, submit(t, tn, clerk, map[string]any{"formId": formID, "Name": "C"}), 403, "")
}

// TestWritesToSubmissionsAreAudited: submitting, checking, deleting and exporting submissions
// are in the audit log under the form's id (a visitor's submission too: TestVisitorSubmissionIsAudited).
func TestWritesToSubmissionsAreAudited(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := createForm(t, tn, everyType[:1])
	id := submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "Ada"}).Get("result.id").(string)
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/custom-form-submissions/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"checked": true, "formId": formID}}), 200, "")
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions/export?formId=" + formID, Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
	testkit.Expect(t, testkit.Call(t, call{Method: "DELETE", Path: "/custom-form-submissions/" + id + "?formId=" + formID, Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
	log := testkit.Call(t, call{Method: "GET", Path: "/audit-log?collection=custom-form-submissions", Tenant: tn.ID, Token: tn.AdminToken})
	var got []string
	for _, e := range log.Body["result"].([]any) {
		m := e.(map[string]any)
		got = append(got, fmt.Sprint(m["action"], " ", m["recordId"], " ", m["changed"]))
	}
	want := []string{"delete " + formID + "/" + id + " <nil>", "export " + formID + " <nil>", "update " + formID + "/" + id + " [checked]",
		"create " + formID + "/" + id + " <nil>"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("log %v, want %v", got, want)
	}
}

// TestSubmissionsSearchAndOrder: a form's submissions are found by any submitted value, word by
// word (accents and case ignored), newest first or oldest first; a deleted submission is no
// longer found.
func TestSubmissionsSearchAndOrder(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := createForm(t, tn, everyType[:1])
	var ids []string
	for _, name := range []string{"Zoë Adams", "Bob Stone", "Ann Zoe-Smith"} {
		ids = append(ids, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": name}).Get("result.id").(string))
	}
	names := func(query string) (string, any) {
		res := testkit.Call(t, call{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&" + query, Tenant: tn.ID, Token: tn.AdminToken})
		testkit.Expect(t, res, 200, "")
		var out []string
		for _, s := range res.Body["result"].([]any) {
			out = append(out, fmt.Sprint(s.(map[string]any)["Name"]))
		}
		return strings.Join(out, "|"), res.Get("totalCount")
	}
	for query, want := range map[string]string{
		"search=zoe":               "Ann Zoe-Smith|Zoë Adams",
		"search=ZOE&order=asc":     "Zoë Adams|Ann Zoe-Smith",
		"search=smith+ann":         "Ann Zoe-Smith",
		"search=nobody":            "",
		"order=asc":                "Zoë Adams|Bob Stone|Ann Zoe-Smith",
		"":                         "Ann Zoe-Smith|Bob Stone|Zoë Adams",
		"order=asc&limit=5&page=1": "Zoë Adams|Bob Stone|Ann Zoe-Smith",
	} {
		if got, _ := names(query); got != want {
			t.Errorf("%q: %q, want %q", query, got, want)
		}
	}
	if _, total := names("search=zoe"); total != float64(2) {
		t.Errorf("search total %v", total)
	}
	testkit.Expect(t, testkit.Call(t, call{Method: "DELETE", Path: "/custom-form-submissions/" + ids[0] + "?formId=" + formID, Tenant: tn.ID, Token: tn.AdminToken}), 200, "")
	if got, _ := names("search=zoe"); got != "Ann Zoe-Smith" {
		t.Errorf("after the delete: %q", got)
	}
}

// TestCoverImageIsRequiredByLabelOnly: SPEC's form builder marks the cover image required "by
// label only"; a form saves without one.
func TestCoverImageIsRequiredByLabelOnly(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "No cover", "fields": fieldsText(t, everyType[:1])}})
	testkit.Expect(t, res, http.StatusCreated, "")
}
