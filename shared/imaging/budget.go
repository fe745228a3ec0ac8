package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// MaxDecodeBytes bounds the memory the decoders may hold for one image: 160 MB, what MaxPixels
// cost as 8-bit RGBA (the design Lambda's 512 MiB hold it beside the file and the variants). The
// pixel count alone does not bound it: a 16-bit PNG takes 8 bytes a pixel, an interlaced one half
// again, and a progressive JPEG keeps every DCT coefficient (4 bytes a sample) until its last
// scan, so a 246 kB file of 40 megapixels can take over 300 MB.
const MaxDecodeBytes = 4 * MaxPixels

// ErrTooManyBytes refuses an image whose decoding would take more than MaxDecodeBytes; the error
// is a *DecodeSizeError, which says why.
var ErrTooManyBytes = errors.New("imaging: too large to decode")

// DecodeSizeError is an image refused before decoding for the memory its decoding would take.
type DecodeSizeError struct {
	Kind          string // "16-bit RGBA PNG", "progressive JPEG", ...
	Width, Height int    // as stored
	Bytes         int64  // the decoder's estimated peak
	advice        string
}

func (e *DecodeSizeError) Error() string {
	return fmt.Sprintf("imaging: a %s of %d × %d pixels would take %d bytes to decode (at most %d)", e.Kind, e.Width, e.Height, e.Bytes, int64(MaxDecodeBytes))
}

func (e *DecodeSizeError) Unwrap() error { return ErrTooManyBytes }

// Message is the refusal as the uploader reads it: what the file is, what it would cost, what to do.
func (e *DecodeSizeError) Message() string {
	return fmt.Sprintf("This image is too large to process: as a %s of %d × %d pixels it would take %d MB of memory to open, and at most %d MB is allowed. Please save it %s.",
		e.Kind, e.Width, e.Height, (e.Bytes+999_999)/1_000_000, MaxDecodeBytes/1_000_000, e.advice)
}

// checkDecodeBytes refuses src (w×h pixels as stored, its header already read by DecodeConfig)
// when decoding it would hold more than MaxDecodeBytes.
func checkDecodeBytes(src []byte, format string, w, h int) error {
	var cost decodeCost
	switch format {
	case "png":
		cost = pngCost(src, w, h)
	case "jpeg":
		cost = jpegCost(src, w, h)
	case "gif":
		cost = decodeCost{kind: "GIF", bytes: int64(w) * int64(h)} // one paletted frame
	case "webp":
		cost = webpCost(src, w, h)
	default:
		cost = decodeCost{kind: format + " image", bytes: 4 * int64(w) * int64(h)}
	}
	if cost.bytes <= MaxDecodeBytes {
		return nil
	}
	if cost.advice == "" {
		cost.advice = "smaller"
	}
	return &DecodeSizeError{Kind: cost.kind, Width: w, Height: h, Bytes: cost.bytes, advice: cost.advice}
}

type decodeCost struct {
	kind   string
	bytes  int64
	advice string
}

// pngCost is what image/png allocates: one image of the colour type's Go model (a grey or RGB
// image with a tRNS chunk becomes NRGBA), and for an interlaced image each pass besides it (the
// largest, the last, half the image).
func pngCost(src []byte, w, h int) decodeCost {
	if len(src) < 33 {
		return decodeCost{kind: "PNG", bytes: 8 * int64(w) * int64(h)}
	}
	depth, colorType, interlaced := int(src[24]), src[25], src[28] == 1
	trns := false
	for i := 33; i+8 <= len(src); { // the chunks before the image data
		n := int64(binary.BigEndian.Uint32(src[i:]))
		typ := string(src[i+4 : i+8])
		if typ == "IDAT" || typ == "IEND" || n > int64(len(src)) {
			break
		}
		trns = trns || typ == "tRNS"
		i += 12 + int(n)
	}
	wide := depth == 16
	per := int64(4)
	names := map[byte]string{0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"}
	switch colorType {
	case 0: // grey: Gray, Gray16, or NRGBA(64) with tRNS
		per = 1
		if wide {
			per = 2
		}
		if trns {
			per = 4
			if wide {
				per = 8
			}
		}
	case 3:
		per = 1
	default: // RGB, grey+alpha, RGBA: RGBA/NRGBA, or their 64-bit forms at 16 bits
		if wide {
			per = 8
		}
	}
	full := per * int64(w) * int64(h)
	c := decodeCost{kind: fmt.Sprintf("%d-bit %s PNG", depth, names[colorType]), bytes: full}
	if interlaced {
		c.bytes += per * int64(w) * int64((h+1)/2)
		c.kind = "interlaced " + c.kind
	}
	switch {
	case wide && interlaced:
		c.advice = "with 8 bits per channel and without interlacing, or smaller"
	case wide:
		c.advice = "with 8 bits per channel, or smaller"
	case interlaced:
		c.advice = "without interlacing, or smaller"
	}
	return c
}

// jpegCost is what image/jpeg allocates: each component's samples (padded to whole MCUs); a
// progressive image keeps every component's DCT coefficients besides (64 int32 a block: 4 bytes
// a sample) until its last scan; a CMYK or RGB image is converted into a 4-byte-a-pixel copy.
func jpegCost(src []byte, w, h int) decodeCost {
	type comp struct{ id, h, v int }
	var comps []comp
	progressive, jfif, adobeRGB := false, false, false
	for i := 2; i+4 <= len(src) && src[i] == 0xFF; {
		marker := src[i+1]
		if marker == 0xFF {
			i++
			continue
		}
		n := int(binary.BigEndian.Uint16(src[i+2:]))
		if marker == 0xDA || marker == 0xD9 || n < 2 || i+2+n > len(src) {
			break
		}
		seg := src[i+4 : i+2+n]
		switch {
		case marker == 0xE0 && bytes.HasPrefix(seg, []byte("JFIF\x00")):
			jfif = true
		case marker == 0xEE && len(seg) >= 12 && bytes.HasPrefix(seg, []byte("Adobe")):
			adobeRGB = seg[11] == 0
		case (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) && len(seg) >= 6:
			progressive = marker == 0xC2
			nc := int(seg[5])
			comps = comps[:0]
			for k := 0; k < nc && 6+3*k+2 < len(seg); k++ {
				hv := seg[6+3*k+1]
				comps = append(comps, comp{id: int(seg[6+3*k]), h: max(1, int(hv>>4)), v: max(1, int(hv&15))})
			}
		}
		i += 2 + n
	}
	if len(comps) == 0 {
		return decodeCost{kind: "JPEG", bytes: 4 * int64(w) * int64(h)}
	}
	if len(comps) == 1 { // Go decodes a single component at 1×1 whatever it declares
		comps[0].h, comps[0].v = 1, 1
	}
	hmax, vmax := 1, 1
	for _, c := range comps {
		hmax, vmax = max(hmax, c.h), max(vmax, c.v)
	}
	mxx, myy := int64((w+8*hmax-1)/(8*hmax)), int64((h+8*vmax-1)/(8*vmax))
	var samples int64
	for _, c := range comps {
		samples += 8 * int64(c.h) * mxx * 8 * int64(c.v) * myy
	}
	c := decodeCost{kind: "JPEG", bytes: samples}
	rgb := len(comps) == 3 && !jfif && (adobeRGB || comps[0].id == 'R' && comps[1].id == 'G' && comps[2].id == 'B')
	if len(comps) == 4 || rgb {
		c.bytes += 4 * int64(w) * int64(h)
	}
	if len(comps) == 4 {
		c.kind = "CMYK JPEG"
	}
	if progressive {
		c.bytes += 4 * samples
		c.kind = "progressive " + c.kind
		c.advice = "as a baseline (standard) JPEG, or smaller"
	}
	return c
}

// webpCost is what golang.org/x/image/webp allocates: a lossy image is YCbCr 4:2:0 (1.5 bytes a
// pixel); a lossless one, or a lossy one with alpha (decoded by the lossless decoder), holds
// 4-byte pixels and a transformed copy.
func webpCost(src []byte, w, h int) decodeCost {
	px := int64(w) * int64(h)
	lossless := len(src) >= 16 && string(src[12:16]) == "VP8L"
	alpha := len(src) >= 21 && string(src[12:16]) == "VP8X" && src[20]&0x10 != 0
	if lossless || alpha {
		return decodeCost{kind: "lossless or transparent WebP", bytes: 8 * px}
	}
	return decodeCost{kind: "WebP", bytes: px * 3 / 2}
}
