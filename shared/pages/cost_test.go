package pages_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/testkit"
)

// txItems reads the transaction items of the tenant's TransactWriteItems calls since call n of
// the fault recorder: for each, how many items it has, how many of them are what history adds
// (a kept version or trash entry, an audit entry) and how many the word index.
func txItems(t *testing.T, tenant string, from int) (calls, items, history, index []int) {
	t.Helper()
	for i, c := range testkit.Faults(t).Calls(tenant) {
		if i < from || c.Service != "dynamodb" || c.Op != "TransactWriteItems" {
			continue
		}
		var body struct {
			TransactItems []map[string]struct {
				Key  map[string]map[string]string
				Item map[string]map[string]any
			}
		}
		if err := json.Unmarshal([]byte(c.Body), &body); err != nil {
			t.Fatal(err)
		}
		added, words := 0, 0
		for _, it := range body.TransactItems {
			for _, op := range it {
				pk := op.Key["PK"]["S"]
				if pk == "" {
					pk, _ = op.Item["PK"]["S"].(string)
				}
				if strings.Contains(pk, "#HIST#") || strings.Contains(pk, "#AUDIT") {
					added++
				}
				if strings.HasSuffix(pk, "#WORDS") {
					words++
				}
			}
		}
		calls, items = append(calls, i), append(items, len(body.TransactItems))
		history, index = append(history, added), append(index, words)
	}
	return calls, items, history, index
}

// TestWriteCost prints what each kind of write costs in transaction items, before history (the
// write itself: record, sections, markers, counters, word index) and after (plus its kept version
// and audit entry), up to nearly the largest write (a page with MaxSections sections, all replaced, and a
// title of 7 indexed words replaced by 7 others, and its publication dates set; with its slug
// moved too it is the largest, which TestTheLargestWriteFits measures), and holds the rules: at
// most two items added by history, never past DynamoDB's 100. Run with -v to see the table.
func TestWriteCost(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	sections := func(tag string, n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"title": fmt.Sprintf("%s %d", tag, i), "pageSectionTypeId": types["banner"], "config": items(1, nil)}
		}
		return out
	}
	var pageID string
	var trashPath string
	steps := []struct {
		name string
		do   func() testkit.Response
	}{
		{"create a page with 38 sections", func() testkit.Response {
			res := as(t, tn, "POST", "/pages", map[string]any{"title": "one two three four five six seven eight", "pageSections": sections("A", pages.MaxSections)})
			pageID, _ = res.Get("result.id").(string)
			return res
		}},
		{"replace all 38 sections, the title and the dates", func() testkit.Response {
			return as(t, tn, "PATCH", "/pages/"+pageID, map[string]any{"title": "alpha beta gamma delta epsilon zeta eta theta", "pageSections": sections("B", pages.MaxSections), "version": 1,
				"publishAt": "2099-01-01T00:00:00Z"})
		}},
		{"edit one field", func() testkit.Response {
			return as(t, tn, "PATCH", "/pages/"+pageID, map[string]any{"description": "d", "version": 2})
		}},
		{"restore version 1 (38 sections back)", func() testkit.Response {
			return as(t, tn, "POST", "/pages/"+pageID+"/versions/1/restore", map[string]any{"version": 3})
		}},
		{"delete it (to the trash)", func() testkit.Response {
			res := as(t, tn, "DELETE", "/pages/"+pageID, nil)
			trashPath = fmt.Sprintf("/trash/pages/%s/4", pageID)
			return res
		}},
		{"restore it from the trash", func() testkit.Response { return as(t, tn, "POST", trashPath+"/restore", nil) }},
	}
	t.Logf("%-52s %8s %8s %8s %8s", "write", "before", "after", "added", "words")
	for _, s := range steps {
		from := len(testkit.Faults(t).Calls(tn.ID))
		res := s.do()
		if res.Status/100 != 2 {
			t.Fatalf("%s: %d %s", s.name, res.Status, res.Raw)
		}
		calls, n, added, index := txItems(t, tn.ID, from)
		if len(calls) != 1 {
			t.Fatalf("%s: %d transactions", s.name, len(calls))
		}
		t.Logf("%-52s %8d %8d %8d %8d", s.name, n[0]-added[0], n[0], added[0], index[0])
		if added[0] > 2 || n[0] > 100 {
			t.Fatalf("%s: %d items, %d added by history", s.name, n[0], added[0])
		}
	}
}
