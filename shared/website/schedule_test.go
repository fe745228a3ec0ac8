package website_test

import (
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

// TestScheduledPage: the website hides a page before its publishAt and shows it once the time
// has passed, by the clock at read time, with no job run.
func TestScheduledPage(t *testing.T) {
	tn := testkit.NewTenant(t)
	at := time.Now().UTC().Add(3 * time.Second).Truncate(time.Second)
	_, slug := newPage(t, tn, "Open day", map[string]any{"publishAt": at.Format(time.RFC3339)})
	_, gone := newPage(t, tn, "Last year", map[string]any{"unpublishAt": "2020-01-01T00:00:00Z"})
	if time.Now().Before(at) {
		must(t, get(t, tn, "/"+slug), 404)
	}
	must(t, get(t, tn, "/"+gone), 404)
	time.Sleep(time.Until(at))
	must(t, get(t, tn, "/"+slug), 200, "Open day")
}
