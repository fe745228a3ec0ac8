package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
)

// Image sizes the website's sections and lists are laid out for.
const (
	bannerW, bannerH = 1600, 700 // sliders and banners
	cardW, cardH     = 800, 600  // card rows, departments, events, notices
	photoW, photoH   = 1024, 768 // album photos
	avatarW, avatarH = 400, 400  // staff and testimonial portraits
	logoSize         = 256
	// jpegQuality keeps a 1600×700 scene near 40 kB: the images are smooth gradients and a few
	// shapes, which compress well, and a newcomer's first page load should be quick.
	jpegQuality = 72
)

// scene is what a generated picture shows.
type scene int

const (
	sceneCampus    scene = iota // sky, hills and a row of college buildings with lit windows
	sceneLandscape              // sky, a low sun and rolling hills
	sceneAbstract               // a gradient under large soft circles
	scenePortrait               // a head-and-shoulders silhouette, for people without a photo
)

// rgb is a colour with float channels 0–255, so blends need no clamping until the end.
type rgb struct{ r, g, b float64 }

// hex is the colour written 0xRRGGBB.
func hex(v uint32) rgb {
	return rgb{float64(v >> 16 & 0xff), float64(v >> 8 & 0xff), float64(v & 0xff)}
}

// mix is the colour t of the way from a to b.
func mix(a, b rgb, t float64) rgb {
	return rgb{a.r + (b.r-a.r)*t, a.g + (b.g-a.g)*t, a.b + (b.b-a.b)*t}
}

func (c rgb) scale(f float64) rgb { return rgb{c.r * f, c.g * f, c.b * f} }

// palette is a picture's colours: a sky from top to bottom, an accent (sun, circles) and the
// ground the hills are shades of.
type palette struct{ top, bottom, accent, ground rgb }

// palettes are soft, well-known gradient pairs; a picture picks one from its name.
var palettes = []palette{
	{hex(0x89f7fe), hex(0x66a6ff), hex(0xfff3b0), hex(0x3d7a5a)},
	{hex(0xf6d365), hex(0xfda085), hex(0xfffbe6), hex(0x6b8f4e)},
	{hex(0xa18cd1), hex(0xfbc2eb), hex(0xfff0f6), hex(0x4b4e8c)},
	{hex(0x84fab0), hex(0x8fd3f4), hex(0xffffff), hex(0x2f6b4f)},
	{hex(0x667eea), hex(0x9f7aea), hex(0xffe29f), hex(0x2c2f6b)},
	{hex(0xffecd2), hex(0xfcb69f), hex(0xffffff), hex(0x8a5a44)},
	{hex(0x43cea2), hex(0x185a9d), hex(0xfef9d7), hex(0x123c52)},
	{hex(0xfceabb), hex(0xf8b500), hex(0xfffdf3), hex(0x7a5c1e)},
}

// picture renders one scene at w×h. seed names the picture: the same seed always gives the same
// pixels, so a second seed run uploads identical bytes under the same key.
func picture(s scene, w, h int, seed string) *image.RGBA {
	sum := sha256.Sum256([]byte(seed))
	rng := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])))
	p := palettes[int(sum[16])%len(palettes)]
	c := newCanvas(w, h, p, rng.Float64()*0.3-0.15)
	switch s {
	case sceneCampus:
		c.sun(p, rng)
		c.hills(p, rng, 2)
		c.buildings(p, rng)
	case sceneLandscape:
		c.sun(p, rng)
		c.hills(p, rng, 3)
	case sceneAbstract:
		c.circles(p, rng)
	case scenePortrait:
		c.portrait(p)
	}
	return c.finish()
}

// canvas is an RGBA picture being painted; each layer blends over the pixels below it.
type canvas struct {
	img  *image.RGBA
	w, h int
	px   []rgb
}

// newCanvas starts with the sky: the palette's gradient from top to bottom, tilted a little.
func newCanvas(w, h int, p palette, tilt float64) *canvas {
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), w: w, h: h, px: make([]rgb, w*h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := float64(y)/float64(h) + tilt*(float64(x)/float64(w)-0.5)
			c.px[y*w+x] = mix(p.top, p.bottom, clamp01(t))
		}
	}
	return c
}

func (c *canvas) blend(x, y int, col rgb, alpha float64) {
	if alpha <= 0 || x < 0 || y < 0 || x >= c.w || y >= c.h {
		return
	}
	i := y*c.w + x
	c.px[i] = mix(c.px[i], col, clamp01(alpha))
}

// disc paints a soft-edged circle; glow adds a faint halo out to three radii.
func (c *canvas) disc(cx, cy, r float64, col rgb, alpha, glow float64) {
	reach := r + 2
	if glow > 0 {
		reach = 3 * r
	}
	for y := max(0, int(cy-reach)); y < min(c.h, int(cy+reach)+1); y++ {
		for x := max(0, int(cx-reach)); x < min(c.w, int(cx+reach)+1); x++ {
			d := math.Hypot(float64(x)-cx, float64(y)-cy)
			a := alpha * smooth(r+1, r-1, d)
			if glow > 0 && d > r {
				f := 1 - clamp01((d-r)/(2*r))
				a = max(a, glow*f*f)
			}
			c.blend(x, y, col, a)
		}
	}
}

func (c *canvas) sun(p palette, rng *rand.Rand) {
	r := float64(c.h) * (0.08 + rng.Float64()*0.05)
	c.disc(float64(c.w)*(0.15+rng.Float64()*0.7), float64(c.h)*(0.2+rng.Float64()*0.15), r, p.accent, 0.9, 0.35)
}

// hills paints layers of rolling ground, each nearer layer lower and darker.
func (c *canvas) hills(p palette, rng *rand.Rand, layers int) {
	for l := 0; l < layers; l++ {
		base := float64(c.h) * (0.55 + 0.12*float64(l))
		amp1, amp2 := float64(c.h)*(0.04+rng.Float64()*0.04), float64(c.h)*0.015
		f1, f2 := (1.5+rng.Float64()*2)*math.Pi/float64(c.w), (5+rng.Float64()*4)*math.Pi/float64(c.w)
		ph1, ph2 := rng.Float64()*2*math.Pi, rng.Float64()*2*math.Pi
		col := mix(p.ground, p.bottom, 0.45-0.2*float64(l)).scale(1 - 0.12*float64(l))
		for x := 0; x < c.w; x++ {
			top := base + amp1*math.Sin(f1*float64(x)+ph1) + amp2*math.Sin(f2*float64(x)+ph2)
			for y := max(0, int(top)-1); y < c.h; y++ {
				c.blend(x, y, col, smooth(top-0.5, top+0.5, float64(y)))
			}
		}
	}
}

// buildings paints a row of college buildings on the horizon: blocks of different heights,
// a clock tower with a pitched roof, and rows of lit windows.
func (c *canvas) buildings(p palette, rng *rand.Rand) {
	ground := float64(c.h) * 0.78
	wall := p.ground.scale(0.55)
	window := mix(p.accent, hex(0xffffff), 0.3)
	x := float64(c.w) * (0.08 + rng.Float64()*0.1)
	end := float64(c.w) * (0.92 - rng.Float64()*0.1)
	unit := float64(c.h) / 40
	tower := 1 + rng.IntN(3)
	for i := 0; x < end; i++ {
		bw := unit * (6 + float64(rng.IntN(8)))
		bh := unit * (5 + float64(rng.IntN(7)))
		if i == tower {
			bw, bh = unit*4, unit*15
		}
		top := ground - bh
		c.rect(x, top, x+bw, ground+unit, wall, 0.95)
		if i == tower {
			c.roof(x, x+bw, top, unit*4, wall)
			c.disc(x+bw/2, top+unit*2.2, unit*1.1, window, 0.9, 0)
		}
		first := top + unit
		if i == tower {
			first += unit * 3 // below the clock
		}
		for wy := first; wy+unit < ground-unit/2; wy += unit * 1.8 {
			for wx := x + unit*0.8; wx+unit*0.9 < x+bw; wx += unit * 1.6 {
				if rng.IntN(5) > 0 {
					c.rect(wx, wy, wx+unit*0.8, wy+unit, window, 0.85)
				}
			}
		}
		x += bw + unit*(0.5+float64(rng.IntN(3)))
	}
}

func (c *canvas) rect(x0, y0, x1, y1 float64, col rgb, alpha float64) {
	for y := int(y0); y < int(y1); y++ {
		for x := int(x0); x < int(x1); x++ {
			c.blend(x, y, col, alpha)
		}
	}
}

// roof paints a triangle of height h on the span x0–x1 whose base is at y.
func (c *canvas) roof(x0, x1, y, h float64, col rgb) {
	mid, half := (x0+x1)/2, (x1-x0)/2
	for yy := int(y - h); yy < int(y); yy++ {
		w := half * (float64(yy) - (y - h)) / h
		for x := int(mid - w); x < int(mid+w); x++ {
			c.blend(x, yy, col, 0.95)
		}
	}
}

// circles paints a few large translucent discs: an abstract cover for documents and forms.
func (c *canvas) circles(p palette, rng *rand.Rand) {
	for i := 0; i < 6; i++ {
		col := mix(p.accent, p.top, rng.Float64()*0.5)
		r := float64(c.h) * (0.15 + rng.Float64()*0.35)
		c.disc(rng.Float64()*float64(c.w), rng.Float64()*float64(c.h), r, col, 0.18+rng.Float64()*0.2, 0)
	}
}

// portrait paints a neutral head-and-shoulders silhouette.
func (c *canvas) portrait(p palette) {
	w, h := float64(c.w), float64(c.h)
	col := mix(p.top, p.bottom, 0.5).scale(0.62) // a deeper shade of the background's own hue
	c.disc(w/2, h*0.4, h*0.17, col, 0.92, 0)
	rx, ry, cy := w*0.34, h*0.36, h*1.02
	for y := int(cy - ry - 1); y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			dx, dy := (float64(x)-w/2)/rx, (float64(y)-cy)/ry
			d := math.Sqrt(dx*dx+dy*dy) * ry
			c.blend(x, y, col, 0.92*smooth(ry+1, ry-1, d))
		}
	}
}

// finish writes the painted colours into the image.
func (c *canvas) finish() *image.RGBA {
	for i, v := range c.px {
		c.img.Pix[i*4], c.img.Pix[i*4+1], c.img.Pix[i*4+2], c.img.Pix[i*4+3] = byte8(v.r), byte8(v.g), byte8(v.b), 255
	}
	return c.img
}

// jpegOf renders a scene and encodes it as a JPEG.
func jpegOf(s scene, w, h int, seed string) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, picture(s, w, h, seed), &jpeg.Options{Quality: jpegQuality}); err != nil {
		panic("demo: jpeg encode: " + err.Error()) // writing to memory cannot fail
	}
	return buf.Bytes()
}

// logoPNG draws the institution's mark: a deep blue disc holding an open book under a small
// gold lamp, anti-aliased by 4×4 supersampling, on a transparent background.
func logoPNG() []byte {
	const ss = 4
	img := image.NewNRGBA(image.Rect(0, 0, logoSize, logoSize))
	navy, white, gold := hex(0x1e3a8a), hex(0xffffff), hex(0xf4b400)
	for y := 0; y < logoSize; y++ {
		for x := 0; x < logoSize; x++ {
			var sum rgb
			cover := 0.0
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					u := (float64(x) + (float64(sx)+0.5)/ss) / logoSize
					v := (float64(y) + (float64(sy)+0.5)/ss) / logoSize
					col, in := logoAt(u, v, navy, white, gold)
					if in {
						sum.r, sum.g, sum.b = sum.r+col.r, sum.g+col.g, sum.b+col.b
						cover++
					}
				}
			}
			if cover == 0 {
				continue
			}
			img.SetNRGBA(x, y, color.NRGBA{byte8(sum.r / cover), byte8(sum.g / cover), byte8(sum.b / cover), byte8(255 * cover / (ss * ss))})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic("demo: png encode: " + err.Error())
	}
	return buf.Bytes()
}

// logoAt is the logo's colour at (u, v) in the unit square, and whether the point is inside it.
func logoAt(u, v float64, navy, white, gold rgb) (rgb, bool) {
	dx, dy := u-0.5, v-0.5
	if dx*dx+dy*dy > 0.48*0.48 {
		return rgb{}, false
	}
	// The lamp: a gold disc above the book.
	if lx, ly := u-0.5, v-0.3; lx*lx+ly*ly < 0.075*0.075 {
		return gold, true
	}
	// The book: two pages rising from the spine at the centre to the outer edges.
	if v > 0.45 && v < 0.72 && math.Abs(dx) < 0.3 {
		lift := 0.08 * math.Abs(dx) / 0.3 // the outer edges sit higher, as an open book's do
		if v > 0.47-lift && v < 0.7-lift && math.Abs(dx) > 0.012 {
			return white, true
		}
	}
	return navy, true
}

func smooth(edge0, edge1, x float64) float64 {
	t := clamp01((x - edge0) / (edge1 - edge0))
	return t * t * (3 - 2*t)
}

// clamp01 and byte8 compare directly: math.Max and math.Min handle NaN and signed zeros, which
// made them half of a picture's rendering time.
func clamp01(t float64) float64 {
	switch {
	case t < 0:
		return 0
	case t > 1:
		return 1
	}
	return t
}

func byte8(v float64) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}
