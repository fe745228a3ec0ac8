package public_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestFooterSocialLinks: the site bundle's footer lists the institution's social links (name and
// https address, in a fixed order, only those given) while Show Social Links is on, and none
// while it is off.
func TestFooterSocialLinks(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	links := func() any {
		res := public(t, req{path: "/site", tenant: tn.ID})
		expect(t, res, http.StatusOK)
		return res.body["result"].(map[string]any)["footer"].(map[string]any)["socialLinks"]
	}
	if got := links(); !reflect.DeepEqual(got, []any{}) {
		t.Fatalf("defaults: socialLinks %v, want []", got)
	}
	staff(t, tn, "PATCH", "/footer", map[string]any{"youtubeUrl": "https://www.youtube.com/@school",
		"facebookUrl": "https://www.facebook.com/school", "showSocialLinks": false}, http.StatusOK)
	if got := links(); !reflect.DeepEqual(got, []any{}) {
		t.Fatalf("switched off: socialLinks %v, want []", got)
	}
	staff(t, tn, "PATCH", "/footer", map[string]any{"showSocialLinks": true}, http.StatusOK)
	want := []any{
		map[string]any{"name": "Facebook", "url": "https://www.facebook.com/school"},
		map[string]any{"name": "YouTube", "url": "https://www.youtube.com/@school"},
	}
	if got := links(); !reflect.DeepEqual(got, want) {
		t.Fatalf("socialLinks %v, want %v", got, want)
	}
}
