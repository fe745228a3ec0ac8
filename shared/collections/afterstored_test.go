package collections_test

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestOneDateIsCheckedAgainstTheStoredOther: a patch giving only unpublishAt (or only publishAt)
// is checked against the stored value of the other date, as a write giving both is: an
// unpublishAt not after the stored publishAt (or a publishAt not before the stored unpublishAt)
// is a 400 with the rule's message, under the field the patch sent, and nothing is written.
func TestOneDateIsCheckedAgainstTheStoredOther(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	const msg = "Unpublish at must be after Publish at."
	res := do(t, tn, "POST", "/notices", map[string]any{"title": "Window", "message": "m",
		"publishAt": "2031-05-02T09:00:00Z", "unpublishAt": "2031-05-09T09:00:00Z"})
	mustStatus(t, res, 201)
	id := res.Get("result.id").(string)
	cases := []struct {
		name  string
		patch map[string]any
		field string
	}{
		{"unpublishAt before the stored publishAt", map[string]any{"unpublishAt": "2031-05-01T09:00:00Z"}, "unpublishAt"},
		{"unpublishAt equal to the stored publishAt", map[string]any{"unpublishAt": "2031-05-02T11:00:00+02:00"}, "unpublishAt"},
		{"publishAt after the stored unpublishAt", map[string]any{"publishAt": "2031-05-10T09:00:00Z"}, "publishAt"},
		{"publishAt equal to the stored unpublishAt", map[string]any{"publishAt": "2031-05-09T09:00:00Z"}, "publishAt"},
	}
	for _, tc := range cases {
		tc.patch["version"] = 1
		res := do(t, tn, "PATCH", "/notices/"+id, tc.patch)
		mustStatus(t, res, 400)
		if got, _ := res.Get("errors." + tc.field).(string); got != msg || res.Message() == "" {
			t.Fatalf("%s: %s", tc.name, res.Raw)
		}
	}
	got := do(t, tn, "GET", "/notices/"+id, nil)
	if got.Get("result.version") != float64(1) || got.Get("result.publishAt") != "2031-05-02T09:00:00Z" ||
		got.Get("result.unpublishAt") != "2031-05-09T09:00:00Z" {
		t.Fatalf("a refused patch wrote: %s", got.Raw)
	}
	// Within the stored window, and with the other date cleared, one date alone is accepted.
	mustStatus(t, do(t, tn, "PATCH", "/notices/"+id, map[string]any{"unpublishAt": "2031-05-03T09:00:00Z", "version": 1}), 200)
	mustStatus(t, do(t, tn, "PATCH", "/notices/"+id, map[string]any{"publishAt": "2031-05-02T10:00:00Z", "version": 2}), 200)
	mustStatus(t, do(t, tn, "PATCH", "/notices/"+id, map[string]any{"unpublishAt": nil, "version": 3}), 200)
	mustStatus(t, do(t, tn, "PATCH", "/notices/"+id, map[string]any{"publishAt": "2031-06-01T09:00:00Z", "version": 4}), 200)
	// A patch giving neither date leaves the rule alone (a record stored before the rule stays
	// editable), and one giving both is checked as before.
	mustStatus(t, do(t, tn, "PATCH", "/notices/"+id, map[string]any{"title": "Renamed", "version": 5}), 200)
	res = do(t, tn, "PATCH", "/notices/"+id, map[string]any{"publishAt": "2031-06-02T09:00:00Z", "unpublishAt": "2031-06-01T09:00:00Z", "version": 6})
	mustStatus(t, res, 400)
	if got, _ := res.Get("errors.unpublishAt").(string); got != msg {
		t.Fatalf("both dates: %s", res.Raw)
	}
}
