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
	// Local are the names (full and PostScript) under which a device may have the font, by
	// weight ("400", "700"): the font itself, then its metric-compatible twins (Liberation,
	// the Chrome OS fonts), which a page uses before it downloads anything.
	Local map[string][]string `json:"local"`
	// Metrics are the system font's vertical metrics and average width (from
	// @capsizecss/metrics), when known: the faces that stand in for it take them, so a page is
	// laid out the same with the font installed or downloaded.
	Metrics FontMetrics `json:"metrics,omitzero"`
	// FallbackLocal and FallbackMetrics are the open fallback's own, for a fallback that is not
	// metric-compatible: its face is scaled (size-adjust) to the system font's average width.
	FallbackLocal   map[string][]string `json:"fallbackLocal,omitempty"`
	FallbackMetrics FontMetrics         `json:"fallbackMetrics,omitzero"`
}

// FontMetrics are a font's metrics in its own units.
type FontMetrics struct {
	Ascent     int `json:"ascent"`
	Descent    int `json:"descent"`
	LineGap    int `json:"lineGap"`
	UnitsPerEm int `json:"unitsPerEm"`
	XWidthAvg  int `json:"xWidthAvg"`
}

// systemStack is the font of a site that chose none: the device's own interface font, never a
// download.
const systemStack = `system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif`

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
// font's @font-face rules (fontFaces), then the institution's custom CSS, which comes last so it
// wins. The custom CSS cannot end its <style> element: every "</" becomes "<\/", which CSS reads
// as the same two characters and HTML does not read as an end tag.
func (s *Server) inlineStyle(in styleInput) template.CSS {
	primary := colorOr(in.primary, "#1e88e5")
	secondary := colorOr(in.secondary, "#bbdefb")
	var b strings.Builder
	stack := systemStack
	if fc, ok := s.fonts[in.font]; ok {
		stack = s.fontFaces(&b, in.font, fc)
	}
	fmt.Fprintf(&b, ":root{--primary:%s;--secondary:%s;--on-primary:%s;--on-secondary:%s;--link:%s;--font:%s}\n",
		primary, secondary, onColor(primary), onColor(secondary), readableOn(primary, "#ffffff"), stack)
	if css := strings.TrimSpace(in.customCSS); css != "" {
		b.WriteString("/* custom CSS */\n")
		b.WriteString(strings.ReplaceAll(css, "</", `<\/`))
	}
	return template.CSS(b.String()) //nolint:gosec // built above from checked colours; custom CSS neutralised
}

// fontFaces writes the @font-face rules of the chosen font and returns the font-family stack
// that uses them. The font's own family name gets a face per weight that tries the installed
// font first under its real names, then its metric-compatible twins (src: local(...)), and only
// then downloads the self-hosted fallback (a metric-compatible one: its line metrics are set to
// the system font's, so the page lays out alike either way). A fallback that is not metric-
// compatible gets a face of its own, second in the stack, scaled to the system font's average
// width and given its line metrics (size-adjust, ascent-, descent- and line-gap-override), so the
// text keeps about the same length and line height. A device with the font (or a twin)
// downloads nothing.
func (s *Server) fontFaces(b *strings.Builder, name string, fc FontChoice) string {
	for _, w := range []int{400, 700} {
		weight := strconv.Itoa(w)
		url := s.assets.Path(fmt.Sprintf("fonts/%s-%d.woff2", fc.Package, w))
		if local := fc.Local[weight]; len(local) > 0 {
			if fc.Metric {
				face(b, name, w, local, url, overrides(fc.Metrics, FontMetrics{}))
			} else {
				face(b, name, w, local, "", "")
			}
		}
		if !fc.Metric && url != "" {
			face(b, fc.Fallback, w, fc.FallbackLocal[weight], url, overrides(fc.Metrics, fc.FallbackMetrics))
		}
	}
	if fc.Metric {
		return fmt.Sprintf("%q,%s", name, fc.Generic)
	}
	return fmt.Sprintf("%q,%q,%s", name, fc.Fallback, fc.Generic)
}

// face writes one @font-face: its local names, then url when there is one.
func face(b *strings.Builder, family string, weight int, local []string, url, descriptors string) {
	var src []string
	for _, n := range local {
		src = append(src, fmt.Sprintf("local(%q)", n))
	}
	if url != "" {
		src = append(src, fmt.Sprintf("url(%s) format(\"woff2\")", url))
	}
	if len(src) == 0 {
		return
	}
	fmt.Fprintf(b, "@font-face{font-family:%q;font-style:normal;font-weight:%d;font-display:swap;src:%s%s}\n", family, weight, strings.Join(src, ","), descriptors)
}

// overrides are the descriptors that give a face the line metrics of sys (the system font) and,
// for a fallback fb of other proportions, its average width; "" without sys's metrics.
func overrides(sys, fb FontMetrics) string {
	if sys.UnitsPerEm <= 0 {
		return ""
	}
	adjust := 1.0
	out := ""
	if fb.UnitsPerEm > 0 && fb.XWidthAvg > 0 {
		adjust = (float64(sys.XWidthAvg) / float64(sys.UnitsPerEm)) / (float64(fb.XWidthAvg) / float64(fb.UnitsPerEm))
		out = ";size-adjust:" + pct(adjust)
	}
	em := float64(sys.UnitsPerEm) * adjust
	return out + ";ascent-override:" + pct(float64(sys.Ascent)/em) + ";descent-override:" + pct(float64(-sys.Descent)/em) +
		";line-gap-override:" + pct(float64(sys.LineGap)/em)
}

// pct is f as a CSS percentage with two decimals.
func pct(f float64) string {
	return strconv.FormatFloat(math.Round(f*10000)/100, 'f', -1, 64) + "%"
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
