package testkit

import (
	"context"
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
