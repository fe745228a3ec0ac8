package testkit

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
)

// LibraryJPEG puts a JPEG in the tenant's media library as a confirmed upload leaves it (the
// object under media/{tenant}/, then its record, no sized copies yet) and returns the record's
// id and the file's reference.
func LibraryJPEG(t testing.TB, tenant, name string, body []byte) (id, ref string) {
	t.Helper()
	d := Deps(t)
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	id = ids.New()
	ref = id + "/" + name
	if err := s3rest.New(d.AWS).Put(context.Background(), d.Config.MediaBucket, "media/"+tenant+"/"+ref, body,
		s3rest.Meta{ContentType: "image/jpeg"}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if _, err := media.Add(context.Background(), d.Store, scope, media.Item{ID: id, Name: name, FileURL: ref, FileSize: int64(len(body)),
		MimeType: "image/jpeg", MediaType: media.TypeImage, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	return id, ref
}

// SmallJPEG is a small, valid JPEG (40×30): a file an upload's checks accept.
func SmallJPEG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for x := 0; x < 40; x++ {
		img.Set(x, x%30, color.RGBA{200, 120, 40, 255})
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
