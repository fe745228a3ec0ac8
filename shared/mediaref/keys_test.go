package mediaref

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/store"
)

func TestCheckKey(t *testing.T) {
	acme, _ := store.NewScope("acme")
	const ref = "01ARZ3NDEKTSV4RRFFQ69G5FAV/photo.png"
	cases := []struct {
		name, key, want string
		ok              bool
	}{
		{"stored form", ref, ref, true},
		{"served path of own tenant", "/media/acme/" + ref, ref, true},
		{"object key of own tenant", "media/acme/" + ref, ref, true},
		{"served path of another tenant", "/media/acme-corp/" + ref, "", false},
		{"object key of another tenant", "media/other/" + ref, "", false},
		{"upload key", "uploads/acme/" + ref, "", false},
		{"parent dir", "01ARZ3NDEKTSV4RRFFQ69G5FAV/../x.png", "", false},
		{"dot dot in name", "01ARZ3NDEKTSV4RRFFQ69G5FAV/..png", "", false},
		{"traversal to another tenant", "../other/" + ref, "", false},
		{"absolute URL", "https://evil.example/" + ref, "", false},
		{"no id", "photo.png", "", false},
		{"lowercase id", "01arz3ndektsv4rrffq69g5fav/photo.png", "", false},
		{"nested", "01ARZ3NDEKTSV4RRFFQ69G5FAV/a/photo.png", "", false},
		{"empty", "", "", false},
		{"query string", ref + "?x=1", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Normalize(acme, c.key)
			if (err == nil) != c.ok || got != c.want {
				t.Fatalf("Normalize(%q) = %q, %v; want %q ok=%v", c.key, got, err, c.want, c.ok)
			}
			if (CheckKey(acme, c.key) == nil) != c.ok {
				t.Fatalf("CheckKey(%q) disagrees with Normalize", c.key)
			}
		})
	}
}

func TestParseUploadKey(t *testing.T) {
	acme, _ := store.NewScope("acme")
	if id, name, ok := ParseUploadKey(acme, "uploads/acme/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png"); !ok || id != "01ARZ3NDEKTSV4RRFFQ69G5FAV" || name != "a.png" {
		t.Fatalf("own upload key: %q %q %v", id, name, ok)
	}
	for _, k := range []string{"uploads/acme-corp/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png", "media/acme/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png",
		"uploads/acme/01ARZ3NDEKTSV4RRFFQ69G5FAV/../a.png", "uploads/acme/x/a.png"} {
		if _, _, ok := ParseUploadKey(acme, k); ok {
			t.Errorf("parseUploadKey accepted %q", k)
		}
	}
}

func TestSafeName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"photo.png", "photo.png"},
		{"My Photo (1).PNG", "My-Photo-1-.PNG"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\me\cv.pdf`, "cv.pdf"},
		{"..", "file"},
		{"...hidden", "hidden"},
		{"a..b.png", "a.b.png"},
		{"Résumé.pdf", "R-sum-.pdf"},
		{"<script>.html", "script-.html"},
		{"", "file"},
		{strings.Repeat("x", 150) + ".jpeg", strings.Repeat("x", 95) + ".jpeg"},
	}
	for _, c := range cases {
		if got := SafeName(c.in); got != c.want {
			t.Errorf("SafeName(%q) = %q, want %q", c.in, got, c.want)
		}
		if !refPattern().MatchString("01ARZ3NDEKTSV4RRFFQ69G5FAV/" + SafeName(c.in)) {
			t.Errorf("SafeName(%q) = %q does not fit a key", c.in, SafeName(c.in))
		}
	}
}

func TestOnlyAnOriginalsKeyNamesAFileToDerive(t *testing.T) {
	id := "01HZY3W4Q8X7K6J5H4G3F2E1D0"
	tenant, ref, ok := ParseObjectKey("media/acme/" + id + "/photo.jpg")
	if !ok || tenant != "acme" || ref != id+"/photo.jpg" {
		t.Fatalf("original: %q %q %v", tenant, ref, ok)
	}
	for _, key := range []string{"media/acme/" + VariantRef(id, 320, "jpg"), "uploads/acme/" + id + "/photo.jpg",
		"trash/acme/" + id + "/photo.jpg", "media/acme/" + id + "/../x.jpg", "media/acme"} {
		if _, _, ok := ParseObjectKey(key); ok {
			t.Errorf("%s taken for an original", key)
		}
	}
}
