package imaging_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image/gif"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
)

// stripped strips src and checks what every format must give: no metadata marker left, the
// same pixels, and nothing more to strip the second time.
func stripped(t *testing.T, src []byte) []byte {
	t.Helper()
	if !bytes.Contains(src, []byte(imagingtest.GPSMarker)) {
		t.Fatal("the fixture lacks its GPS marker")
	}
	clean, err := imaging.Strip(src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(clean, []byte(imagingtest.GPSMarker)) {
		t.Errorf("metadata left:\n%q", clean)
	}
	if len(clean) >= len(src) {
		t.Errorf("stripped %d bytes to %d", len(src), len(clean))
	}
	if !reflect.DeepEqual(imagingtest.Pixels(t, src), imagingtest.Pixels(t, clean)) {
		t.Error("the pixels changed")
	}
	again, err := imaging.Strip(clean)
	if err != nil || !bytes.Equal(again, clean) {
		t.Errorf("stripping again changed the file (err %v)", err)
	}
	return clean
}

// minimalExif is the TIFF block stripping keeps of an orientation: one IFD with one entry.
func minimalExif(orientation uint16) []byte {
	b := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01")
	b = binary.BigEndian.AppendUint16(b, orientation)
	return append(b, 0, 0, 0, 0, 0, 0)
}

func TestStrippingAJPEGKeepsItsImageDataAndOrientationOnly(t *testing.T) {
	src := imagingtest.DirtyPhoto(t, 640, 480, 6)
	clean := stripped(t, src)
	for _, gone := range []string{"http://ns.adobe.com/xap", "Photoshop 3.0", "8BIM", "jumb", "\x00\x48\x00\x48\x01\x01"} {
		if bytes.Contains(clean, []byte(gone)) {
			t.Errorf("%q left", gone)
		}
	}
	// The image data byte for byte, the colour profile, and JFIF without its thumbnail.
	if !bytes.Contains(clean, imagingtest.ScanData(src)) {
		t.Error("the scan data changed")
	}
	if !bytes.Contains(clean, imagingtest.ICCProfile) || !bytes.Contains(clean, []byte("JFIF\x00\x01\x01\x01\x00\x48\x00\x48\x00\x00")) {
		t.Error("the colour profile or JFIF header went")
	}
	if !bytes.HasSuffix(clean, []byte{0xFF, 0xD9}) {
		t.Error("bytes after the end of the image were kept")
	}
	// Orientation 6 stays, as the only EXIF entry: shown 480 × 640, and the variants turn it.
	if !bytes.Contains(clean, append([]byte("Exif\x00\x00"), minimalExif(6)...)) || bytes.Count(clean, []byte("Exif")) != 1 {
		t.Error("the orientation was not kept as a minimal EXIF block")
	}
	if size, err := imaging.Check(clean); err != nil || size.Width != 480 || size.Height != 640 {
		t.Errorf("size as shown %+v, %v", size, err)
	}
	// Upright photos keep no EXIF at all.
	if upright := stripped(t, imagingtest.DirtyPhoto(t, 64, 48, 1)); bytes.Contains(upright, []byte("Exif")) {
		t.Error("an upright photo kept an EXIF block")
	}
}

func TestStrippingAProgressiveJPEGKeepsEveryScan(t *testing.T) {
	src := imagingtest.ProgressiveJPEG(100, 60, 3, 2)
	dirty := append([]byte{0xFF, 0xD8}, append([]byte{0xFF, 0xFE, 0, byte(2 + len(imagingtest.GPSMarker))}, imagingtest.GPSMarker...)...)
	dirty = append(dirty, src[2:]...)
	clean := stripped(t, dirty)
	if !bytes.Equal(clean, src) {
		t.Errorf("stripped progressive JPEG differs from the clean one")
	}
}

func TestStrippingAPNGDropsItsTextAndKeepsItsOrientation(t *testing.T) {
	clean := stripped(t, imagingtest.TextPNG(t, 300, 200))
	for _, chunk := range []string{"tEXt", "zTXt", "iTXt", "tIME", "prVt"} {
		if bytes.Contains(clean, []byte(chunk)) {
			t.Errorf("chunk %s left", chunk)
		}
	}
	if !bytes.Contains(clean, append([]byte("eXIf"), minimalExif(6)...)) {
		t.Error("the orientation was not kept as a minimal eXIf chunk")
	}
	if !bytes.HasSuffix(clean, []byte("IEND\xae\x42\x60\x82")) {
		t.Error("bytes after IEND were kept")
	}
}

func TestStrippingAGIFKeepsItsFramesAndLoop(t *testing.T) {
	src := imagingtest.DirtyGIF(t)
	clean := stripped(t, src)
	if bytes.Contains(clean, []byte("XMP DataXMP")) || !bytes.Contains(clean, []byte("NETSCAPE2.0")) {
		t.Error("XMP kept or the loop extension dropped")
	}
	a, errA := gif.DecodeAll(bytes.NewReader(src))
	b, errB := gif.DecodeAll(bytes.NewReader(clean))
	if errA != nil || errB != nil || len(b.Image) != 2 || !reflect.DeepEqual(a.Image, b.Image) || a.LoopCount != b.LoopCount {
		t.Errorf("frames differ: %v %v", errA, errB)
	}
}

func TestStrippingAWebPDropsEXIFAndXMP(t *testing.T) {
	clean := stripped(t, imagingtest.DirtyWebP(t))
	if bytes.Contains(clean, []byte("XMP ")) || bytes.Contains(clean, []byte("JUNK")) {
		t.Error("XMP or an unknown chunk left")
	}
	if !bytes.Contains(clean, append([]byte("EXIF\x1a\x00\x00\x00"), minimalExif(6)...)) || clean[20]&0x04 != 0 || clean[20]&0x08 == 0 {
		t.Errorf("EXIF chunk or VP8X flags wrong: %x", clean[20])
	}
	if got := binary.LittleEndian.Uint32(clean[4:]); int(got) != len(clean)-8 {
		t.Errorf("RIFF size %d for %d bytes", got, len(clean))
	}
	// A plain file has nothing to strip.
	if plain, err := imaging.Strip(imagingtest.WebP()); err != nil || !bytes.Equal(plain, imagingtest.WebP()) {
		t.Errorf("a plain WebP changed: %v", err)
	}
}

func TestStrippingRefusesWhatIsNotAnImage(t *testing.T) {
	photo := imagingtest.Photo(t, 64, 48, 1)
	for name, src := range map[string][]byte{
		"text":      []byte("hello"),
		"truncated": photo[:len(photo)/2],
		"empty":     nil,
		"cut png":   imagingtest.TextPNG(t, 10, 10)[:40],
	} {
		if _, err := imaging.Strip(src); !errors.Is(err, imaging.ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestA16BitPNGIsBoundedByItsDecodedBytesBeforeDecoding(t *testing.T) {
	src := imagingtest.DeepPNG(t, 5000, 5000) // 25 megapixels, 8 bytes each decoded: 200 MB
	if len(src) > 400_000 {
		t.Fatalf("fixture of %d bytes", len(src))
	}
	var err error
	n := allocated(func() { _, err = imaging.Verify(src) })
	var refused *imaging.DecodeSizeError
	if !errors.As(err, &refused) || !errors.Is(err, imaging.ErrTooManyBytes) {
		t.Fatalf("Verify: %v, want a DecodeSizeError", err)
	}
	if n > 16<<20 {
		t.Errorf("refusing it allocated %d MB: it was decoded", n>>20)
	}
	want := "This image is too large to process: as a 16-bit RGBA PNG of 5000 × 5000 pixels it would take 200 MB of memory to open, and at most 160 MB is allowed. Please save it with 8 bits per channel, or smaller."
	if refused.Message() != want {
		t.Errorf("message\n%s\nwant\n%s", refused.Message(), want)
	}
	if _, _, err := imaging.Derive(src); !errors.Is(err, imaging.ErrTooManyBytes) {
		t.Errorf("Derive: %v", err)
	}
}

func TestDecodedBytesByFormatAndDepth(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		ok   bool
		kind string
	}{
		{"8-bit grey 6000×6000 (36 MB)", imagingtest.PNGHeader(6000, 6000, 8, 0, false, false), true, ""},
		{"8-bit RGB 6000×6000 (144 MB)", imagingtest.PNGHeader(6000, 6000, 8, 2, false, false), true, ""},
		{"8-bit RGB interlaced 6000×6000 (216 MB)", imagingtest.PNGHeader(6000, 6000, 8, 2, true, false), false, "interlaced 8-bit RGB PNG"},
		{"16-bit grey 6000×6000 (72 MB)", imagingtest.PNGHeader(6000, 6000, 16, 0, false, false), true, ""},
		{"16-bit grey with tRNS 6000×6000 (288 MB)", imagingtest.PNGHeader(6000, 6000, 16, 0, false, true), false, "16-bit grey PNG"},
		{"16-bit RGB 4400×4400 (155 MB)", imagingtest.PNGHeader(4400, 4400, 16, 2, false, false), true, ""},
		{"16-bit RGB 4600×4600 (169 MB)", imagingtest.PNGHeader(4600, 4600, 16, 2, false, false), false, "16-bit RGB PNG"},
		{"palette 6000×6000 (36 MB)", imagingtest.PNGHeader(6000, 6000, 8, 3, false, false), true, ""},
		{"progressive grey 6000×6000 (180 MB)", imagingtest.ProgressiveJPEG(6000, 6000, 1, 1), false, "progressive JPEG"},
		{"progressive 4:2:0 4000×3000 (90 MB)", imagingtest.ProgressiveJPEG(4000, 3000, 3, 2), true, ""},
		{"progressive 4:2:0 6000×4000 (180 MB)", imagingtest.ProgressiveJPEG(6000, 4000, 3, 2), false, "progressive JPEG"},
		{"progressive 4:4:4 4000×3000 (180 MB)", imagingtest.ProgressiveJPEG(4000, 3000, 3, 1), false, "progressive JPEG"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := imaging.Check(c.src)
			var refused *imaging.DecodeSizeError
			switch {
			case c.ok && err != nil:
				t.Fatalf("refused: %v", err)
			case !c.ok && !errors.As(err, &refused):
				t.Fatalf("%v, want a DecodeSizeError", err)
			case !c.ok && !strings.Contains(refused.Message(), "as a "+c.kind+" of "):
				t.Fatalf("message %q does not name a %s", refused.Message(), c.kind)
			}
		})
	}
}

func TestAProgressiveJPEGWithinItsBoundDecodes(t *testing.T) {
	src := imagingtest.ProgressiveJPEG(400, 300, 3, 2)
	size, err := imaging.Verify(src)
	if err != nil || size.Width != 400 || size.Height != 300 {
		t.Fatalf("%+v %v", size, err)
	}
	huge := imagingtest.ProgressiveJPEG(6000, 4000, 3, 1) // 24 megapixels 4:4:4: 360 MB decoded
	var refused *imaging.DecodeSizeError
	n := allocated(func() { _, err = imaging.Verify(huge) })
	if !errors.As(err, &refused) || n > 16<<20 {
		t.Fatalf("%v after %d MB allocated", err, n>>20)
	}
	if !strings.Contains(refused.Message(), "save it as a baseline (standard) JPEG, or smaller") {
		t.Errorf("message %q", refused.Message())
	}
}
