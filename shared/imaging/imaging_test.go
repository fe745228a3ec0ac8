package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

// photo is a w×h JPEG whose top rows are red and the rest blue, with an EXIF block holding
// orientation and a GPS position.
func photo(t testing.TB, w, h int, orientation uint16) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		c := color.RGBA{0, 0, 255, 255}
		if y < h/4 {
			c = color.RGBA{255, 0, 0, 255}
		}
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	raw := enc.Bytes()
	exif := exifBlock(orientation)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(exif)+2))
	out := append([]byte{}, raw[:2]...)
	out = append(out, seg...)
	out = append(out, exif...)
	return append(out, raw[2:]...)
}

// exifBlock is "Exif\0\0" and a little-endian TIFF with IFD0 {Orientation, GPS IFD pointer} and
// a GPS IFD {GPSLatitudeRef "N"}, followed by a marker string a test can look for.
func exifBlock(orientation uint16) []byte {
	le := binary.LittleEndian
	tiff := []byte("II*\x00")
	tiff = le.AppendUint32(tiff, 8)
	tiff = le.AppendUint16(tiff, 2)
	tiff = append(tiff, entry(0x0112, 3, 1, uint32(orientation))...)
	tiff = append(tiff, entry(0x8825, 4, 1, 8+2+24+4)...)
	tiff = le.AppendUint32(tiff, 0)
	tiff = le.AppendUint16(tiff, 1)
	tiff = append(tiff, entry(0x0001, 2, 2, uint32('N'))...)
	tiff = le.AppendUint32(tiff, 0)
	tiff = append(tiff, "GPS-48.8584N-2.2945E"...)
	return append([]byte("Exif\x00\x00"), tiff...)
}

func entry(tag, typ uint16, count, value uint32) []byte {
	le := binary.LittleEndian
	b := le.AppendUint16(nil, tag)
	b = le.AppendUint16(b, typ)
	b = le.AppendUint32(b, count)
	return le.AppendUint32(b, value)
}

func TestAPhotoTakenSidewaysGivesUprightVariantsWithoutMetadata(t *testing.T) {
	src := photo(t, 4000, 3000, 6)
	if !bytes.Contains(src, []byte("GPS-48.8584N")) {
		t.Fatal("the fixture lacks its GPS block")
	}
	size, vs, err := Derive(src)
	if err != nil {
		t.Fatal(err)
	}
	if size.Width != 3000 || size.Height != 4000 {
		t.Fatalf("size as shown = %dx%d, want 3000x4000 (orientation 6 swaps the axes)", size.Width, size.Height)
	}
	want := [][2]int{{320, 427}, {640, 853}, {1280, 1707}, {1920, 2560}}
	if len(vs) != len(want) {
		t.Fatalf("%d variants, want %d", len(vs), len(want))
	}
	for i, v := range vs {
		if v.Width != want[i][0] || v.Height != want[i][1] || v.Ext != "jpg" {
			t.Errorf("variant %d = %dx%d %s, want %dx%d jpg", i, v.Width, v.Height, v.Ext, want[i][0], want[i][1])
		}
		if bytes.Contains(v.Data, []byte("Exif")) || bytes.Contains(v.Data, []byte("GPS-48")) {
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
	size, vs, err := Derive(photo(t, 700, 500, 1))
	if err != nil {
		t.Fatal(err)
	}
	if size.Width != 700 || len(vs) != 2 || vs[1].Width != 640 || vs[1].Height != 457 {
		t.Fatalf("size %+v, variants %d (%+v)", size, len(vs), vs)
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
	_, vs, err := Derive(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 {
		t.Fatalf("%d variants, want 2 (320 and 640)", len(vs))
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

// bomb is a tiny PNG whose header declares 30,000 × 30,000 pixels.
func bomb(t testing.TB) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// IHDR: 8-byte signature, 4 length, 4 type, then width and height; its CRC follows the 13 bytes.
	binary.BigEndian.PutUint32(b[16:], 30000)
	binary.BigEndian.PutUint32(b[20:], 30000)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

func TestADecompressionBombIsRefusedFromItsHeader(t *testing.T) {
	if _, err := Check(bomb(t)); !errors.Is(err, ErrTooManyPixels) {
		t.Fatalf("Check = %v, want ErrTooManyPixels", err)
	}
	if _, _, err := Derive(bomb(t)); !errors.Is(err, ErrTooManyPixels) {
		t.Fatalf("Derive = %v, want ErrTooManyPixels", err)
	}
}

func TestTruncatedAndGarbageImagesAreRefused(t *testing.T) {
	src := photo(t, 1000, 800, 1)
	for name, b := range map[string][]byte{
		"truncated jpeg": src[:len(src)/2],
		"garbage":        []byte("\xFF\xD8\xFF\xE0 not really a jpeg"),
		"empty":          nil,
	} {
		if _, _, err := Derive(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Derive = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestDerivingTwiceGivesTheSameBytes(t *testing.T) {
	src := photo(t, 1400, 1000, 3)
	_, a, err := Derive(src)
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := Derive(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("variant %d differs between runs", i)
		}
	}
}
