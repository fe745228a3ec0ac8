package website

import (
	"strings"
	"testing"
)

// TestChosenColoursStayReadable: whatever text and background colours staff pick, the text drawn
// reaches WCAG AA's 4.5:1 against its background, as close to the chosen colour as it can.
func TestChosenColoursStayReadable(t *testing.T) {
	cases := []struct{ fg, bg string }{
		{"#ffffff", "#ffffff"}, {"#777", "#888"}, {"#fdd835", "#ffffff"}, {"#1e88e5", "#111827"},
		{"", "#0f172a"}, {"", "#fff9c4"}, {"#000000", "#000000"}, {"#e53935", "#e53935"},
	}
	for _, c := range cases {
		got := readableText(c.fg, c.bg)
		if r := contrast(got, expandHex(c.bg)); r < 4.5 {
			t.Errorf("%q on %s became %s: contrast %.2f", c.fg, c.bg, got, r)
		}
	}
	if got := readableText("#1f2937", "#ffffff"); got != "#1f2937" {
		t.Errorf("a readable choice was changed to %s", got)
	}
	if got := readableText("#123456", ""); got != "#123456" {
		t.Errorf("without a background the choice stays: %s", got)
	}
}

// TestNoFontChosenIsTheSystemStack: a site without one of the panel's font choices uses the
// device's own interface font: no @font-face, nothing to download.
func TestNoFontChosenIsTheSystemStack(t *testing.T) {
	fonts, err := parseFonts()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := loadAssets(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{fonts: fonts, assets: assets}
	for _, font := range []string{"", "Wingdings"} {
		css := string(s.inlineStyle(styleInput{font: font}))
		if strings.Contains(css, "@font-face") || !strings.Contains(css, "--font:"+systemStack+"}") {
			t.Errorf("font %q: %s", font, css)
		}
	}
}
