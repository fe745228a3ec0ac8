package pages_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// sectionReads counts the Queries of page id's sections among the tenant's DynamoDB calls since
// call from, and how many of them were strongly consistent.
func sectionReads(t *testing.T, tenant, id string, from int) (reads, consistent int) {
	t.Helper()
	for i, c := range testkit.Faults(t).Calls(tenant) {
		if i >= from && c.Service == "dynamodb" && c.Op == "Query" && strings.Contains(c.Body, "#PAGE#"+id+`"`) {
			reads++
			if strings.Contains(c.Body, `"ConsistentRead":true`) {
				consistent++
			}
		}
	}
	return reads, consistent
}

// TestAPageWriteReadsItsSectionsOnce: each write of a page reads its sections at most once (its
// hooks, the version it keeps, the check that its own state can be kept and its answer share the
// one read; a save through /page-sections reuses the read it renumbered from), strongly
// consistent, since the panel writes what it read; a create reads none. A page save used to read
// them three times, a section route four.
func TestAPageWriteReadsItsSectionsOnce(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	section := func(title string) map[string]any {
		return map[string]any{"title": title, "pageSectionTypeId": types["banner"], "config": items(1, nil)}
	}
	var id, added string
	var saved testkit.Response
	steps := []struct {
		name  string
		reads int
		do    func() testkit.Response
	}{
		{"create with sections", 0, func() testkit.Response {
			res := as(t, tn, "POST", "/pages", map[string]any{"title": "Reads", "pageSections": []any{section("One"), section("Two")}})
			id, _ = res.Get("result.id").(string)
			return res
		}},
		{"save with sections", 1, func() testkit.Response {
			saved = as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": []any{section("Three"), section("Four"), section("Five")}})
			return saved
		}},
		{"save without sections", 1, func() testkit.Response {
			return as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 2, "description": "d"})
		}},
		{"restore", 1, func() testkit.Response {
			return as(t, tn, "POST", "/pages/"+id+"/versions/1/restore", map[string]any{"version": 3})
		}},
		{"add a section (/page-sections)", 1, func() testkit.Response {
			res := as(t, tn, "POST", "/page-sections", map[string]any{"pageId": id, "title": "Six", "pageSectionTypeId": types["banner"]})
			added, _ = res.Get("result.id").(string)
			return res
		}},
		{"move a section (/page-sections)", 1, func() testkit.Response {
			return as(t, tn, "PATCH", "/page-sections/"+added, map[string]any{"position": 1, "title": "Moved"})
		}},
		{"delete a section (/page-sections)", 1, func() testkit.Response {
			return as(t, tn, "DELETE", "/page-sections/"+added, nil)
		}},
		{"delete the page", 1, func() testkit.Response { return as(t, tn, "DELETE", "/pages/"+id, nil) }},
	}
	for _, s := range steps {
		from := len(testkit.Faults(t).Calls(tn.ID))
		res := s.do()
		if res.Status/100 != 2 {
			t.Fatalf("%s: %d %s", s.name, res.Status, res.Raw)
		}
		reads, consistent := sectionReads(t, tn.ID, id, from)
		if reads != s.reads || consistent != reads {
			t.Errorf("%s: %d reads of the sections (%d strongly consistent), want %d", s.name, reads, consistent, s.reads)
		}
		if s.name == "save without sections" {
			// The save before answered the sections as it stored them, without reading them back:
			// as the version this save kept holds them.
			stored := sectionsOf(t, as(t, tn, "GET", "/pages/"+id+"/versions/2", nil))
			if got, want := brief(sectionsOf(t, saved)), brief(stored); got != want || len(stored) != 3 {
				t.Fatalf("the save answered sections %s; it stored %s", got, want)
			}
		}
	}
	if res := as(t, tn, "GET", "/page-sections?page_id="+id, nil); res.Status != http.StatusNotFound {
		t.Fatalf("the deleted page's sections: %d", res.Status)
	}
}

// brief is what identifies sections as stored: ids, titles, positions, configs and times.
func brief(secs []map[string]any) string {
	var b strings.Builder
	for _, s := range secs {
		fmt.Fprintf(&b, "%v|%v|%v|%v|%v|%v;", s["id"], s["title"], s["position"], s["config"], s["createdAt"], s["updatedAt"])
	}
	return b.String()
}
