package demo

import (
	"bytes"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"testing"
)

// TestMediaFiles: every demo file is what its record will say it is (the media package sniffs
// uploads the same way), at the size its use needs, small enough for a quick page, and the same
// bytes on every run (a retry rewrites identical objects).
func TestMediaFiles(t *testing.T) {
	files := mediaFiles("Riverside Community College")
	bodies := renderAll(files)
	again := renderAll(files)
	want := map[string][2]int{"hero-1": {bannerW, bannerH}, "banner-admissions": {bannerW, bannerH},
		"card-science": {cardW, cardH}, "campus-life-1": {photoW, photoH}, "portrait-1": {avatarW, avatarH}, "logo": {logoSize, logoSize}}
	seen := map[string]bool{}
	for i, f := range files {
		t.Run(f.key, func(t *testing.T) {
			b := bodies[i]
			switch {
			case seen[f.name]:
				t.Fatalf("file name %s is used twice", f.name)
			case len(b) > 120_000:
				t.Fatalf("%d bytes", len(b))
			case !bytes.Equal(b, again[i]):
				t.Fatal("rendered differently the second time")
			case http.DetectContentType(b) != f.mimeType:
				t.Fatalf("sniffed %s, declared %s", http.DetectContentType(b), f.mimeType)
			}
			seen[f.name] = true
			size, ok := want[f.key]
			if !ok {
				return
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != size[0] || cfg.Height != size[1] {
				t.Fatalf("%d×%d, want %d×%d", cfg.Width, cfg.Height, size[0], size[1])
			}
		})
	}
}
