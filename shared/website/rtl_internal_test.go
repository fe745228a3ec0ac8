package website

import (
	"regexp"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/themes"
)

// TestThemesUseLogicalProperties: every theme's compiled stylesheet (base and theme, as a page
// holds it) places things by start and end, not left and right, so it mirrors in a right-to-left
// language: no margin-left, padding-right, border-left, left:, text-align:right, float… and no
// four-value margin or padding whose right and left differ.
func TestThemesUseLogicalProperties(t *testing.T) {
	cat, err := themes.Load()
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(cat.Themes))
	for i, th := range cat.Themes {
		ids[i] = th.ID
	}
	assets, err := loadAssets(ids)
	if err != nil {
		t.Fatal(err)
	}
	physical := regexp.MustCompile(`^(?:(?:margin|padding|border|scroll-margin|scroll-padding)-(?:left|right)(?:-[a-z]+)?|left|right|float|clear)$`)
	sideValue := regexp.MustCompile(`^(?:left|right)$`)
	comments := regexp.MustCompile(`(?s)/\*.*?\*/`)
	for _, id := range ids {
		css := comments.ReplaceAllString(string(assets.Inline("theme-"+id+".css")), "")
		n := 0
		for _, block := range regexp.MustCompile(`\{([^{}]*)\}`).FindAllStringSubmatch(css, -1) {
			for _, decl := range strings.Split(block[1], ";") {
				prop, val, ok := strings.Cut(decl, ":")
				if !ok {
					continue
				}
				n++
				prop, val = strings.TrimSpace(prop), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "!important"))
				switch {
				case physical.MatchString(prop):
					t.Errorf("%s: %s:%s (use its -inline-start/-inline-end or inset-inline form)", id, prop, val)
				case (prop == "text-align" || prop == "float" || prop == "clear") && sideValue.MatchString(val):
					t.Errorf("%s: %s:%s (use start or end)", id, prop, val)
				case prop == "margin" || prop == "padding":
					if parts := cssValues(val); len(parts) == 4 && parts[1] != parts[3] {
						t.Errorf("%s: %s:%s sets right and left apart (use %s-inline-start/-end)", id, prop, val, prop)
					}
				}
			}
		}
		if n < 100 {
			t.Errorf("%s: read %d declarations: the stylesheet was not read", id, n)
		}
	}
}

// cssValues splits a property's value at the spaces outside parentheses (calc(50% - 1rem) is one).
func cssValues(v string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range v {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ' ' && depth == 0:
			if i > start {
				out = append(out, v[start:i])
			}
			start = i + 1
		}
	}
	if start < len(v) {
		out = append(out, v[start:])
	}
	return out
}
