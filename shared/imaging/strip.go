package imaging

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// Strip returns src without its metadata, losslessly: the image data (JPEG scans, PNG IDAT,
// GIF frames, WebP bitstreams) is copied byte for byte, and so is what decides how the pixels
// look (colour profile, JFIF and Adobe colour transform, gamma, transparency, palette, animation
// loop). Dropped: EXIF (its GPS position, camera serial, thumbnail), XMP, IPTC/Photoshop,
// comments, text chunks, timestamps, C2PA/JUMBF, vendor blocks, unknown ancillary blocks, and
// anything after the end of the image (the second pictures of multi-picture JPEGs). An EXIF
// orientation other than upright is kept, as a minimal EXIF block holding that one entry, so
// browsers and Derive still turn the picture.
//
// Stripping is idempotent: a stripped file strips to the same bytes. src is not changed. A file
// that is none of JPEG, PNG, GIF and WebP, or whose structure is cut short, is ErrCorrupt.
func Strip(src []byte) ([]byte, error) {
	var out []byte
	var err error
	switch {
	case bytes.HasPrefix(src, []byte{0xFF, 0xD8}):
		out, err = stripJPEG(src)
	case bytes.HasPrefix(src, pngSignature):
		out, err = stripPNG(src)
	case bytes.HasPrefix(src, []byte("GIF87a")), bytes.HasPrefix(src, []byte("GIF89a")):
		out, err = stripGIF(src)
	case len(src) >= 12 && string(src[:4]) == "RIFF" && string(src[8:12]) == "WEBP":
		out, err = stripWebP(src)
	default:
		return nil, fmt.Errorf("%w: not a JPEG, PNG, GIF or WebP file", ErrCorrupt)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: strip metadata: %v", ErrCorrupt, err)
	}
	return out, nil
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// errCut is a structure that runs past the end of the file.
var errCut = fmt.Errorf("cut short")

// minimalTIFF is a big-endian TIFF block whose one IFD holds only the Orientation entry.
func minimalTIFF(o orientationTag) []byte {
	b := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01")
	b = binary.BigEndian.AppendUint16(b, uint16(o))
	return append(b, 0, 0, 0, 0, 0, 0)
}

// tiffOrientation reads the orientation of an EXIF block stored in a PNG eXIf or WebP EXIF
// chunk: a TIFF block, which some writers prefix with "Exif\0\0" as in JPEG.
func tiffOrientation(b []byte) orientationTag {
	return exifOrientation(bytes.TrimPrefix(b, []byte("Exif\x00\x00")))
}

// stripJPEG walks the marker segments, copying what decodes the image and dropping metadata.
func stripJPEG(src []byte) ([]byte, error) {
	orient := orientation(src, "jpeg")
	out := make([]byte, 0, len(src))
	out = append(out, 0xFF, 0xD8)
	exifPlaced := false
	placeExif := func() {
		if !exifPlaced && orient > 1 && orient <= 8 {
			payload := append([]byte("Exif\x00\x00"), minimalTIFF(orient)...)
			out = append(binary.BigEndian.AppendUint16(append(out, 0xFF, 0xE1), uint16(len(payload)+2)), payload...)
		}
		exifPlaced = true
	}
	for i := 2; ; {
		if i >= len(src) || src[i] != 0xFF {
			return nil, fmt.Errorf("jpeg: no marker at %d", i)
		}
		for i+1 < len(src) && src[i+1] == 0xFF { // fill bytes before a marker
			i++
		}
		if i+1 >= len(src) {
			return nil, errCut
		}
		marker := src[i+1]
		switch {
		case marker == 0xD9: // end of image: anything after it goes
			placeExif()
			return append(out, 0xFF, 0xD9), nil
		case marker == 0x01 || marker >= 0xD0 && marker <= 0xD7: // standalone markers
			out = append(out, src[i:i+2]...)
			i += 2
			continue
		case marker == 0xD8 || marker == 0x00:
			return nil, fmt.Errorf("jpeg: unexpected marker %#x", marker)
		}
		if i+4 > len(src) {
			return nil, errCut
		}
		n := int(binary.BigEndian.Uint16(src[i+2:]))
		if n < 2 || i+2+n > len(src) {
			return nil, errCut
		}
		seg, payload := src[i:i+2+n], src[i+4:i+2+n]
		i += 2 + n
		jfif := marker == 0xE0 && bytes.HasPrefix(payload, []byte("JFIF\x00"))
		if !jfif {
			placeExif() // after a leading JFIF APP0, as JFIF wants it first
		}
		switch {
		case jfif:
			out = append(out, jfifWithoutThumbnail(seg)...)
		case marker == 0xE2 && bytes.HasPrefix(payload, []byte("ICC_PROFILE\x00")),
			marker == 0xEE && bytes.HasPrefix(payload, []byte("Adobe")):
			out = append(out, seg...) // colour: the profile, and how the decoder converts the samples
		case marker >= 0xE0 && marker <= 0xEF, marker == 0xFE:
			// EXIF and XMP (APP1), FlashPix and MPF (APP2), Photoshop IPTC (APP13), JUMBF/C2PA
			// (APP11), vendors' blocks, comments: metadata.
		default:
			out = append(out, seg...)
		}
		if marker != 0xDA {
			continue
		}
		// The entropy-coded data after a scan header runs to the next marker that is neither a
		// stuffed 0xFF00 nor a restart marker.
		j := i
		for ; j+1 < len(src); j++ {
			if src[j] == 0xFF && src[j+1] != 0x00 && (src[j+1] < 0xD0 || src[j+1] > 0xD7) {
				break
			}
		}
		if j+1 >= len(src) {
			return nil, errCut
		}
		out = append(out, src[i:j]...)
		i = j
	}
}

// jfifWithoutThumbnail is a JFIF APP0 segment without its thumbnail (which may show the photo
// as it was before a crop).
func jfifWithoutThumbnail(seg []byte) []byte {
	const headerLen = 4 + 14 // FF E0, length; JFIF\0, version, units, densities, thumbnail size
	if len(seg) < headerLen {
		return seg
	}
	out := append([]byte{}, seg[:headerLen]...)
	binary.BigEndian.PutUint16(out[2:], headerLen-2)
	out[headerLen-2], out[headerLen-1] = 0, 0
	return out
}

// pngKept are the chunks a PNG keeps: the critical ones and those that change how its pixels
// look (transparency, colour space, gamma, HDR, background, physical pixel size) or move (APNG).
var pngKept = map[string]bool{
	"IHDR": true, "PLTE": true, "IDAT": true, "IEND": true,
	"tRNS": true, "cHRM": true, "gAMA": true, "iCCP": true, "sBIT": true, "sRGB": true,
	"cICP": true, "mDCV": true, "cLLI": true, "bKGD": true, "hIST": true, "pHYs": true, "sPLT": true,
	"acTL": true, "fcTL": true, "fdAT": true,
}

// stripPNG keeps the chunks of pngKept and unknown critical ones, replaces eXIf by a minimal one
// when it turns the picture, and stops at IEND.
func stripPNG(src []byte) ([]byte, error) {
	out := append(make([]byte, 0, len(src)), pngSignature...)
	for i := len(pngSignature); ; {
		if i+12 > len(src) {
			return nil, errCut
		}
		n := int(binary.BigEndian.Uint32(src[i:]))
		if n < 0 || n > len(src)-i-12 {
			return nil, errCut
		}
		typ := string(src[i+4 : i+8])
		chunk, data := src[i:i+12+n], src[i+8:i+8+n]
		i += 12 + n
		switch {
		case pngKept[typ], typ[0] >= 'A' && typ[0] <= 'Z':
			out = append(out, chunk...)
		case typ == "eXIf":
			if o := tiffOrientation(data); o > 1 {
				out = append(out, pngChunk("eXIf", minimalTIFF(o))...)
			}
		}
		if typ == "IEND" {
			return out, nil
		}
	}
}

func pngChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(append(c, typ...), data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// gifApplications are the application extensions a GIF keeps: its loop count and colour profile.
var gifApplications = map[string]bool{"NETSCAPE2.0": true, "ANIMEXTS1.0": true, "ICCRGBG1012": true}

// stripGIF drops comment extensions and application extensions other than gifApplications.
func stripGIF(src []byte) ([]byte, error) {
	if len(src) < 13 {
		return nil, errCut
	}
	i := 13
	if src[10]&0x80 != 0 {
		i += 3 << (src[10]&7 + 1)
	}
	if i > len(src) {
		return nil, errCut
	}
	out := append(make([]byte, 0, len(src)), src[:i]...)
	for {
		if i >= len(src) {
			return nil, errCut
		}
		start := i
		keep := true
		switch src[i] {
		case 0x3B: // trailer
			return append(out, 0x3B), nil
		case 0x2C: // image descriptor, its local colour table, the LZW code size, the data
			if i+11 > len(src) {
				return nil, errCut
			}
			flags := src[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&7 + 1)
			}
			i++ // LZW minimum code size
		case 0x21:
			if i+2 > len(src) {
				return nil, errCut
			}
			switch label := src[i+1]; label {
			case 0xF9, 0x01: // graphic control, plain text: how frames show
			case 0xFF:
				keep = i+3+11 <= len(src) && src[i+2] == 11 && gifApplications[string(src[i+3:i+14])]
			default: // comments and unknown extensions
				keep = false
			}
			i += 2
		default:
			return nil, fmt.Errorf("gif: unknown block %#x", src[i])
		}
		for { // data sub-blocks up to their terminator
			if i >= len(src) {
				return nil, errCut
			}
			n := int(src[i])
			i += 1 + n
			if n == 0 {
				break
			}
		}
		if i > len(src) {
			return nil, errCut
		}
		if keep {
			out = append(out, src[start:i]...)
		}
	}
}

// webpKept are the chunks a WebP keeps: bitstreams, alpha, animation and its colour profile.
var webpKept = map[string]bool{"VP8 ": true, "VP8L": true, "VP8X": true, "ALPH": true, "ANIM": true, "ANMF": true, "ICCP": true}

// stripWebP keeps the chunks of webpKept, replaces EXIF by a minimal one when it turns the
// picture, and sets the extended header's EXIF and XMP flags and the RIFF size to match.
func stripWebP(src []byte) ([]byte, error) {
	size := int(binary.LittleEndian.Uint32(src[4:]))
	if size < 4 || size > len(src)-8 {
		return nil, errCut
	}
	body := []byte("WEBP")
	vp8x := -1 // where the extended header's flags are in body
	exif := false
	for i := 12; i < 8+size; {
		if i+8 > 8+size {
			return nil, errCut
		}
		typ := string(src[i : i+4])
		n := int(binary.LittleEndian.Uint32(src[i+4:]))
		end := i + 8 + n + n%2
		if n < 0 || i+8+n > 8+size {
			return nil, errCut
		}
		end = min(end, 8+size)
		switch {
		case typ == "VP8X" && n >= 10:
			vp8x = len(body) + 8
			body = append(body, src[i:end]...)
		case webpKept[typ]:
			body = append(body, src[i:end]...)
		case typ == "EXIF" && vp8x >= 0:
			if o := tiffOrientation(src[i+8 : i+8+n]); o > 1 {
				body = append(body, riffChunk("EXIF", minimalTIFF(o))...)
				exif = true
			}
		}
		i = end
	}
	if vp8x >= 0 {
		body[vp8x] &^= 0x08 | 0x04 // EXIF, XMP
		if exif {
			body[vp8x] |= 0x08
		}
	}
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...), nil
}

func riffChunk(fourCC string, data []byte) []byte {
	c := binary.LittleEndian.AppendUint32([]byte(fourCC), uint32(len(data)))
	c = append(c, data...)
	if len(data)%2 == 1 {
		c = append(c, 0)
	}
	return c
}
