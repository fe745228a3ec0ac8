package pages_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/testkit"
)

// typeIDs maps each section type's slug to its id, as GET /page-section-types lists them.
func typeIDs(t *testing.T, tn testkit.Tenant) map[string]string {
	t.Helper()
	res := as(t, tn, "GET", "/page-section-types", nil)
	mustStatus(t, res, 200)
	out := map[string]string{}
	multi := map[string]bool{}
	for _, v := range res.Body["result"].([]any) {
		m := v.(map[string]any)
		out[m["slug"].(string)] = m["id"].(string)
		multi[m["slug"].(string)] = m["configContainsMultipleItems"].(bool)
	}
	want := map[string]bool{"slider": true, "card-row": true, "banner": false, "text-image": false, "embed": false, "form": false}
	if !reflect.DeepEqual(multi, want) {
		t.Fatalf("section types %v", multi)
	}
	return out
}

func newForm(t *testing.T, tn testkit.Tenant) string {
	t.Helper()
	res := as(t, tn, "POST", "/custom-forms", map[string]any{"name": "Enquiry", "image": mediaRef, "fields": "[]"})
	mustStatus(t, res, 201)
	return res.Get("result.id").(string)
}

// items is a section config of n items as JSON text.
func items(n int, extra map[string]any) string {
	var list []map[string]any
	for i := range n {
		it := map[string]any{"id": "item-" + string(rune('a'+i)), "image": "/media/IGNORED", "title": "Item " + string(rune('A'+i)),
			"subTitle": "Sub", "description": "Text", "ctaText": "More", "ctaUrl": "https://example.org/x", "position": 9 - i}
		delete(it, "image")
		for k, v := range extra {
			it[k] = v
		}
		list = append(list, it)
	}
	raw, _ := json.Marshal(list)
	return string(raw)
}

// sixSections is one section of each type.
func sixSections(types map[string]string, formID string) []map[string]any {
	return []map[string]any{
		{"title": "Hero", "pageSectionTypeId": types["slider"], "backgroundColor": "#fff", "fontColor": "#112233", "config": items(3, map[string]any{"image": mediaRef})},
		{"title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(2, nil)},
		{"title": "Banner", "pageSectionTypeId": types["banner"], "config": items(1, nil)},
		{"title": "Story", "pageSectionTypeId": types["text-image"], "config": items(1, map[string]any{"textPosition": "RIGHT"})},
		{"title": "Map", "pageSectionTypeId": types["embed"], "config": items(1, map[string]any{"embedUrl": "https://www.google.com/maps/embed?pb=1"})},
		{"title": "Contact", "pageSectionTypeId": types["form"], "config": items(1, map[string]any{"formId": formID})},
	}
}

func sectionsOf(t *testing.T, res testkit.Response) []map[string]any {
	t.Helper()
	raw, ok := res.Get("result.pageSections").([]any)
	if !ok {
		t.Fatalf("no pageSections: %s", res.Raw)
	}
	out := make([]map[string]any, len(raw))
	for i, v := range raw {
		out[i] = v.(map[string]any)
	}
	return out
}

func TestPageSaveWithSections(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	formID := newForm(t, tn)
	id, _ := newPage(t, tn, "Home")
	path := "/pages/" + id

	res := as(t, tn, "PATCH", path, map[string]any{"version": 1, "content": "<p><strong>Welcome</strong></p>",
		"pageSections": sixSections(types, formID)})
	mustStatus(t, res, 200)
	saved := sectionsOf(t, res)
	if len(saved) != 6 {
		t.Fatalf("%d sections", len(saved))
	}
	for i, s := range saved {
		if s["position"] != float64(i+1) || s["status"] != true || s["pageId"] != id || s["id"] == "" {
			t.Fatalf("section %d: %v", i, s)
		}
	}
	if saved[0]["pageSectionType"].(map[string]any)["slug"] != "slider" || saved[5]["pageSectionType"].(map[string]any)["slug"] != "form" {
		t.Fatalf("types %v", saved)
	}
	var slides []map[string]any
	_ = json.Unmarshal([]byte(saved[0]["config"].(string)), &slides)
	if len(slides) != 3 || slides[0]["position"] != float64(1) || slides[2]["position"] != float64(3) || slides[0]["image"] != mediaRef || slides[0]["id"] != "item-a" {
		t.Fatalf("slides %v", slides)
	}
	var story []map[string]any
	_ = json.Unmarshal([]byte(saved[3]["config"].(string)), &story)
	if story[0]["textPosition"] != "RIGHT" {
		t.Fatalf("text-image %v", story)
	}
	var embed []map[string]any
	_ = json.Unmarshal([]byte(saved[4]["config"].(string)), &embed)
	if embed[0]["embedType"] != "OTHER" {
		t.Fatalf("embed default type %v", embed)
	}

	// GET shows what the save answered.
	got := as(t, tn, "GET", path, nil)
	if !reflect.DeepEqual(sectionsOf(t, got), saved) {
		t.Fatalf("GET differs from save:\n%v\n%v", sectionsOf(t, got), saved)
	}
	if got := as(t, tn, "GET", "/page-sections?page_id="+id, nil); got.Get("totalCount") != float64(6) || got.Get("result.5.title") != "Contact" {
		t.Fatalf("list %s", got.Raw)
	}

	// Reorder, change one, drop two, add one: the stored list equals the request.
	v := got.Get("result.version").(float64)
	next := []map[string]any{saved[5], saved[0], saved[2], {"title": "", "pageSectionTypeId": types["banner"]}}
	next[1] = map[string]any{"id": saved[0]["id"], "title": "Hero 2", "pageSectionTypeId": types["slider"], "config": saved[0]["config"],
		"pageSectionType": saved[0]["pageSectionType"], "createdAt": saved[0]["createdAt"], "status": false}
	res = as(t, tn, "PATCH", path, map[string]any{"version": v, "pageSections": next})
	mustStatus(t, res, 200)
	after := sectionsOf(t, res)
	titles := []string{}
	for _, s := range after {
		titles = append(titles, s["title"].(string))
	}
	if strings.Join(titles, ",") != "Contact,Hero 2,Banner,Section" || after[1]["status"] != false || after[0]["id"] != saved[5]["id"] {
		t.Fatalf("after reorder: %v", titles)
	}
	for i, s := range after {
		if s["position"] != float64(i+1) {
			t.Fatalf("positions %v", after)
		}
	}

	// A stale version writes nothing.
	res = as(t, tn, "PATCH", path, map[string]any{"version": v, "title": "Stale", "pageSections": []any{}})
	mustStatus(t, res, 409)
	cur := as(t, tn, "GET", path, nil)
	if cur.Get("result.title") != "Home" || len(sectionsOf(t, cur)) != 4 {
		t.Fatalf("stale save wrote: %s", cur.Raw)
	}

	// An invalid section writes nothing either, page fields included.
	res = as(t, tn, "PATCH", path, map[string]any{"title": "Half", "pageSections": []map[string]any{{"title": "x"}}})
	mustStatus(t, res, 400)
	if res.Message() != "Please select section type" {
		t.Fatalf("message %q", res.Message())
	}
	if cur := as(t, tn, "GET", path, nil); cur.Get("result.title") != "Home" {
		t.Fatal("invalid save changed the page")
	}

	// A PATCH without pageSections leaves the sections alone; an empty list removes them.
	mustStatus(t, as(t, tn, "PATCH", path, map[string]any{"description": "d"}), 200)
	if n := len(sectionsOf(t, as(t, tn, "GET", path, nil))); n != 4 {
		t.Fatalf("%d sections after a plain save", n)
	}
	res = as(t, tn, "PATCH", path, map[string]any{"pageSections": []any{}})
	mustStatus(t, res, 200)
	if n := len(sectionsOf(t, res)); n != 0 {
		t.Fatalf("%d sections after emptying", n)
	}

	// Deleting the page deletes its sections; the dashboard follows.
	res = as(t, tn, "PATCH", path, map[string]any{"pageSections": sixSections(types, formID)[:2]})
	mustStatus(t, res, 200)
	sec := sectionsOf(t, res)[0]["id"].(string)
	before := as(t, tn, "GET", "/misc/masters", nil).Get("result.dashboardStats.pageCount").(float64)
	mustStatus(t, as(t, tn, "DELETE", path, nil), 200)
	if after := as(t, tn, "GET", "/misc/masters", nil).Get("result.dashboardStats.pageCount").(float64); after != before-1 {
		t.Fatalf("pageCount %v → %v", before, after)
	}
	mustStatus(t, as(t, tn, "PATCH", "/page-sections/"+sec, map[string]any{"title": "x"}), 404)
	mustStatus(t, as(t, tn, "GET", "/page-sections?page_id="+id, nil), 404)
}

func TestSectionConfigValidation(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	other := testkit.NewTenant(t)
	foreignForm := newForm(t, other)
	id, _ := newPage(t, tn, "Validation")
	one := func(typ, config string, extra map[string]any) map[string]any {
		s := map[string]any{"pageId": id, "pageSectionTypeId": types[typ], "config": config}
		for k, v := range extra {
			s[k] = v
		}
		return s
	}
	many := items(51, nil)
	cases := []struct {
		name, field string
		body        map[string]any
	}{
		{"no type", "pageSectionTypeId", map[string]any{"pageId": id, "title": "x"}},
		{"unknown type", "pageSectionTypeId", one("", "[]", map[string]any{"pageSectionTypeId": "99"})},
		{"bad background colour", "backgroundColor", one("banner", "[]", map[string]any{"backgroundColor": "red"})},
		{"bad font colour", "fontColor", one("banner", "[]", map[string]any{"fontColor": "#12345"})},
		{"config not json", "config", one("banner", "{not json", nil)},
		{"config an object", "config", one("banner", `{"a":1}`, nil)},
		{"unknown item field", "config", one("banner", `[{"title":"x","onclick":"alert(1)"}]`, nil)},
		{"two items in a banner", "config", one("banner", items(2, nil), nil)},
		{"two items in a form section", "config", one("form", items(2, nil), nil)},
		{"51 slides", "config", one("slider", many, nil)},
		{"javascript cta", "config[0].ctaUrl", one("card-row", `[{"ctaUrl":"javascript:alert(1)"}]`, nil)},
		{"data cta", "config[0].ctaUrl", one("card-row", `[{"ctaUrl":"data:text/html,<script>alert(1)</script>"}]`, nil)},
		{"foreign image", "config[0].image", one("slider", `[{"image":"/media/other-tenant/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png"}]`, nil)},
		{"image url elsewhere", "config[0].image", one("slider", `[{"image":"https://evil.example/a.png"}]`, nil)},
		{"text position", "config[0].textPosition", one("text-image", `[{"textPosition":"CENTER"}]`, nil)},
		{"embed over http", "config[0].embedUrl", one("embed", `[{"embedUrl":"http://example.org/v"}]`, nil)},
		{"embed javascript", "config[0].embedUrl", one("embed", `[{"embedUrl":"javascript:alert(1)"}]`, nil)},
		{"embed missing url", "config[0].embedUrl", one("embed", `[{"title":"x"}]`, nil)},
		{"embed type", "config[0].embedType", one("embed", `[{"embedUrl":"https://x.org","embedType":"FLASH"}]`, nil)},
		{"form missing", "config[0].formId", one("form", `[{"title":"x"}]`, nil)},
		{"form of another tenant", "config[0].formId", one("form", `[{"formId":"`+foreignForm+`"}]`, nil)},
		{"form id malformed", "config[0].formId", one("form", `[{"formId":"../x"}]`, nil)},
		{"item id", "config[0].id", one("slider", `[{"id":"a b"}]`, nil)},
		{"long title", "title", one("banner", "[]", map[string]any{"title": strings.Repeat("x", 201)})},
		{"bad status", "status", one("banner", "[]", map[string]any{"status": "maybe"})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := as(t, tn, "POST", "/page-sections", c.body)
			if res.Status != 400 || res.Message() == "" {
				t.Fatalf("status %d body %s", res.Status, res.Raw)
			}
			if c.field != "" {
				if _, ok := res.Get("errors").(map[string]any)[c.field]; !ok && c.field != "pageSectionTypeId" {
					t.Fatalf("no error for %s: %s", c.field, res.Raw)
				}
			}
			// The same section inside a page save: a 400 naming the section.
			body := map[string]any{}
			for k, v := range c.body {
				if k != "pageId" {
					body[k] = v
				}
			}
			res = as(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": []any{body}})
			if res.Status != 400 {
				t.Fatalf("in a page save: %d %s", res.Status, res.Raw)
			}
		})
	}
	if res := as(t, tn, "POST", "/page-sections", map[string]any{"pageId": id}); res.Message() != "Please select section type" {
		t.Fatalf("no type: %s", res.Raw)
	}
	if n := len(sectionsOf(t, as(t, tn, "GET", "/pages/"+id, nil))); n != 0 {
		t.Fatalf("invalid sections were written: %d", n)
	}
	// One more than MaxSections is refused.
	var list []map[string]any
	for range pages.MaxSections + 1 {
		list = append(list, map[string]any{"pageSectionTypeId": types["banner"]})
	}
	res := as(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": list})
	if res.Status != 400 || !strings.Contains(res.Message(), fmt.Sprintf("at most %d sections", pages.MaxSections)) {
		t.Fatalf("%d sections: %d %s", len(list), res.Status, res.Raw)
	}
	// MaxSections are fine, and replacing them all by as many new ones is one transaction too.
	res = as(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": list[:pages.MaxSections]})
	mustStatus(t, res, 200)
	res = as(t, tn, "PATCH", "/pages/"+id, map[string]any{"pageSections": list[:pages.MaxSections]})
	mustStatus(t, res, 200)
	if n := len(sectionsOf(t, res)); n != pages.MaxSections {
		t.Fatalf("%d sections", n)
	}
	res = as(t, tn, "POST", "/page-sections", map[string]any{"pageId": id, "pageSectionTypeId": types["banner"]})
	if res.Status != 400 || !strings.Contains(res.Message(), fmt.Sprintf("at most %d sections", pages.MaxSections)) {
		t.Fatalf("one more by POST: %d %s", res.Status, res.Raw)
	}
}

func TestSectionRoutesKeepPositionsDense(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	id, _ := newPage(t, tn, "Positions")
	add := func(title string, pos any) testkit.Response {
		b := map[string]any{"pageId": id, "pageSectionTypeId": types["banner"], "title": title, "config": `[{"title":"t"}]`}
		if pos != nil {
			b["position"] = pos
		}
		return as(t, tn, "POST", "/page-sections", b)
	}
	order := func() string {
		res := as(t, tn, "GET", "/page-sections?page_id="+id, nil)
		mustStatus(t, res, 200)
		var titles []string
		for i, v := range res.Body["result"].([]any) {
			m := v.(map[string]any)
			if m["position"] != float64(i+1) {
				t.Fatalf("positions not dense: %s", res.Raw)
			}
			titles = append(titles, m["title"].(string))
		}
		return strings.Join(titles, ",")
	}
	res := add("A", nil)
	mustStatus(t, res, 201)
	if res.Get("result.title") != "A" || res.Get("result.status") != true || res.Get("result.position") != float64(1) {
		t.Fatalf("created %s", res.Raw)
	}
	a := res.Get("result.id").(string)
	res = add("", nil)
	if res.Get("result.title") != "Section" {
		t.Fatalf("default title: %s", res.Raw)
	}
	b := res.Get("result.id").(string)
	mustStatus(t, add("C", 1), 201)
	mustStatus(t, add("D", "2"), 201)
	mustStatus(t, add("E", 99), 201)
	if got := order(); got != "C,D,A,Section,E" {
		t.Fatalf("after creates: %s", got)
	}
	mustStatus(t, as(t, tn, "PATCH", "/page-sections/"+b, map[string]any{"position": 1, "title": "B"}), 200)
	if got := order(); got != "B,C,D,A,E" {
		t.Fatalf("after move: %s", got)
	}
	mustStatus(t, as(t, tn, "PATCH", "/page-sections/"+b, map[string]any{"position": 5}), 200)
	if got := order(); got != "C,D,A,E,B" {
		t.Fatalf("after move to end: %s", got)
	}
	res = as(t, tn, "DELETE", "/page-sections/"+a, nil)
	mustStatus(t, res, 200)
	if res.Message() != "Page Section Item Deleted!" {
		t.Fatalf("delete message %q", res.Message())
	}
	if got := order(); got != "C,D,E,B" {
		t.Fatalf("after delete: %s", got)
	}
	mustStatus(t, as(t, tn, "DELETE", "/page-sections/"+a, nil), 404)
	// A type change re-checks the stored items against the new type.
	res = as(t, tn, "PATCH", "/page-sections/"+b, map[string]any{"pageSectionTypeId": types["embed"]})
	if errs, _ := res.Get("errors").(map[string]any); res.Status != 400 || errs["config[0].embedUrl"] == nil {
		t.Fatalf("type change: %d %s", res.Status, res.Raw)
	}
	// Section writes bump the page's version: a save holding the older list is refused.
	v := version(t, tn, id)
	mustStatus(t, as(t, tn, "PATCH", "/page-sections/"+b, map[string]any{"subTitle": "s"}), 200)
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": v, "pageSections": []any{}}), 409)
	if v2 := version(t, tn, id); v2 != v+1 {
		t.Fatalf("version %v → %v", v, v2)
	}
	mustStatus(t, as(t, tn, "GET", "/page-sections", nil), 400)
}

// TestSectionWritesMoveThePageInTheList: a section change is a change of its page, so the Pages
// list sorted by last update (the default) puts that page first, as a page save would.
func TestSectionWritesMoveThePageInTheList(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	older, _ := newPage(t, tn, "Older page")
	newer, _ := newPage(t, tn, "Newer page")
	first := func() any { return as(t, tn, "GET", "/pages?limit=5", nil).Get("result.0.id") }
	if first() != newer {
		t.Fatal("the newer page is not first to begin with")
	}
	res := as(t, tn, "POST", "/page-sections", map[string]any{"pageId": older, "pageSectionTypeId": types["banner"], "config": items(1, nil)})
	mustStatus(t, res, 201)
	if got := first(); got != older {
		t.Fatalf("after a section write the list starts with %v, want the page written (%s)", got, older)
	}
}
