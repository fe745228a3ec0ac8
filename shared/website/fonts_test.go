package website_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// fontCSS is the page's inline <style> up to its :root rule: its @font-face rules and font stack.
func fontCSS(t *testing.T, tn testkit.Tenant) string {
	t.Helper()
	p := get(t, tn, "/")
	// The page's own <style> is its last (the theme's stylesheet comes first).
	m := regexp.MustCompile(`(?s).*<style>(.*?:root\{[^}]*\})`).FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no inline style: %.2000s", p.body)
	}
	return m[1]
}

// TestFontsOnlyWhenNeeded: a chosen font's faces try the installed font under its real names
// (then its metric-compatible twins) before the self-hosted file, with the system font's line
// metrics; a fallback of other proportions is scaled to it (size-adjust) in a face of its own;
// a site that chose no font uses the device's interface font and declares no face at all.
func TestFontsOnlyWhenNeeded(t *testing.T) {
	tn := testkit.NewTenant(t)
	staff(t, tn, "PATCH", "/theme-settings", map[string]any{"fontFamily": "Georgia"})
	css := fontCSS(t, tn)
	for _, want := range []string{
		`@font-face{font-family:"Georgia";font-style:normal;font-weight:400;font-display:swap;src:local("Georgia"),local("Gelasio"),local("Gelasio-Regular"),url(/assets/fonts/gelasio-400.`,
		`format("woff2");ascent-override:91.7%;descent-override:21.92%;line-gap-override:0%}`,
		`src:local("Georgia Bold"),local("Georgia-Bold"),`,
		`--font:"Georgia",serif}`,
	} {
		if !strings.Contains(css, want) {
			t.Errorf("Georgia: lacks %s in\n%s", want, css)
		}
	}
	// Every face names local fonts before its download.
	for _, src := range regexp.MustCompile(`src:([^;}]*)`).FindAllStringSubmatch(css, -1) {
		if !strings.HasPrefix(src[1], "local(") {
			t.Errorf("a face downloads before it tries the installed font: %s", src[1])
		}
	}

	staff(t, tn, "PATCH", "/theme-settings", map[string]any{"fontFamily": "Verdana"})
	css = fontCSS(t, tn)
	for _, want := range []string{
		// Verdana itself where installed, never a download under its name.
		`@font-face{font-family:"Verdana";font-style:normal;font-weight:400;font-display:swap;src:local("Verdana")}`,
		// PT Sans scaled to Verdana's average width, with its line metrics.
		`@font-face{font-family:"PT Sans";font-style:normal;font-weight:400;font-display:swap;src:local("PT Sans"),local("PTSans-Regular"),url(/assets/fonts/pt-sans-400.`,
		`;size-adjust:118.84%;ascent-override:84.6%;descent-override:17.67%;line-gap-override:0%}`,
		`--font:"Verdana","PT Sans",sans-serif}`,
	} {
		if !strings.Contains(css, want) {
			t.Errorf("Verdana: lacks %s in\n%s", want, css)
		}
	}
}
