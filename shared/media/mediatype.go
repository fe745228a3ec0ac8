package media

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
)

// Media types of SPEC §3/§5.
const (
	TypeImage    = "IMAGE"
	TypeVideo    = "VIDEO"
	TypeAudio    = "AUDIO"
	TypeDocument = "DOCUMENT"
	TypeOther    = "OTHER"
)

// documentTypes are the mime types SPEC §5 counts as documents: PDF, Word, Excel, PowerPoint
// (old binary and Office Open XML formats) and plain text.
var documentTypes = map[string]bool{
	"application/pdf":    true,
	"application/msword": true,
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": true,
	"application/vnd.ms-excel": true,
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":         true,
	"application/vnd.ms-powerpoint":                                             true,
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": true,
	"text/plain": true,
}

// MediaTypeOf derives the mediaType of SPEC §5 from a mime type: image/, video/ and audio/
// prefixes give IMAGE, VIDEO and AUDIO; PDF, Word, Excel, PowerPoint and plain text give
// DOCUMENT; anything else OTHER.
func MediaTypeOf(mimeType string) string {
	mt := baseType(mimeType)
	switch {
	case strings.HasPrefix(mt, "image/"):
		return TypeImage
	case strings.HasPrefix(mt, "video/"):
		return TypeVideo
	case strings.HasPrefix(mt, "audio/"):
		return TypeAudio
	case documentTypes[mt]:
		return TypeDocument
	default:
		return TypeOther
	}
}

// baseType is the lowercased type/subtype of a mime type, without parameters.
func baseType(mimeType string) string {
	mt, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		mt, _, _ = strings.Cut(mimeType, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// imageAliases maps declared image types to the name net/http's sniffer uses.
var imageAliases = map[string]string{
	"image/jpg":                "image/jpeg",
	"image/pjpeg":              "image/jpeg",
	"image/x-png":              "image/png",
	"image/vnd.microsoft.icon": "image/x-icon",
	"image/ico":                "image/x-icon",
	"image/x-ms-bmp":           "image/bmp",
	"image/heif":               "image/heic",
}

// scriptable reports whether a (declared) type can carry script when rendered: HTML, XML and SVG.
func scriptable(mt string) bool {
	return mt == "text/html" || mt == "application/xhtml+xml" || mt == "text/xml" ||
		mt == "application/xml" || strings.HasSuffix(mt, "+xml") || mt == "image/svg+xml"
}

// AcceptableType reports whether an upload may be declared as mimeType at all: images must be
// raster images (an SVG is a script-capable document, not a picture we can vouch for).
func AcceptableType(mimeType string) bool {
	mt := baseType(mimeType)
	if mt == "" || !strings.Contains(mt, "/") {
		return false
	}
	return !(strings.HasPrefix(mt, "image/") && scriptable(mt))
}

var oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// sniff is net/http's content sniffing plus the image formats it does not know.
func sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return "image/tiff"
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch string(head[8:12]) {
		case "heic", "heix", "heim", "heis", "mif1", "msf1":
			return "image/heic"
		case "avif", "avis":
			return "image/avif"
		}
	}
	return baseType(http.DetectContentType(head))
}

// looksLikeMarkup reports whether the first bytes are HTML, XML or SVG, which a browser could
// render with script, whatever the sniffer calls them.
func looksLikeMarkup(head []byte, sniffed string) bool {
	if sniffed == "text/html" || sniffed == "text/xml" {
		return true
	}
	trimmed := bytes.ToLower(bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n"))
	return bytes.HasPrefix(trimmed, []byte("<svg")) || bytes.HasPrefix(trimmed, []byte("<?xml")) ||
		bytes.HasPrefix(trimmed, []byte("<!doctype")) || bytes.HasPrefix(trimmed, []byte("<html"))
}

// ContentMatches reports whether the first bytes of a file (up to 512) agree with its declared
// mime type. It is strict where a mismatch could hurt: an image must sniff as the same raster
// format, a PDF must start with %PDF-, an Office file must be a zip (Office Open XML) or an OLE
// container (old formats), text must be text, and markup (HTML, XML, SVG) must be declared as
// markup. Other types only have to not be markup in disguise.
func ContentMatches(declared string, head []byte) bool {
	mt := baseType(declared)
	sniffed := sniff(head)
	markup := looksLikeMarkup(head, sniffed)
	switch {
	case strings.HasPrefix(mt, "image/"):
		if alias, ok := imageAliases[mt]; ok {
			mt = alias
		}
		return !scriptable(mt) && !markup && sniffed == mt
	case strings.HasPrefix(mt, "video/"), strings.HasPrefix(mt, "audio/"):
		return !markup && (strings.HasPrefix(sniffed, "video/") || strings.HasPrefix(sniffed, "audio/") ||
			sniffed == "application/ogg" || sniffed == "application/octet-stream")
	case mt == "application/pdf":
		return bytes.HasPrefix(head, []byte("%PDF-"))
	case strings.HasPrefix(mt, "application/vnd.openxmlformats-officedocument."):
		return sniffed == "application/zip"
	case mt == "application/msword", mt == "application/vnd.ms-excel", mt == "application/vnd.ms-powerpoint":
		return bytes.HasPrefix(head, oleMagic)
	case scriptable(mt):
		return true
	case strings.HasPrefix(mt, "text/"):
		return !markup && sniffed == "text/plain"
	default:
		return !markup
	}
}
