package demo_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// The demo is content to copy: its accessibility report starts at zero (every image has alt text
// or is marked decorative, every page's text passes the checker).
func TestDemoHasNoAccessibilityFindings(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	seed(t, tn.ID)
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/accessibility-report?limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusOK, "")
	if n, _ := res.Get("findingsCount").(float64); n != 0 {
		var found []string
		items, _ := res.Get("result").([]any)
		for _, it := range items {
			rec := it.(map[string]any)
			for _, f := range rec["findings"].([]any) {
				f := f.(map[string]any)
				found = append(found, fmt.Sprintf("%s %v %s: %s (%s)", rec["kind"], rec["title"], f["field"], f["rule"], f["message"]))
			}
		}
		t.Fatalf("%v findings in the demo:\n%v", n, found)
	}
}
