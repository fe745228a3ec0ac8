package imaging_test

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"slices"
	"testing"

	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
)

func TestAPhotoTakenSidewaysGivesUprightVariantsWithoutMetadata(t *testing.T) {
	src := imagingtest.Photo(t, 4000, 3000, 6)
	if !bytes.Contains(src, []byte(imagingtest.GPSMarker)) {
		t.Fatal("the fixture lacks its GPS block")
	}
	size, vs, err := imaging.Derive(src)
	if err != nil {
		t.Fatal(err)
	}
	if size.Width != 3000 || size.Height != 4000 {
		t.Fatalf("size as shown = %dx%d, want 3000x4000 (orientation 6 swaps the axes)", size.Width, size.Height)
	}
	want := [][2]int{{160, 213}, {240, 320}, {320, 427}, {480, 640}, {640, 853}, {800, 1067}, {960, 1280}, {1280, 1707}, {1920, 2560}}
	if len(vs) != len(want) {
		t.Fatalf("%d variants, want %d", len(vs), len(want))
	}
	for i, v := range vs {
		if v.Width != want[i][0] || v.Height != want[i][1] || v.Ext != "jpg" {
			t.Errorf("variant %d = %dx%d %s, want %dx%d jpg", i, v.Width, v.Height, v.Ext, want[i][0], want[i][1])
		}
		if bytes.Contains(v.Data, []byte("Exif")) || bytes.Contains(v.Data, []byte(imagingtest.GPSMarker)) {
			t.Errorf("variant %d keeps metadata", i)
		}
		img, err := jpeg.Decode(bytes.NewReader(v.Data))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if b.Dx() != v.Width || b.Dy() != v.Height {
			t.Errorf("variant %d decodes as %v", i, b)
		}
		// Stored with its red band on top, turned 90° clockwise: the band is on the right.
		if r, _, bl, _ := img.At(b.Dx()-2, b.Dy()/2).RGBA(); r < 0xc000 || bl > 0x4000 {
			t.Errorf("variant %d: right edge is not red: the photo was not turned upright", i)
		}
		if r, _, bl, _ := img.At(1, b.Dy()/2).RGBA(); bl < 0xc000 || r > 0x4000 {
			t.Errorf("variant %d: left edge is not blue", i)
		}
	}
}

func TestAnUprightPhotoNarrowerThanAWidthIsNeverUpscaled(t *testing.T) {
	size, vs, err := imaging.Derive(imagingtest.Photo(t, 700, 500, 1))
	if err != nil {
		t.Fatal(err)
	}
	if size.Width != 700 || len(vs) != 6 || vs[4].Width != 640 || vs[4].Height != 457 || vs[5].Width != 700 || vs[5].Height != 500 {
		t.Fatalf("size %+v, variants %d", size, len(vs))
	}
}

func TestATransparentPNGStaysPNG(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 800, 400))
	for i := range img.Pix {
		img.Pix[i] = uint8(i % 200) // alpha varies: transparent pixels
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	_, vs, err := imaging.Derive(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 6 {
		t.Fatalf("%d variants, want 6 (160, 240, 320, 480, 640 and its own 800)", len(vs))
	}
	for _, v := range vs {
		if v.Ext != "png" || v.ContentType != "image/png" {
			t.Fatalf("variant %d is %s", v.Width, v.Ext)
		}
		if _, err := png.Decode(bytes.NewReader(v.Data)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestADecompressionBombIsRefusedFromItsHeader(t *testing.T) {
	if _, err := imaging.Check(imagingtest.Bomb(t)); !errors.Is(err, imaging.ErrTooManyPixels) {
		t.Fatalf("Check = %v, want ErrTooManyPixels", err)
	}
	if _, _, err := imaging.Derive(imagingtest.Bomb(t)); !errors.Is(err, imaging.ErrTooManyPixels) {
		t.Fatalf("Derive = %v, want ErrTooManyPixels", err)
	}
}

func TestTruncatedAndGarbageImagesAreRefused(t *testing.T) {
	src := imagingtest.Photo(t, 1000, 800, 1)
	for name, b := range map[string][]byte{
		"truncated jpeg": src[:len(src)/2],
		"garbage":        []byte("\xFF\xD8\xFF\xE0 not really a jpeg"),
		"empty":          nil,
	} {
		if _, _, err := imaging.Derive(b); !errors.Is(err, imaging.ErrCorrupt) {
			t.Errorf("%s: Derive = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestDerivingTwiceGivesTheSameBytes(t *testing.T) {
	src := imagingtest.Photo(t, 1400, 1000, 3)
	_, a, err := imaging.Derive(src)
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := imaging.Derive(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("variant %d differs between runs", i)
		}
	}
}

// TestCopiesAreAtMostOneAndAHalfTimesApart: whatever an image's width, a browser choosing a copy
// for a slot never has to take one more than 1.5 times wider than the next smaller one (a phone
// 412 pixels wide at 1.75 device pixels per CSS pixel wants 721: it gets 800, not 1280).
func TestCopiesAreAtMostOneAndAHalfTimesApart(t *testing.T) {
	for _, w := range []int{1, 200, 320, 321, 479, 480, 481, 700, 959, 960, 1000, 1281, 1919, 1920, 3000, 8000} {
		ws := imaging.WidthsFor(w)
		if len(ws) == 0 || ws[len(ws)-1] != min(w, imaging.Widths[len(imaging.Widths)-1]) {
			t.Errorf("width %d: copies %v (the widest must be its own width, up to the largest)", w, ws)
		}
		for i := 1; i < len(ws); i++ {
			if ws[i] <= ws[i-1] || float64(ws[i]) > 1.5*float64(ws[i-1]) {
				t.Errorf("width %d: copies %v: %d then %d", w, ws, ws[i-1], ws[i])
			}
		}
	}
	// A logo 256 pixels wide, shown 48 pixels high: copies a header's slot can use.
	if ws := imaging.WidthsFor(256); !slices.Equal(ws, []int{160, 240, 256}) {
		t.Errorf("a 256-pixel logo: copies %v, want 160, 240 and its own 256", ws)
	}
	for i := 1; i < len(imaging.Widths); i++ {
		if float64(imaging.Widths[i]) > 1.5*float64(imaging.Widths[i-1]) {
			t.Errorf("Widths %v: %d then %d", imaging.Widths, imaging.Widths[i-1], imaging.Widths[i])
		}
	}
}
