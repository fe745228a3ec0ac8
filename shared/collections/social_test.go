package collections_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// socialFields are the footer's social links and their labels.
var socialFields = map[string]string{"facebookUrl": "Facebook", "xUrl": "X", "instagramUrl": "Instagram",
	"youtubeUrl": "YouTube", "linkedinUrl": "LinkedIn"}

// TestFooterSocialLinksAreHTTPS: the footer's social links are saved as https addresses only; a
// plain http, relative or malformed address is a 400 naming the link and the https:// it needs.
func TestFooterSocialLinksAreHTTPS(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	as := func(body map[string]any) testkit.Response {
		return testkit.Call(t, call{Method: "PATCH", Path: "/footer", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	}
	for name, label := range socialFields {
		for _, bad := range []string{"http://example.com/school", "https://", "www.example.com/school", "/school", "javascript:alert(1)", "https://exa mple.com"} {
			res := as(map[string]any{name: bad})
			mustStatus(t, res, http.StatusBadRequest)
			if msg := res.Get("errors." + name); msg == nil || !strings.HasPrefix(msg.(string), label+" ") || !strings.Contains(msg.(string), "https://") {
				t.Errorf("%s = %q: message %v", name, bad, msg)
			}
		}
		good := "https://www.example.com/" + name
		res := as(map[string]any{name: good})
		mustStatus(t, res, http.StatusOK)
		if res.Get("result."+name) != good {
			t.Errorf("%s saved as %v", name, res.Get("result."+name))
		}
		mustStatus(t, as(map[string]any{name: ""}), http.StatusOK)
	}
}
