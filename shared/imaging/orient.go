package imaging

import (
	"encoding/binary"
	"image"
)

// orientationTag is EXIF's Orientation: how the stored pixels must be turned to be shown
// upright (1 upright, 2 mirrored, 3 turned 180°, 4 flipped, 5–8 the same with axes swapped).
type orientationTag int

func (o orientationTag) swapsAxes() bool { return o >= 5 && o <= 8 }

// orientation reads the EXIF Orientation of a JPEG (1 when there is none or it is unreadable).
// Only the APP1 segments before the image data are read, each bounded by its own length.
func orientation(src []byte, format string) orientationTag {
	if format != "jpeg" || len(src) < 4 || src[0] != 0xFF || src[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(src); {
		if src[i] != 0xFF {
			return 1
		}
		marker := src[i+1]
		if marker == 0xDA || marker == 0xD9 { // start of scan or end of image: no more metadata
			return 1
		}
		n := int(binary.BigEndian.Uint16(src[i+2:]))
		if n < 2 || i+2+n > len(src) {
			return 1
		}
		seg := src[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 6 && string(seg[:6]) == "Exif\x00\x00" {
			return exifOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// exifOrientation finds tag 0x0112 in the first IFD of a TIFF block.
func exifOrientation(tiff []byte) orientationTag {
	if len(tiff) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 1
	}
	ifd := int(order.Uint32(tiff[4:]))
	if ifd < 8 || ifd+2 > len(tiff) {
		return 1
	}
	count := int(order.Uint16(tiff[ifd:]))
	for e := 0; e < count; e++ {
		at := ifd + 2 + e*12
		if at+12 > len(tiff) {
			return 1
		}
		if order.Uint16(tiff[at:]) == 0x0112 {
			if v := orientationTag(order.Uint16(tiff[at+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}

// apply returns img turned upright.
func (o orientationTag) apply(img *image.RGBA) *image.RGBA {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := w, h
	if o.swapsAxes() {
		ow, oh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			si, di := img.PixOffset(x, y), out.PixOffset(dx, dy)
			copy(out.Pix[di:di+4], img.Pix[si:si+4])
		}
	}
	return out
}
