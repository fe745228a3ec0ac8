package drafts_test

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestDraftPreview: a preview of the draft shows the draft's text and sections as the site would,
// while the page and a preview of the page keep the live version; a new page's draft previews
// too; a page without a draft has no draft preview.
func TestDraftPreview(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, slug := livePage(t, tn, "Campus", "<p>Live campus text</p>")
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/preview", map[string]any{"draft": true}), 404)
	must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"content": "<p>Draft campus text</p>",
		"pageSections": []map[string]any{{"pageSectionTypeId": "4", "title": "Draft-only section", "config": `[{"id":"i1","title":"Draft item"}]`}}}), 200)
	draft := must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/preview", map[string]any{"draft": true}), 201).Get("result.path").(string)
	live := must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/preview", nil), 201).Get("result.path").(string)
	if code, body := visit(t, tn, draft); code != 200 || !contains(body, "Draft campus text") || !contains(body, "Draft-only section") || contains(body, "Live campus text") {
		t.Fatalf("draft preview: %d %.3000s", code, body)
	}
	if code, body := visit(t, tn, live); code != 200 || !contains(body, "Live campus text") || contains(body, "Draft campus text") {
		t.Fatalf("page preview: %d", code)
	}
	if _, body := visit(t, tn, "/"+slug); !contains(body, "Live campus text") || contains(body, "Draft-only section") {
		t.Fatal("the site shows the draft")
	}
	n := must(t, as(t, tn, tn.AdminToken, "POST", "/pages/draft", map[string]any{"title": "Brand new", "content": "<p>Not yet published</p>"}), 201).Get("result.id").(string)
	p := must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+n+"/preview", map[string]any{"draft": true}), 201).Get("result.path").(string)
	if code, body := visit(t, tn, p); code != 200 || !contains(body, "Not yet published") {
		t.Fatalf("new page's draft preview: %d %.2000s", code, body)
	}
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+n+"/preview", nil), 404)
}
