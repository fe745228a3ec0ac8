package website

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/campuscms/panel/shared/themes"
)

// TestLayoutsMatchTheThemesCSS: the layout each theme's image sizes are computed from (sizes.go)
// says what its stylesheet says: the container's --max, the card grid's gap and its
// narrowest column (or one column), and every theme of the catalog has one.
func TestLayoutsMatchTheThemesCSS(t *testing.T) {
	cat, err := themes.Load()
	if err != nil {
		t.Fatal(err)
	}
	base, err := assetFS.ReadFile("assets/base.css")
	if err != nil {
		t.Fatal(err)
	}
	last := func(re string, css []byte) (float64, bool) {
		all := regexp.MustCompile(re).FindAllSubmatch(css, -1)
		if len(all) == 0 {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(all[len(all)-1][1]), 64)
		return f, err == nil
	}
	for _, th := range cat.Themes {
		l, ok := layouts[th.ID]
		if !ok {
			t.Errorf("theme %s has no layout: its images' sizes would be another theme's", th.ID)
			continue
		}
		own, err := assetFS.ReadFile("assets/themes/" + th.ID + ".css")
		if err != nil {
			t.Fatal(err)
		}
		css := append(append([]byte{}, base...), own...)
		if max, _ := last(`--max:([0-9.]+)rem`, css); max != l.Max {
			t.Errorf("%s: --max is %vrem, its layout says %vrem", th.ID, max, l.Max)
		}
		gap, _ := last(`--gap:([0-9.]+)rem`, css)
		if g, ok := last(`\.cards\{[^}]*[;{]gap:([0-9.]+)rem`, own); ok {
			gap = g // the theme's card grid has a gap of its own
		}
		if gap != l.Gap {
			t.Errorf("%s: the card grid's gap is %vrem, its layout says %vrem", th.ID, gap, l.Gap)
		}
		col, _ := last(`\.cards[,{][^}]*grid-template-columns:repeat\(auto-fill,minmax\(([0-9.]+)rem`, css)
		if regexp.MustCompile(`\.cards[^{]*\{grid-template-columns:1fr[;}]`).Match(own) {
			col = 0
		}
		if col != l.CardMin {
			t.Errorf("%s: the card grid's column is %vrem, its layout says %vrem", th.ID, col, l.CardMin)
		}
	}
}
