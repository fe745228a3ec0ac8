package imagingtest

import (
	"bytes"
	"compress/zlib"
	_ "embed"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"testing"
)

// Metadata blocks of the fixtures below: each holds GPSMarker, so a file still holding it kept
// some metadata.
var (
	xmpPacket = []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="` + GPSMarker + `"/></rdf:RDF></x:xmpmeta>`)
	comment   = []byte("shot at " + GPSMarker)
)

// jpegSegment is one JPEG marker segment: FF marker, its length, the payload.
func jpegSegment(marker byte, payload []byte) []byte {
	seg := binary.BigEndian.AppendUint16([]byte{0xFF, marker}, uint16(len(payload)+2))
	return append(seg, payload...)
}

// JFIF is a JFIF APP0 payload (version 1.01, 72 dpi) with a 1×1 thumbnail.
var JFIF = []byte("JFIF\x00\x01\x01\x01\x00\x48\x00\x48\x01\x01\x10\x20\x30")

// ICCProfile is an APP2 ICC_PROFILE payload (a stand-in profile): colour, kept by stripping.
var ICCProfile = []byte("ICC_PROFILE\x00\x01\x01stand-in-profile")

// DirtyPhoto is Photo(w, h, orientation) carrying everything a phone or an editor leaves in a
// JPEG: a JFIF APP0 with a thumbnail, the EXIF block (orientation, GPS), an XMP APP1, a Photoshop
// IPTC APP13, a comment, an ICC profile, and after the end of the image a second JPEG with its own
// EXIF (a Multi-Picture Format depth map or preview does this).
func DirtyPhoto(t testing.TB, w, h int, orientation uint16) []byte {
	t.Helper()
	photo := Photo(t, w, h, orientation) // SOI, APP1 Exif, the encoder's segments
	out := append([]byte{}, photo[:2]...)
	out = append(out, jpegSegment(0xE0, JFIF)...)
	out = append(out, photo[2:]...)
	extra := jpegSegment(0xE1, append([]byte("http://ns.adobe.com/xap/1.0/\x00"), xmpPacket...))
	extra = append(extra, jpegSegment(0xED, append([]byte("Photoshop 3.0\x008BIM\x04\x04\x00\x00"), comment...))...)
	extra = append(extra, jpegSegment(0xFE, comment)...)
	extra = append(extra, jpegSegment(0xE2, ICCProfile)...)
	extra = append(extra, jpegSegment(0xEB, append([]byte("JP\x00\x00jumb"), comment...))...) // C2PA / JUMBF
	// After the EXIF APP1 (SOI, APP0, APP1): the encoder's DQT and the rest follow.
	at := 2 + 4 + len(JFIF) + 4 + len(ExifBlock(orientation))
	out = append(out[:at:at], append(extra, out[at:]...)...)
	return append(out, Photo(t, 16, 16, 1)...) // trailing: a second image with its GPS block
}

// ScanData is a JPEG's entropy-coded data with its scan headers: from the first SOS marker to
// the end of the image (EOI included), which stripping must keep byte for byte.
func ScanData(jpeg []byte) []byte {
	start := bytes.Index(jpeg, []byte{0xFF, 0xDA})
	end := bytes.Index(jpeg[start:], []byte{0xFF, 0xD9})
	return jpeg[start : start+end+2]
}

// ProgressiveJPEG is a valid progressive JPEG of w×h pixels, mid-grey: one DC scan (an image
// needs no AC scan), a handful of bytes per thousand blocks, so a test can have huge dimensions
// cheaply. comps is 1 (grey), 3 with sampling 1 (4:4:4) or 2 (4:2:0 luma).
func ProgressiveJPEG(w, h, comps, sampling int) []byte {
	out := []byte{0xFF, 0xD8}
	out = append(out, jpegSegment(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))...)
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(comps)}
	hv := []int{sampling}
	if comps == 1 {
		hv = []int{1}
	}
	for i := 1; i < comps; i++ {
		hv = append(hv, 1)
	}
	units := 0
	for i := range comps {
		sof = append(sof, byte(i+1), byte(hv[i]<<4|hv[i]), 0)
		units += hv[i] * hv[i]
	}
	out = append(out, jpegSegment(0xC2, sof)...)
	// DC table 0: one code of length 1, for category 0 (no difference).
	out = append(out, jpegSegment(0xC4, append([]byte{0x00, 1}, append(make([]byte, 15), 0)...))...)
	sos := []byte{byte(comps)}
	for i := range comps {
		sos = append(sos, byte(i+1), 0)
	}
	out = append(out, jpegSegment(0xDA, append(sos, 0, 0, 0))...)
	mcus := ((w + 8*hv[0] - 1) / (8 * hv[0])) * ((h + 8*hv[0] - 1) / (8 * hv[0]))
	bits := mcus * units
	if comps == 1 {
		bits = ((w + 7) / 8) * ((h + 7) / 8)
	}
	data := make([]byte, (bits+7)/8)
	if r := bits % 8; r != 0 {
		data[len(data)-1] = byte(0xFF >> r) // padded with 1 bits
	}
	out = append(out, data...)
	return append(out, 0xFF, 0xD9)
}

// pngChunk is one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// TextPNG is TransparentPNG(w, h) carrying text chunks (tEXt, zTXt, iTXt with XMP), an eXIf
// chunk (orientation 6 and GPS), a tIME chunk, a private chunk and bytes after its end.
func TextPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	src := TransparentPNG(t, w, h)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(comment)
	_ = zw.Close()
	meta := pngChunk("tEXt", append([]byte("Comment\x00"), comment...))
	meta = append(meta, pngChunk("zTXt", append([]byte("Description\x00\x00"), z.Bytes()...))...)
	meta = append(meta, pngChunk("iTXt", append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), xmpPacket...))...)
	meta = append(meta, pngChunk("eXIf", ExifBlock(6)[6:])...)
	meta = append(meta, pngChunk("tIME", []byte{0x07, 0xE8, 1, 2, 3, 4, 5})...)
	meta = append(meta, pngChunk("prVt", comment)...)
	at := 8 + 25 // after the signature and IHDR
	out := append(append(append([]byte{}, src[:at]...), meta...), src[at:]...)
	return append(out, comment...)
}

// PNGHeader is the start of a PNG of w×h pixels with the given bit depth, colour type and
// interlace method (a palette and, when trns, a transparency chunk), up to an empty IDAT and
// IEND: enough for a header check, never for a decode.
func PNGHeader(w, h int, depth, colorType byte, interlace bool, trns bool) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, depth, colorType, 0, 0, 0)
	if interlace {
		ihdr[12] = 1
	}
	out := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
	if colorType == 3 {
		out = append(out, pngChunk("PLTE", []byte{0, 0, 0, 255, 255, 255})...)
	}
	if trns {
		out = append(out, pngChunk("tRNS", []byte{0, 0})...)
	}
	return append(append(out, pngChunk("IDAT", nil)...), pngChunk("IEND", nil)...)
}

// DeepPNG is a valid 16-bit RGBA PNG of w×h black pixels: its rows of zeros compress about a
// thousand to one, so 5000 × 5000 pixels (200 MB decoded) fit in some 200 kB.
func DeepPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 16, 6, 0, 0, 0)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, 1+8*w) // filter type 0, then the pixels
	for range h {
		if _, err := zw.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

// DirtyGIF is a two-frame looping GIF carrying a comment extension and an XMP application
// extension.
func DirtyGIF(t testing.TB) []byte {
	t.Helper()
	frames := make([]*image.Paletted, 2)
	for i := range frames {
		frames[i] = image.NewPaletted(image.Rect(0, 0, 20, 10), palette.Plan9)
		for x := range 20 {
			frames[i].Set(x, x%10, color.RGBA{uint8(100 * i), 200, 0, 255})
		}
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: frames, Delay: []int{10, 10}, LoopCount: 0}); err != nil {
		t.Fatal(err)
	}
	src := buf.Bytes()
	// Header and screen descriptor (13 bytes) and the global colour table if any.
	at := 13
	if src[10]&0x80 != 0 {
		at += 3 << (src[10]&7 + 1)
	}
	ext := append([]byte{0x21, 0xFE}, subBlocks(comment)...)
	ext = append(ext, 0x21, 0xFF, 11)
	ext = append(ext, "XMP DataXMP"...)
	ext = append(ext, subBlocks(xmpPacket)...)
	return append(append(append([]byte{}, src[:at]...), ext...), src[at:]...)
}

// subBlocks is data as GIF data sub-blocks with their terminator.
func subBlocks(data []byte) []byte {
	var out []byte
	for len(data) > 0 {
		n := min(255, len(data))
		out = append(append(out, byte(n)), data[:n]...)
		data = data[n:]
	}
	return append(out, 0)
}

//go:embed testdata/gopher.webp
var gopherWebP []byte // golang.org/x/image's testdata gopher-doc.1bpp.lossless.webp (BSD licence)

// DirtyWebP is a lossless WebP in the extended format carrying an EXIF chunk (orientation 6 and
// GPS), an XMP chunk and an unknown chunk.
func DirtyWebP(t testing.TB) []byte {
	t.Helper()
	cfg, _, err := image.DecodeConfig(bytes.NewReader(gopherWebP))
	if err != nil {
		t.Fatal(err)
	}
	vp8x := []byte{0x08 | 0x04, 0, 0, 0}
	vp8x = appendUint24(vp8x, cfg.Width-1)
	vp8x = appendUint24(vp8x, cfg.Height-1)
	body := []byte("WEBP")
	body = append(body, riffChunk("VP8X", vp8x)...)
	body = append(body, gopherWebP[12:]...) // its VP8L chunk
	body = append(body, riffChunk("EXIF", ExifBlock(6)[6:])...)
	body = append(body, riffChunk("XMP ", xmpPacket)...)
	body = append(body, riffChunk("JUNK", comment)...)
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
}

// WebP is the plain lossless WebP DirtyWebP is made of.
func WebP() []byte { return append([]byte{}, gopherWebP...) }

func riffChunk(fourCC string, data []byte) []byte {
	c := binary.LittleEndian.AppendUint32([]byte(fourCC), uint32(len(data)))
	c = append(c, data...)
	if len(data)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

func appendUint24(b []byte, v int) []byte { return append(b, byte(v), byte(v>>8), byte(v>>16)) }
