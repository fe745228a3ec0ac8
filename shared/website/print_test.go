package website_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/themes"
)

// printRules are the @media print blocks of a stylesheet.
func printRules(css string) string {
	var out strings.Builder
	for rest := css; ; {
		i := strings.Index(rest, "@media print{")
		if i < 0 {
			return out.String()
		}
		rest = rest[i+len("@media print{"):]
		depth := 1
		for j, c := range rest {
			switch c {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth == 0 {
				out.WriteString(rest[:j] + "\n")
				rest = rest[j+1:]
				break
			}
		}
	}
}

// themeCSS is the theme's stylesheet, written into a page's <head> (its first <style>).
func themeCSS(t *testing.T, body, theme string) string {
	t.Helper()
	own, err := os.ReadFile("assets/themes/" + theme + ".css")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<head>.*?<style>(.*?)</style>`).FindStringSubmatch(body)
	if m == nil || !strings.Contains(m[1], strings.TrimSpace(string(own))) || strings.Contains(body, `rel="stylesheet"`) {
		t.Fatalf("%s: the page has no inline stylesheet of its theme", theme)
	}
	return m[1]
}

// withoutStyles is a page's HTML without its <style> elements (the theme's stylesheet names
// every class a page may use).
// inEveryTheme activates each theme of the catalogue on tn's site in turn and runs do.
func inEveryTheme(t *testing.T, tn testkit.Tenant, do func(th themes.Theme)) {
	t.Helper()
	cat, err := themes.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range cat.Themes {
		staff(t, tn, "PATCH", "/theme-settings", map[string]any{"themeId": th.ID})
		do(th)
	}
}

func withoutStyles(body string) string {
	return regexp.MustCompile(`(?s)<style>.*?</style>`).ReplaceAllString(body, "")
}

// TestEveryThemePrintsItsContent: every theme's stylesheet prints a page without the menu, the
// footer, the popup, the newsletter form and the search box, with each outside link's address
// after its text, and undoes what the theme itself draws around the content.
func TestEveryThemePrintsItsContent(t *testing.T) {
	tn := testkit.NewTenant(t)
	inEveryTheme(t, tn, func(th themes.Theme) {
		css := themeCSS(t, get(t, tn, "/").body, th.ID)
		print := printRules(css)
		hidden := regexp.MustCompile(`(?s)([^{}]*)\{display:none!important\}`).FindStringSubmatch(print)
		if hidden == nil {
			t.Fatalf("%s: no print rule hides the site's chrome: %s", th.ID, print)
		}
		for _, sel := range []string{".site-nav", ".menu-toggle", ".site-footer", ".popup", ".newsletter", ".site-search", ".quick-links"} {
			if !strings.Contains(","+strings.TrimSpace(hidden[1])+",", ","+sel+",") {
				t.Errorf("%s: printing shows %s", th.ID, sel)
			}
		}
		if !strings.Contains(print, `a[href^="https://"]::after`) || !strings.Contains(print, `attr(href)`) {
			t.Errorf("%s: printing leaves out the addresses of links", th.ID)
		}
		// The theme's own print rules come after its screen rules (the same stylesheet, later).
		own := css[strings.LastIndex(css, "\n/*"):]
		if !strings.Contains(own, "@media print{") {
			t.Errorf("%s: the theme has no print rules of its own", th.ID)
		}
	})
}
