package main

import (
	"testing"

	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/testkit"
)

// TestDeriveImages: an image recorded before sized copies existed gets them from derive-images,
// which can run again (nothing left to do).
func TestDeriveImages(t *testing.T) {
	tn := testkit.NewTenant(t)
	testkit.LibraryJPEG(t, tn.ID, "old.jpg", imagingtest.Photo(t, 800, 600, 1))
	runSteps(t, []step{
		{"derive", "tenant derive-images --id " + tn.ID, "", "1 images given their sized copies"},
		{"again", "tenant derive-images --id " + tn.ID, "", "0 images given their sized copies"},
		{"no tenant", "tenant derive-images --id Bad#Id", "invalid tenant id", ""},
	})
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
	want := 1 // its own width, 800
	for _, w := range imaging.Widths {
		if w < 800 {
			want++
		}
	}
	if vs, _ := res.Get("result.0.variants").([]any); len(vs) != want {
		t.Fatalf("variants after derive-images: %s, want %d", res.Raw, want)
	}
}
