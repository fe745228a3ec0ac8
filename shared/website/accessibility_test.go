package website_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/themes"
)

// TestImagesTakeTheirLibraryAltText: an image shown by a page section takes its media record's
// alt text; a decorative one is written alt="" even with alt text; a photo's own caption wins
// over the library's text.
func TestImagesTakeTheirLibraryAltText(t *testing.T) {
	tn := testkit.NewTenant(t)
	id, ref := testkit.LibraryJPEG(t, tn.ID, "lawn.jpg", testkit.SmallJPEG(t))
	staff(t, tn, "PATCH", "/media/"+id, map[string]any{"altText": "Students on the lawn"})
	res := staff(t, tn, "POST", "/pages", map[string]any{"title": "Campus", "slug": "campus", "isPublished": true, "pageSections": []map[string]any{
		{"pageSectionTypeId": "2", "title": "Cards", "config": `[{"id":"i1","title":"Card","image":"` + ref + `"}]`}}})
	if res.Get("result.id") == nil {
		t.Fatalf("page: %s", res.Raw)
	}
	must(t, get(t, tn, "/campus"), 200, `alt="Students on the lawn"`)

	staff(t, tn, "PATCH", "/media/"+id, map[string]any{"decorative": true})
	p := get(t, tn, "/campus")
	must(t, p, 200, `alt=""`)
	if strings.Contains(p.body, "Students on the lawn") {
		t.Fatal("a decorative image kept its alt text")
	}

	staff(t, tn, "PATCH", "/media/"+id, map[string]any{"decorative": false})
	album := staff(t, tn, "POST", "/albums", map[string]any{"title": "Open day", "status": true}).Get("result.id").(string)
	staff(t, tn, "POST", "/photos", map[string]any{"albumId": album, "image": ref, "caption": "The new library", "status": true})
	must(t, get(t, tn, "/albums/"+album), 200, `alt="Open day: The new library"`)
}

// TestAccessibilityStatement: every theme's footer links the statement; the statement shows the
// site settings' contact, exceptions and review date; its feedback form refuses an empty
// message with the error beside the field, drops a filled honeypot, and takes a message as a
// panel notification.
func TestAccessibilityStatement(t *testing.T) {
	tn := testkit.NewTenant(t)
	inEveryTheme(t, tn, func(th themes.Theme) {
		must(t, get(t, tn, "/"), 200, `<a href="/accessibility">Accessibility</a>`)
	})
	p := get(t, tn, "/accessibility")
	must(t, p, 200, "<h1>Accessibility statement</h1>", "We know of no part of it that does not", `action="/accessibility"`, "Enforcement procedure")

	staff(t, tn, "PATCH", "/site-settings", map[string]any{"accessibilityContact": "access@example.edu", "accessibilityExceptions": "Some older PDF forms are not tagged.",
		"accessibilityReviewedAt": "2026-11-02"})
	must(t, get(t, tn, "/accessibility"), 200, `<a href="mailto:access@example.edu">access@example.edu</a>`, "partially compliant",
		"Some older PDF forms are not tagged.", "last reviewed on 2 November 2026")

	host := tn.ID + ".localhost:8080"
	p = visit(t, "POST", host, "/accessibility", url.Values{"message": {"  "}, "email": {"nope"}})
	must(t, p, http.StatusBadRequest, "Please tell us about the problem.", `aria-invalid="true"`)

	p = visit(t, "POST", host, "/accessibility", url.Values{"message": {"spam"}, "_gotcha": {"x"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("honeypot: %d", p.status)
	}
	p = visit(t, "POST", host, "/accessibility", url.Values{"message": {"The campus map has no text version."}, "page": {"/visit"}, "email": {"visitor@example.org"}})
	if p.status != http.StatusSeeOther || p.header.Get("Location") != "/accessibility?sent=1#feedback" {
		t.Fatalf("feedback: %d %s", p.status, p.header.Get("Location"))
	}
	must(t, get(t, tn, "/accessibility?sent=1"), 200, "Your feedback has reached us")
	res := staff(t, tn, "GET", "/notifications", nil)
	list, _ := res.Get("result").([]any)
	if len(list) != 1 {
		t.Fatalf("notifications %s: want the one feedback (the honeypot's dropped)", res.Raw)
	}
	n := list[0].(map[string]any)
	if n["title"] != public.FeedbackTitle || n["message"] != "The campus map has no text version." {
		t.Fatalf("notification %v", n)
	}
	// Another tenant's site knows nothing of it.
	other := testkit.NewTenant(t)
	if res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/notifications", Tenant: other.ID, Token: other.AdminToken}); res.Get("totalCount") != float64(0) {
		t.Fatalf("another tenant: %s", res.Raw)
	}
}
