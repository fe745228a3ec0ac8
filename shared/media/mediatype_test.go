package media

import (
	"testing"
)

// TestMediaTypeOf covers every case of SPEC §5.
func TestMediaTypeOf(t *testing.T) {
	cases := []struct{ mime, want string }{
		{"image/png", TypeImage},
		{"image/jpeg", TypeImage},
		{"IMAGE/GIF", TypeImage},
		{"image/webp", TypeImage},
		{"video/mp4", TypeVideo},
		{"video/webm", TypeVideo},
		{"audio/mpeg", TypeAudio},
		{"audio/wav", TypeAudio},
		{"application/pdf", TypeDocument},
		{"application/msword", TypeDocument},
		{"application/vnd.openxmlformats-officedocument.wordprocessingml.document", TypeDocument},
		{"application/vnd.ms-excel", TypeDocument},
		{"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", TypeDocument},
		{"application/vnd.ms-powerpoint", TypeDocument},
		{"application/vnd.openxmlformats-officedocument.presentationml.presentation", TypeDocument},
		{"text/plain", TypeDocument},
		{"text/plain; charset=utf-8", TypeDocument},
		{"text/csv", TypeOther},
		{"text/html", TypeOther},
		{"application/zip", TypeOther},
		{"application/json", TypeOther},
		{"application/octet-stream", TypeOther},
		{"", TypeOther},
		{"imagepng", TypeOther},
	}
	for _, c := range cases {
		t.Run(c.mime, func(t *testing.T) {
			if got := MediaTypeOf(c.mime); got != c.want {
				t.Fatalf("MediaTypeOf(%q) = %s, want %s", c.mime, got, c.want)
			}
		})
	}
}

var (
	pngHead  = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	jpegHead = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	gifHead  = []byte("GIF89a\x01\x00\x01\x00")
	webpHead = []byte("RIFF\x00\x00\x00\x00WEBPVP8 ")
	pdfHead  = []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	zipHead  = []byte("PK\x03\x04\x14\x00\x06\x00\x08\x00")
	oleHead  = append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 24)...)
	mp4Head  = []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
	heicHead = []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
	mp3Head  = []byte("ID3\x03\x00\x00\x00\x00\x00\x00")
	htmlHead = []byte("<!DOCTYPE html><html><script>alert(1)</script>")
	svgHead  = []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)
	xmlHead  = []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`)
	textHead = []byte("Opening hours: 9 to 5.\n")
)

func TestContentMatches(t *testing.T) {
	cases := []struct {
		name     string
		declared string
		head     []byte
		ok       bool
	}{
		{"png", "image/png", pngHead, true},
		{"jpeg", "image/jpeg", jpegHead, true},
		{"jpg alias", "image/jpg", jpegHead, true},
		{"gif", "image/gif", gifHead, true},
		{"webp", "image/webp", webpHead, true},
		{"heic", "image/heic", heicHead, true},
		{"jpeg declared as png", "image/png", jpegHead, false},
		{"html declared as png", "image/png", htmlHead, false},
		{"svg declared as png", "image/png", svgHead, false},
		{"svg as svg", "image/svg+xml", svgHead, false},
		{"xml svg as svg", "image/svg+xml", xmlHead, false},
		{"text declared as png", "image/png", textHead, false},
		{"pdf declared as png", "image/png", pdfHead, false},
		{"pdf", "application/pdf", pdfHead, true},
		{"html declared as pdf", "application/pdf", htmlHead, false},
		{"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", zipHead, true},
		{"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", zipHead, true},
		{"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", zipHead, true},
		{"html declared as docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", htmlHead, false},
		{"doc", "application/msword", oleHead, true},
		{"xls", "application/vnd.ms-excel", oleHead, true},
		{"ppt", "application/vnd.ms-powerpoint", oleHead, true},
		{"zip declared as doc", "application/msword", zipHead, false},
		{"text", "text/plain", textHead, true},
		{"html declared as text", "text/plain", htmlHead, false},
		{"binary declared as text", "text/plain", pngHead, false},
		{"csv", "text/csv", []byte("a,b\n1,2\n"), true},
		{"mp4", "video/mp4", mp4Head, true},
		{"html declared as video", "video/mp4", htmlHead, false},
		{"mp3", "audio/mpeg", mp3Head, true},
		{"png declared as audio", "audio/mpeg", pngHead, false},
		{"html declared as html", "text/html", htmlHead, true},
		{"zip", "application/zip", zipHead, true},
		{"html declared as zip", "application/zip", htmlHead, false},
		{"svg declared as octet-stream", "application/octet-stream", svgHead, false},
		{"bom then html declared as json", "application/json", append([]byte("\xef\xbb\xbf  "), htmlHead...), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ContentMatches(c.declared, c.head); got != c.ok {
				t.Fatalf("ContentMatches(%q, %q) = %v, want %v (sniffed %s)", c.declared, c.head, got, c.ok, sniff(c.head))
			}
		})
	}
}

func TestAcceptableType(t *testing.T) {
	for mt, want := range map[string]bool{
		"image/png": true, "application/pdf": true, "text/html": true, "image/svg+xml": false,
		"IMAGE/SVG+XML": false, "": false, "png": false,
	} {
		if got := AcceptableType(mt); got != want {
			t.Errorf("AcceptableType(%q) = %v, want %v", mt, got, want)
		}
	}
}
