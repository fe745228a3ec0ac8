package collections_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestSiteSettingsTimeZone: the site settings' time zone is an IANA name the server's time zone
// database knows (time.LoadLocation); anything else is a 400 naming the field, and nothing is
// written. Empty means the default, UTC.
func TestSiteSettingsTimeZone(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	as := func(method string, body any) testkit.Response {
		return testkit.Call(t, call{Method: method, Path: "/site-settings", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	first := as("GET", nil)
	testkit.Expect(t, first, http.StatusOK, "")
	if first.Get("result.timeZone") != "UTC" {
		t.Fatalf("default time zone %v, want UTC", first.Get("result.timeZone"))
	}
	for _, bad := range []string{"Mars/Olympus_Mons", "Local", "../../etc/passwd", "/usr/share/zoneinfo/UTC", "America/New_York/..",
		"Europe/London\x00", strings.Repeat("A/", 40) + "B", "EST5EDT,M3.2.0,M11.1.0", "+05:30", "America/New York"} {
		res := as("PATCH", map[string]any{"timeZone": bad})
		if res.Status != http.StatusBadRequest {
			t.Fatalf("%q: status %d, want 400: %s", bad, res.Status, res.Raw)
		}
		if msg, _ := res.Get("errors.timeZone").(string); msg == "" || (!strings.ContainsRune(bad, 0) && !strings.Contains(msg, "Time Zone")) {
			t.Fatalf("%q: errors.timeZone %q: %s", bad, msg, res.Raw)
		}
	}
	if now := as("GET", nil); now.Get("result.version") != first.Get("result.version") {
		t.Fatalf("a refused time zone was written: %s", now.Raw)
	}
	for _, good := range []string{"America/New_York", "Asia/Kolkata", "UTC", "Europe/London", "America/Argentina/Buenos_Aires", "Etc/GMT+5"} {
		res := as("PATCH", map[string]any{"timeZone": good})
		testkit.Expect(t, res, http.StatusOK, "Site settings updated!")
		if res.Get("result.timeZone") != good {
			t.Fatalf("saved %v, want %s", res.Get("result.timeZone"), good)
		}
	}
}
