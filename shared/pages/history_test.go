package pages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestPageVersionsKeepTheirSections: a page's version keeps its sections as they were, whether
// they changed with the page or through /page-sections; a restore brings back the page's fields and its sections, one deleted since included (under
// its own id), and lists the section change among what a write changed.
func TestPageVersionsKeepTheirSections(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	id, _ := newPage(t, tn, "Restorable")
	two := []map[string]any{
		{"title": "Banner one", "pageSectionTypeId": types["banner"], "config": items(1, nil)},
		{"title": "Banner two", "pageSectionTypeId": types["banner"], "config": items(1, nil)},
	}
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"description": "Two banners", "pageSections": two, "version": 1}), 200)
	saved := sectionsOf(t, as(t, tn, "GET", "/pages/"+id, nil))
	first, second := saved[0]["id"].(string), saved[1]["id"].(string)

	// Version 2 → 3: one more section, a changed description.
	three := []map[string]any{
		{"id": first, "title": "Banner one", "pageSectionTypeId": types["banner"], "config": items(1, nil)},
		{"id": second, "title": "Banner two", "pageSectionTypeId": types["banner"], "config": items(1, nil)},
		{"title": "Cards", "pageSectionTypeId": types["card-row"], "config": items(2, nil)},
	}
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"description": "Three sections", "pageSections": three, "version": 2}), 200)
	// Version 3 → 4: a section deleted through its own route.
	mustStatus(t, as(t, tn, "DELETE", "/page-sections/"+second, nil), 200)

	list := as(t, tn, "GET", "/pages/"+id+"/versions", nil)
	// The section route is an adapter over the page's update: its write keeps a version too.
	if list.Get("result.0.version") != float64(3) || fmt.Sprint(list.Get("result.0.changed")) != "[pageSections]" {
		t.Fatalf("the section delete's version: %s", list.Raw)
	}
	if fmt.Sprint(list.Get("result.1.changed")) != "[description pageSections]" {
		t.Fatalf("what version 2's replacement changed: %s", list.Raw)
	}
	v2 := as(t, tn, "GET", "/pages/"+id+"/versions/2", nil)
	if v2.Get("result.description") != "Two banners" || len(v2.Body["result"].(map[string]any)["pageSections"].([]any)) != 2 {
		t.Fatalf("version 2: %s", v2.Raw)
	}
	restored := as(t, tn, "POST", "/pages/"+id+"/versions/2/restore", map[string]any{"version": version(t, tn, id)})
	mustStatus(t, restored, 200)
	secs := sectionsOf(t, as(t, tn, "GET", "/pages/"+id, nil))
	var titles []string
	for _, s := range secs {
		titles = append(titles, s["title"].(string))
	}
	if restored.Get("result.description") != "Two banners" || strings.Join(titles, ",") != "Banner one,Banner two" ||
		secs[0]["id"] != first || secs[1]["id"] != second {
		t.Fatalf("after restoring version 2: %s; sections %v", restored.Raw, secs)
	}
}

// TestRestoringATakenSlug: a version whose slug another page took since restores everything else;
// the page keeps the slug it has and the answer says so. A free one comes back as kept.
func TestRestoringATakenSlug(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, _ := newPage(t, tn, "Admissions")
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"slug": "apply", "description": "Renamed", "version": 1}), 200)
	newPage(t, tn, "Admissions") // takes "admissions" meanwhile
	res := as(t, tn, "POST", "/pages/"+id+"/versions/1/restore", map[string]any{"version": 2})
	mustStatus(t, res, 200)
	if res.Get("result.slug") != "apply" || res.Get("result.description") != "About Admissions" ||
		!strings.Contains(res.Message(), `"admissions" was taken meanwhile, so it is now "apply"`) {
		t.Fatalf("restore: %s", res.Raw)
	}
	// Version 2's slug is free: it comes back as kept, and the marker follows it.
	mustStatus(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"slug": "apply-now", "version": 3}), 200)
	res = as(t, tn, "POST", "/pages/"+id+"/versions/3/restore", map[string]any{"version": 4})
	mustStatus(t, res, 200)
	if res.Get("result.slug") != "apply" || strings.Contains(res.Message(), "taken") {
		t.Fatalf("restore of a free slug: %s", res.Raw)
	}
	mustStatus(t, as(t, tn, "POST", "/pages", map[string]any{"title": "X", "slug": "apply-now"}), 201)
}
