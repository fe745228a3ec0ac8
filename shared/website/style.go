package website

import (
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/compiled"
	"github.com/campuscms/panel/shared/formats"
)

//go:embed fonts.json
var fontsJSON []byte

// FontChoice is one of the panel's twelve font families: a web-safe system font, and the open
// font self-hosted for visitors who do not have it (metric-compatible where one exists, so a
// page keeps its line breaks).
type FontChoice struct {
	Fallback string `json:"fallback"`
	Package  string `json:"package"`
	Generic  string `json:"generic"`
	Metric   bool   `json:"metric"`
}

//go:generate go run ./gen

// parseFonts returns the font choices, from their compiled copy (fonts_gen.go, shared/compiled)
// while that matches fonts.json.
func parseFonts() (map[string]FontChoice, error) {
	return compiled.Load(fontsJSON, "fonts.json", compiledFonts)
}

// compiledFonts is set by fonts_gen.go's init.
var compiledFonts compiled.Copy[map[string]FontChoice]

// styleInput is what the inline <style> of a page is made of.
type styleInput struct {
	primary, secondary string
	font               string
	customCSS          string
}

// inlineStyle is the page's own CSS: the palette and font as custom properties, the chosen
// font's @font-face, then the institution's custom CSS, which comes last so it wins. The custom
// CSS cannot end its <style> element: every "</" becomes "<\/", which CSS reads as the same two
// characters and HTML does not read as an end tag.
func (s *Server) inlineStyle(in styleInput) template.CSS {
	primary := colorOr(in.primary, "#1e88e5")
	secondary := colorOr(in.secondary, "#bbdefb")
	fc, ok := s.fonts[in.font]
	if !ok {
		in.font, fc = "Arial", s.fonts["Arial"]
	}
	var b strings.Builder
	for _, w := range []int{400, 700} {
		if p := s.assets.Path(fmt.Sprintf("fonts/%s-%d.woff2", fc.Package, w)); p != "" {
			fmt.Fprintf(&b, "@font-face{font-family:%q;font-style:normal;font-weight:%d;font-display:swap;src:url(%s) format(\"woff2\")}\n", fc.Fallback, w, p)
		}
	}
	fmt.Fprintf(&b, ":root{--primary:%s;--secondary:%s;--on-primary:%s;--on-secondary:%s;--link:%s;--font:%q,%q,%s}\n",
		primary, secondary, onColor(primary), onColor(secondary), readableOn(primary, "#ffffff"), in.font, fc.Fallback, fc.Generic)
	if css := strings.TrimSpace(in.customCSS); css != "" {
		b.WriteString("/* custom CSS */\n")
		b.WriteString(strings.ReplaceAll(css, "</", `<\/`))
	}
	return template.CSS(b.String()) //nolint:gosec // built above from checked colours; custom CSS neutralised
}

func colorOr(v any, fallback string) string {
	s, _ := v.(string)
	if formats.Color(s) {
		return expandHex(s)
	}
	return fallback
}

func expandHex(c string) string {
	if len(c) == 4 {
		return "#" + strings.Repeat(c[1:2], 2) + strings.Repeat(c[2:3], 2) + strings.Repeat(c[3:4], 2)
	}
	return strings.ToLower(c)
}

func rgb(hex string) (r, g, b float64) {
	v, _ := strconv.ParseUint(strings.TrimPrefix(expandHex(hex), "#"), 16, 32)
	return float64(v>>16&255) / 255, float64(v>>8&255) / 255, float64(v&255) / 255
}

// luminance is WCAG 2's relative luminance.
func luminance(hex string) float64 {
	lin := func(c float64) float64 {
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	r, g, b := rgb(hex)
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// onColor is the text colour to put on bg: near-black or white, whichever reads better.
func onColor(bg string) string {
	if contrast(bg, "#111111") >= contrast(bg, "#ffffff") {
		return "#111111"
	}
	return "#ffffff"
}

// readableOn is c darkened (or lightened) until it reaches WCAG AA's 4.5:1 against bg, so a
// light palette colour (yellow, cyan) still gives readable links and buttons.
func readableOn(c, bg string) string {
	r, g, b := rgb(c)
	// Towards black or white, whichever reads better on bg: both extremes reach at least 4.58:1.
	dark := onColor(bg) != "#ffffff"
	for i := 0; i < 60 && contrast(hexOf(r, g, b), bg) < 4.5; i++ {
		if dark {
			r, g, b = r*0.9, g*0.9, b*0.9
		} else {
			r, g, b = r+(1-r)*0.1, g+(1-g)*0.1, b+(1-b)*0.1
		}
	}
	return hexOf(r, g, b)
}

func hexOf(r, g, b float64) string {
	c := func(v float64) int { return int(math.Round(math.Max(0, math.Min(1, v)) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", c(r), c(g), c(b))
}
