package media_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/testkit"
)

// TestMediaDetails: PATCH /media/{id} sets an image's alt text, caption and decorative switch
// (the list shows them, the audit log records the change), refuses bad input with nothing
// written, and another tenant cannot reach the record.
func TestMediaDetails(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, _ := testkit.LibraryJPEG(t, tn.ID, "lawn.jpg", testkit.SmallJPEG(t))
	patch := func(tenant, token string, body any) testkit.Response {
		return testkit.Call(t, call{Method: "PATCH", Path: "/media/" + id, Tenant: tenant, Token: token, Body: body})
	}
	res := patch(tn.ID, tn.AdminToken, map[string]any{"altText": "  Students on the lawn ", "caption": "Open day"})
	expect(t, res, http.StatusOK, media.MsgDetailsSaved)
	if res.Get("result.altText") != "Students on the lawn" || res.Get("result.decorative") != false {
		t.Fatalf("answer %s", res.Raw)
	}
	res = patch(tn.ID, tn.AdminToken, map[string]any{"decorative": true})
	expect(t, res, http.StatusOK, media.MsgDetailsSaved)
	list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("result.0.altText") != "Students on the lawn" || list.Get("result.0.caption") != "Open day" || list.Get("result.0.decorative") != true {
		t.Fatalf("list %s", list.Raw)
	}
	audit := testkit.Call(t, call{Method: "GET", Path: "/audit-log", Tenant: tn.ID, Token: tn.AdminToken})
	if !strings.Contains(string(audit.Raw), "decorative") {
		t.Fatalf("the audit log does not record the change: %s", audit.Raw)
	}
	for _, tc := range []struct {
		name   string
		body   any
		status int
	}{
		{"alt text too long", map[string]any{"altText": strings.Repeat("x", 1001)}, http.StatusBadRequest},
		{"decorative not a boolean", map[string]any{"decorative": "maybe"}, http.StatusBadRequest},
		{"unknown field", map[string]any{"fileUrl": "x"}, http.StatusBadRequest},
	} {
		if res := patch(tn.ID, tn.AdminToken, tc.body); res.Status != tc.status {
			t.Fatalf("%s: %d, want %d", tc.name, res.Status, tc.status)
		}
	}
	other := testkit.NewTenant(t)
	if res := patch(other.ID, other.AdminToken, map[string]any{"altText": "x"}); res.Status != http.StatusNotFound {
		t.Fatalf("another tenant: %d", res.Status)
	}
	if res := patch(tn.ID, other.AdminToken, map[string]any{"altText": "x"}); res.Status != http.StatusUnauthorized {
		t.Fatalf("another tenant's token: %d", res.Status)
	}
	// Like uploading, describing an image is open to every signed-in member of staff, and to nobody else.
	if res := patch(tn.ID, "", map[string]any{"altText": "x"}); res.Status != http.StatusUnauthorized {
		t.Fatalf("no token: %d", res.Status)
	}
	staff := testkit.NewUser(t, tn)
	expect(t, patch(tn.ID, staff, map[string]any{"altText": "Students on the lawn"}), http.StatusOK, media.MsgDetailsSaved)
	if res := testkit.Call(t, call{Method: "PATCH", Path: "/media/01HZZZZZZZZZZZZZZZZZZZZZZZ", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"altText": "x"}}); res.Status != http.StatusNotFound {
		t.Fatalf("missing record: %d", res.Status)
	}
	list = testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("result.0.altText") != "Students on the lawn" {
		t.Fatalf("a refused patch changed the record: %s", list.Raw)
	}
}
