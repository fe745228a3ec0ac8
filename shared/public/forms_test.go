package public_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// admissionFields is a form as the panel's builder sends it (NEW_ ids).
var admissionFields = []map[string]any{
	{"id": "NEW_1", "label": "Name", "fieldType": "text", "required": true, "hint": "Your full name"},
	{"id": "NEW_2", "label": "Course", "fieldType": "select", "options": []map[string]any{{"id": "NEW_3", "name": "Art"}, {"id": "NEW_4", "name": "Maths"}}},
}

// newForm creates a form through the panel API and returns its id.
func newForm(t *testing.T, tn testkit.Tenant, active bool) string {
	t.Helper()
	raw, _ := json.Marshal(admissionFields)
	return create(t, tn, "custom-forms", map[string]any{"name": "Admissions", "description": "Apply for 2027",
		"image": img, "fields": string(raw), "status": active})
}

// formCounts are the form's submissions as staff see them, and the dashboard's unchecked count.
func formCounts(t *testing.T, tn testkit.Tenant, formID string) (records int, dashboard float64) {
	t.Helper()
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/custom-form-submissions?formId=" + formID + "&limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, http.StatusOK, "")
	masters := testkit.Call(t, testkit.Request{Method: "GET", Path: "/misc/masters", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, masters, http.StatusOK, "")
	n, _ := masters.Get("result.dashboardStats.customFormSubmissionCount").(float64)
	return len(list.Get("result").([]any)), n
}

func TestPublicFormDefinition(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id, closed := newForm(t, tn, true), newForm(t, tn, false)
	res := public(t, req{path: "/forms/" + id, tenant: tn.ID})
	expect(t, res, http.StatusOK)
	if res.calls != 2 {
		t.Errorf("%d DynamoDB calls, want 2", res.calls)
	}
	got := res.body["result"].(map[string]any)
	if got["id"] != id || got["name"] != "Admissions" || got["description"] != "Apply for 2027" ||
		got["image"] != "http://example.com/media/"+tn.ID+"/"+img {
		t.Fatalf("form %v", got)
	}
	for _, internal := range []string{"version", "status", "createdAt", "updatedAt", "PK", "SK", "refCount"} {
		if _, leaked := got[internal]; leaked {
			t.Errorf("%q leaked: %s", internal, res.raw)
		}
	}
	fields := got["fields"].([]any)
	if len(fields) != 2 {
		t.Fatalf("fields %v", fields)
	}
	name, course := fields[0].(map[string]any), fields[1].(map[string]any)
	if name["label"] != "Name" || name["fieldType"] != "text" || name["required"] != true || name["hint"] != "Your full name" ||
		strings.HasPrefix(name["id"].(string), "NEW_") || name["options"] != nil {
		t.Errorf("field %v", name)
	}
	opts := course["options"].([]any)
	if len(opts) != 2 || opts[1].(map[string]any)["name"] != "Maths" || len(opts[0].(map[string]any)) != 2 {
		t.Errorf("options %v", opts)
	}
	if res.header.Get("ETag") == "" || res.header.Get("Cache-Control") == "" {
		t.Errorf("no cache headers: %v", res.header)
	}
	again := public(t, req{path: "/forms/" + id, tenant: tn.ID, header: map[string]string{"If-None-Match": res.header.Get("ETag")}})
	expect(t, again, http.StatusNotModified)

	for name, q := range map[string]req{
		"inactive":     {path: "/forms/" + closed, tenant: tn.ID},
		"other tenant": {path: "/forms/" + id, tenant: other.ID},
		"unknown":      {path: "/forms/01ARZ3NDEKTSV4RRFFQ69G5FAV", tenant: tn.ID},
		"malformed":    {path: "/forms/nope", tenant: tn.ID},
	} {
		if r := public(t, q); r.status != http.StatusNotFound || r.body["message"] != "Form not found!" {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
		}
	}
}

func TestPublicFormSubmission(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id, closed := newForm(t, tn, true), newForm(t, tn, false)
	send := func(tenant, form, body, client string) resp {
		return public(t, req{method: "POST", path: "/forms/" + form + "/submissions", tenant: tenant, client: client, body: body})
	}
	ok := send(tn.ID, id, `{"Name":"Ann","Course":"Art","_gotcha":""}`, "192.0.2.1:1")
	expect(t, ok, http.StatusCreated)
	if ok.calls != 4 {
		t.Errorf("%d DynamoDB calls, want 4 (tenant, rate limit, form, transaction)", ok.calls)
	}
	if res := ok.body["result"].(map[string]any); len(res) != 2 || res["id"] == nil || res["createdAt"] == nil {
		t.Errorf("answer %s", ok.raw)
	}
	if n, dash := formCounts(t, tn, id); n != 1 || dash != 1 {
		t.Fatalf("%d submissions, dashboard %v; want 1 and 1", n, dash)
	}

	for name, c := range map[string]struct {
		tenant, form, body string
		status             int
		field              string
	}{
		"required missing": {tn.ID, id, `{"Course":"Art"}`, http.StatusBadRequest, "Name"},
		"not an option":    {tn.ID, id, `{"Name":"Bo","Course":"Law"}`, http.StatusBadRequest, "Course"},
		"unknown field":    {tn.ID, id, `{"Name":"Bo","Age":"9"}`, http.StatusBadRequest, "Age"},
		"not an object":    {tn.ID, id, `[1]`, http.StatusBadRequest, ""},
		"inactive form":    {tn.ID, closed, `{"Name":"Bo"}`, http.StatusNotFound, ""},
		"other tenant":     {other.ID, id, `{"Name":"Bo"}`, http.StatusNotFound, ""},
		"unknown form":     {tn.ID, "01ARZ3NDEKTSV4RRFFQ69G5FAV", `{"Name":"Bo"}`, http.StatusNotFound, ""},
		"unknown tenant":   {"no-such-tenant", id, `{"Name":"Bo"}`, http.StatusNotFound, ""},
	} {
		r := send(c.tenant, c.form, c.body, "192.0.2.2:"+strconv.Itoa(len(name)))
		if r.status != c.status || r.body["message"] == "" {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
			continue
		}
		if c.field != "" {
			if errs, _ := r.body["errors"].(map[string]any); errs[c.field] == nil {
				t.Errorf("%s: no error on %q: %s", name, c.field, r.raw)
			}
		}
	}
	if r := send(tn.ID, id, `{"Course":"Art"}`, "192.0.2.3:1"); r.body["errors"].(map[string]any)["Name"] != "Name is required!" {
		t.Errorf("required message: %s", r.raw)
	}
	if n, dash := formCounts(t, tn, id); n != 1 || dash != 1 {
		t.Fatalf("bad submissions stored: %d submissions, dashboard %v", n, dash)
	}
	masters := testkit.Call(t, testkit.Request{Method: "GET", Path: "/misc/masters", Tenant: other.ID, Token: other.AdminToken})
	if n := masters.Get("result.dashboardStats.customFormSubmissionCount"); n != float64(0) {
		t.Fatalf("other tenant's dashboard counts %v", n)
	}
}

// TestPublicFormHoneypotAndRateLimit: a filled _gotcha answers like a success and stores nothing;
// the sixth submission of one client to one form in the window is a 429 with Retry-After, while
// the same client may still submit another form and another client the same form.
func TestPublicFormHoneypotAndRateLimit(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, second := newForm(t, tn, true), newForm(t, tn, true)
	send := func(form, body, client string) resp {
		return public(t, req{method: "POST", path: "/forms/" + form + "/submissions", tenant: tn.ID, client: client, body: body})
	}
	bot := send(id, `{"Name":"Bot","_gotcha":"http://spam.example"}`, "203.0.113.1:1")
	real := send(id, `{"Name":"Ann"}`, "203.0.113.2:1")
	expect(t, bot, http.StatusCreated)
	expect(t, real, http.StatusCreated)
	if bot.body["message"] != real.body["message"] || len(bot.body["result"].(map[string]any)) != len(real.body["result"].(map[string]any)) {
		t.Errorf("a trapped answer differs: %s vs %s", bot.raw, real.raw)
	}
	if n, dash := formCounts(t, tn, id); n != 1 || dash != 1 {
		t.Fatalf("honeypot stored: %d submissions, dashboard %v", n, dash)
	}

	const client = "198.51.100.7:4000"
	for i := 0; i < 5; i++ {
		expect(t, send(id, fmt.Sprintf(`{"Name":"P%d"}`, i), client), http.StatusCreated)
	}
	over := send(id, `{"Name":"P9"}`, client)
	expect(t, over, http.StatusTooManyRequests)
	if s, err := strconv.Atoi(over.header.Get("Retry-After")); err != nil || s < 1 || s > 601 {
		t.Fatalf("Retry-After %q", over.header.Get("Retry-After"))
	}
	expect(t, send(second, `{"Name":"P9"}`, client), http.StatusCreated)
	expect(t, send(id, `{"Name":"Q"}`, "198.51.100.8:4000"), http.StatusCreated)
	if n, _ := formCounts(t, tn, id); n != 7 {
		t.Fatalf("%d submissions, want 7", n)
	}
}
