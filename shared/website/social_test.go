package website_test

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// TestFooterSocialLinks: the footer links the institution's social pages, each named for screen
// readers, while Show Social Links is on; never while it is off.
func TestFooterSocialLinks(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	staff(t, tn, "PATCH", "/footer", map[string]any{"facebookUrl": "https://www.facebook.com/school",
		"linkedinUrl": "https://www.linkedin.com/school/school", "showSocialLinks": false})
	p := get(t, tn, "/")
	must(t, p, 200)
	if strings.Contains(p.body, "facebook.com") {
		t.Fatal("social links shown while switched off")
	}
	staff(t, tn, "PATCH", "/footer", map[string]any{"showSocialLinks": true})
	p = get(t, tn, "/")
	must(t, p, 200, `<nav aria-label="Social media"`,
		// The organisation's structured data names its profiles.
		`"sameAs":["https://www.facebook.com/school","https://www.linkedin.com/school/school"]`)
	footer := p.body[strings.Index(p.body, "<footer"):]
	for _, want := range []string{
		`href="https://www.facebook.com/school"`, `on Facebook`, `>Facebook</a>`,
		`href="https://www.linkedin.com/school/school"`, `on LinkedIn`,
	} {
		if !strings.Contains(footer, want) {
			t.Errorf("footer lacks %s: %.2000s", want, footer)
		}
	}
	if strings.Contains(footer, "Instagram") {
		t.Error("a link not given is shown")
	}
}
