package media_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/testkit"
)

// TestAFileInUseIsDeletedOnlyWhenForced: deleting a file that a record (a slider's image), a
// page (a section's item, rich text) or a settings singleton (the header's logo) shows answers
// 409 naming where, and stays in the library; ?force=1 deletes it anyway. An unused file is
// deleted at once.
func TestAFileInUseIsDeletedOnlyWhenForced(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	do := func(method, path string, body any) testkit.Response {
		t.Helper()
		return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	add := func(name string) (string, string) {
		t.Helper()
		_, res := upload(t, tn, name, "image/png", pngBytes(t))
		expect(t, res, 201, "")
		return res.Get("result.id").(string), res.Get("result.fileUrl").(string)
	}
	slide, slideRef := add("slide.png")
	expect(t, do("POST", "/sliders", map[string]any{"title": "Welcome", "image": slideRef}), 201, "")
	banner, bannerRef := add("banner.png")
	page := do("POST", "/pages", map[string]any{"title": "Open Day"})
	expect(t, page, 201, "")
	expect(t, do("PATCH", "/pages/"+page.Get("result.id").(string), map[string]any{"pageSections": []map[string]any{
		{"pageSectionTypeId": "3", "title": "Banner", "config": `[{"id":"i1","title":"B","image":"` + bannerRef + `"}]`}}}), 200, "")
	inline, inlineRef := add("inline.png")
	expect(t, do("POST", "/pages", map[string]any{"title": "Fair",
		"content": "<p>See <img src=\"/media/" + tn.ID + "/" + inlineRef + "\" alt=\"x\"></p>"}), 201, "")
	logo, logoRef := add("logo.png")
	expect(t, do("PATCH", "/header", map[string]any{"logoUrl": logoRef}), 200, "")
	unused, _ := add("unused.png")

	for _, c := range []struct{ id, where string }{{slide, "Welcome (sliders)"}, {banner, "Open Day (pages)"}, {logo, "(header)"}} {
		res := do("DELETE", "/media/"+c.id, nil)
		expect(t, res, 409, "")
		if msg := fmt.Sprint(res.Body["message"]); !strings.HasPrefix(msg, media.MsgInUse) || !strings.Contains(msg, c.where) || res.Body["force"] != "force=1" {
			t.Fatalf("%s: %s", c.where, res.Raw)
		}
		if uses, _ := res.Body["usedBy"].([]any); len(uses) != 1 {
			t.Fatalf("%s: usedBy %s", c.where, res.Raw)
		}
	}
	if got := do("DELETE", "/media/"+inline, nil); got.Status != 409 || !strings.Contains(string(got.Raw), "Fair") {
		t.Fatalf("a file in rich text: %d %s", got.Status, got.Raw)
	}
	if n := do("GET", "/media", nil).Get("totalCount"); n != float64(5) {
		t.Fatalf("refused deletes removed files: %v", n)
	}
	expect(t, do("DELETE", "/media/"+slide+"?force=1", nil), 200, "")
	expect(t, do("DELETE", "/media/"+unused, nil), 200, "")
	if n := do("GET", "/media", nil).Get("totalCount"); n != float64(3) {
		t.Fatalf("after forced and unused deletes: %v", n)
	}
}
