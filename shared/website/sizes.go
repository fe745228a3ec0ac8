package website

import (
	"fmt"
	"strconv"
	"strings"
)

// layout is what a theme's stylesheet does with the width of the screen, in rem: enough to say
// how wide each image slot is drawn at every viewport width, so an image's sizes attribute (and
// its preload's imagesizes) names the width the browser will draw it at and the browser picks
// the copy that fits (its srcset). TestLayoutsMatchTheThemesCSS keeps these figures equal to the
// stylesheets' own (--max, the card grid's gap and column).
type layout struct {
	// Max is .container's max-width (--max); containers have 1rem of padding each side.
	Max float64
	// Gap is the card grid's gap (--gap unless the theme's .cards has its own; the text-and-image
	// columns are taken as that far apart too).
	Gap float64
	// CardMin is the card grid's narrowest column (.cards minmax); 0 when cards are one column.
	CardMin float64
	// Aside is the width beside <main> from AsideFrom up (campus: its 17rem quick links and the
	// 1.5rem gap); inside that frame containers have no padding of their own.
	Aside, AsideFrom float64
	// FullBleedSlider: a section's slider is drawn across the whole window (modern).
	FullBleedSlider bool
	// TextImageOneColumn: a text-and-image section stacks its image under its text (minimal).
	TextImageOneColumn bool
	// NewsFirst: the home page shows the latest events and notices before its sections (campus),
	// so its sections start below the first screen.
	NewsFirst bool
}

// layouts are the themes' (shared/themes/themes.json); base is a theme's without its own.
var (
	base    = layout{Max: 72, Gap: 1.25, CardMin: 16}
	layouts = map[string]layout{
		"classic": {Max: 66, Gap: 1.25, CardMin: 16},
		"modern":  {Max: 78, Gap: 1.5, CardMin: 17, FullBleedSlider: true},
		"campus":  {Max: 80, Gap: 1.25, CardMin: 14, Aside: 18.5, AsideFrom: 60, NewsFirst: true},
		"minimal": {Max: 44, Gap: 2.5, TextImageOneColumn: true},
		"vibrant": {Max: 72, Gap: 1.5, CardMin: 16},
	}
)

// layoutOf is theme's layout.
func layoutOf(theme string) layout {
	if l, ok := layouts[theme]; ok {
		return l
	}
	return base
}

// Image slots: where a page draws a library image.
const (
	slotWide    = "wide"    // across a container: a banner, a section's slider, the landing's slider
	slotSlide   = "slide"   // a section's slider (across the window in modern)
	slotPage    = "page"    // a page's own image, across <main>
	slotNarrow  = "narrow"  // across a narrow container (46rem): an event's, a notice's, a form's
	slotCard    = "card"    // a card of a grid (card rows, albums, departments)
	slotPhoto   = "photo"   // a photo of an album (a grid of 14rem columns, 0.75rem apart)
	slotHalf    = "half"    // a text-and-image section's image: half the container from 48rem
	slotLanding = "landing" // the landing's slider when the home page is no page: across <main>
)

// piece is the width of a slot from viewport width From (rem) up: A·vw + B rem (A = 1/100 of
// the viewport per vw unit), until the next piece.
type piece struct{ From, A, B float64 }

// mainWidth is the width of <main> at each viewport width.
func (l layout) mainWidth() []piece {
	if l.Aside == 0 {
		return []piece{{0, 1, 0}}
	}
	// From AsideFrom: the frame is Max wide at most, 1rem padding each side, the aside beside.
	return []piece{{0, 1, 0}, {l.AsideFrom, 1, -2 - l.Aside}, {l.Max, 0, l.Max - 2 - l.Aside}}
}

// containerWidth is a container's content width, max-width wide at most.
func (l layout) containerWidth(max float64) []piece {
	if l.Aside == 0 {
		return []piece{{0, 1, -2}, {max, 0, max - 2}}
	}
	// Inside the campus frame a container has no padding: it is main's width, max wide at most.
	out := []piece{{0, 1, -2}}
	mainAt := func(vw float64) float64 { return min(vw, l.Max) - 2 - l.Aside }
	if mainAt(l.AsideFrom) >= max {
		return append(out, piece{l.AsideFrom, 0, max})
	}
	out = append(out, piece{l.AsideFrom, 1, -2 - l.Aside})
	if vw := max + 2 + l.Aside; vw < l.Max {
		return append(out, piece{vw, 0, max})
	}
	return append(out, piece{l.Max, 0, l.Max - 2 - l.Aside})
}

// at is the width pieces give at viewport width vw (rem).
func at(ps []piece, vw float64) float64 {
	w := 0.0
	for _, p := range ps {
		if vw >= p.From {
			w = p.A*vw + p.B
		}
	}
	return w
}

// grid is the width of one column of a grid of columns at least colMin wide, gap apart, in a box
// as wide as box: the column count changes where the box reaches n columns and n-1 gaps.
func grid(box []piece, colMin, gap float64) []piece {
	var out []piece
	for i, p := range box {
		end := 1000.0
		if i+1 < len(box) {
			end = box[i+1].From
		}
		cols := func(vw float64) int { return max(1, int((at(box, vw)+gap)/(colMin+gap)+1e-9)) }
		from := p.From
		for from < end {
			n := float64(cols(from))
			out = append(out, piece{from, p.A / n, (p.B - (n-1)*gap) / n})
			// The next viewport width where one more column fits, inside this piece.
			if p.A == 0 {
				break
			}
			next := ((n+1)*(colMin+gap) - gap - p.B) / p.A
			if next >= end {
				break
			}
			from = next
		}
	}
	return out
}

// sizesOf writes pieces as a sizes attribute, widest viewport first (a browser takes the first
// media condition that matches).
func sizesOf(ps []piece) string {
	num := func(f float64) string { return strconv.FormatFloat(float64(int(f*100+0.5))/100, 'f', -1, 64) }
	var parts []string
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		var w string
		switch {
		case p.A == 0:
			w = num(p.B) + "rem"
		case p.B == 0 && p.A == 1:
			w = "100vw"
		case p.B == 0:
			w = num(p.A*100) + "vw"
		case p.A == 1:
			w = fmt.Sprintf("calc(100vw - %srem)", num(-p.B))
			if p.B > 0 {
				w = fmt.Sprintf("calc(100vw + %srem)", num(p.B))
			}
		default:
			sign, b := "-", -p.B
			if p.B > 0 {
				sign, b = "+", p.B
			}
			w = fmt.Sprintf("calc(%svw %s %srem)", num(p.A*100), sign, num(b))
		}
		if p.From > 0 {
			w = "(min-width: " + num(p.From) + "rem) " + w
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, ", ")
}

// slotSizes are the sizes attribute of each image slot in each theme, made once.
var slotSizes = map[string]map[string]string{}

func init() {
	for _, theme := range append([]string{""}, keys(layouts)...) {
		l := layoutOf(theme)
		wide := l.containerWidth(l.Max)
		slide := wide
		if l.FullBleedSlider {
			slide = []piece{{0, 1, 0}}
		}
		card := wide
		if l.CardMin > 0 {
			card = grid(wide, l.CardMin, l.Gap)
		}
		half := wide
		if !l.TextImageOneColumn { // two columns from a 48rem viewport
			half = twoFrom(wide, 48, l.Gap)
		}
		slotSizes[theme] = map[string]string{
			slotWide:    sizesOf(wide),
			slotSlide:   sizesOf(slide),
			slotPage:    sizesOf(l.mainWidth()),
			slotLanding: sizesOf(l.mainWidth()),
			slotNarrow:  sizesOf(l.containerWidth(46)),
			slotCard:    sizesOf(card),
			slotPhoto:   sizesOf(grid(wide, 14, 0.75)),
			slotHalf:    sizesOf(half),
		}
	}
}

// twoFrom is box split in two columns gap apart from viewport width from up.
func twoFrom(box []piece, from, gap float64) []piece {
	var out []piece
	for i, p := range box {
		end := 1000.0
		if i+1 < len(box) {
			end = box[i+1].From
		}
		switch {
		case end <= from:
			out = append(out, p)
		case p.From >= from:
			out = append(out, piece{p.From, p.A / 2, (p.B - gap) / 2})
		default:
			out = append(out, p, piece{from, p.A / 2, (p.B - gap) / 2})
		}
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// sizes is the sizes attribute of slot in theme (a template function; a theme without a layout
// of its own has base's).
func sizes(theme, slot string) (string, error) {
	s, ok := slotSizes[theme][slot]
	if !ok {
		s, ok = slotSizes[""][slot]
	}
	if !ok {
		return "", fmt.Errorf("website: no image slot %q", slot)
	}
	return s, nil
}
