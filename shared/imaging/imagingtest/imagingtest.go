// Package imagingtest makes the images the imaging and media tests feed in: camera photos with
// EXIF orientation and a GPS position, and a decompression bomb.
package imagingtest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// GPSMarker is a string inside every fixture's GPS block: a variant holding it kept metadata.
const GPSMarker = "GPS-48.8584N"

// Photo is a w×h JPEG whose top rows are red and the rest blue, with an EXIF block holding
// orientation and a GPS position.
func Photo(t testing.TB, w, h int, orientation uint16) []byte {
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
	exif := ExifBlock(orientation)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(exif)+2))
	out := append([]byte{}, raw[:2]...)
	out = append(out, seg...)
	out = append(out, exif...)
	return append(out, raw[2:]...)
}

// ExifBlock is "Exif\0\0" and a little-endian TIFF with IFD0 {Orientation, GPS IFD pointer} and
// a GPS IFD {GPSLatitudeRef "N"}, followed by a marker string a test can look for.
func ExifBlock(orientation uint16) []byte {
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
	tiff = append(tiff, GPSMarker+"-2.2945E"...)
	return append([]byte("Exif\x00\x00"), tiff...)
}

func entry(tag, typ uint16, count, value uint32) []byte {
	le := binary.LittleEndian
	b := le.AppendUint16(nil, tag)
	b = le.AppendUint16(b, typ)
	b = le.AppendUint32(b, count)
	return le.AppendUint32(b, value)
}

// Bomb is a tiny PNG whose header declares 30,000 × 30,000 pixels.
func Bomb(t testing.TB) []byte {
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

// CameraPhoto is a w×h camera-like JPEG (its grain drawn from seed) (gradients and grain, quality 88, EXIF orientation 6):
// grain keeps the file near a real photo's size, which a flat test image is not.
func CameraPhoto(tb testing.TB, w, h int, seed uint64) []byte {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	rng := rand.New(rand.NewPCG(seed, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Y[img.YOffset(x, y)] = uint8((x*255/w+y*255/h)/2 + rng.IntN(40))
		}
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(100+rng.IntN(30)), uint8(140+rng.IntN(30))
	}
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, img, &jpeg.Options{Quality: 88}); err != nil {
		tb.Fatal(err)
	}
	raw := enc.Bytes()
	exif := ExifBlock(6)
	seg := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(exif)+2))
	out := append(append(append([]byte{}, raw[:2]...), seg...), exif...)
	return append(out, raw[2:]...)
}

// TransparentPNG is a w×h PNG whose alpha varies (a logo on nothing).
func TransparentPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i % 200)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Pixels decodes src to NRGBA whatever its colour model, for comparing two files' pixels.
func Pixels(t testing.TB, src []byte) *image.NRGBA {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(src))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	out := image.NewNRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}
