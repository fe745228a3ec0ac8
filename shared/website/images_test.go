package website_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// libraryPhoto puts a w×h photo in the tenant's library as a confirmed upload would, and
// returns its id and reference.
func libraryPhoto(t *testing.T, tn testkit.Tenant, w, h int) (id, ref string) {
	t.Helper()
	d := testkit.Deps(t)
	scope, _ := store.NewScope(tn.ID)
	src := imagingtest.Photo(t, w, h, 1)
	id = ids.New()
	ref = id + "/photo.jpg"
	_, err := s3client.New(d.AWS).PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(d.Config.MediaBucket),
		Key: aws.String("media/" + tn.ID + "/" + ref), Body: bytes.NewReader(src), ContentType: aws.String("image/jpeg")})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if _, err := media.Add(context.Background(), d.Store, scope, media.Item{ID: id, Name: "Photo", FileURL: ref, FileSize: int64(len(src)),
		MimeType: "image/jpeg", MediaType: media.TypeImage, Width: w, Height: h, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	return id, ref
}

func TestAPagesImagesOfferTheirCopiesAndNeverTheOriginal(t *testing.T) {
	tn := testkit.NewTenant(t)
	id, ref := libraryPhoto(t, tn, 2400, 1600)
	res := staff(t, tn, "POST", "/pages", map[string]any{"title": "Campus life"})
	pageID, slug := res.Get("result.id").(string), res.Get("result.slug").(string)
	staff(t, tn, "PATCH", "/pages/"+pageID, map[string]any{"pageSections": []map[string]any{
		{"pageSectionTypeId": "1", "title": "Slides", "config": `[{"id":"i1","title":"Welcome","image":"` + ref + `"}]`},
		{"pageSectionTypeId": "2", "title": "Cards", "config": `[{"id":"i2","title":"Card","image":"` + ref + `"}]`},
	}})
	prefix := "/media/" + tn.ID + "/"

	// Before its copies exist, the page shows the original.
	p := get(t, tn, "/"+slug)
	must(t, p, 200, `src="`+prefix+ref+`"`)
	if strings.Contains(p.body, "srcset") {
		t.Error("a srcset before the copies exist")
	}

	d := testkit.Deps(t)
	scope, _ := store.NewScope(tn.ID)
	if err := media.NewDeriver(d.Store, s3client.New(d.AWS), d.Config.MediaBucket, slog.New(slog.DiscardHandler)).Derive(context.Background(), scope, id); err != nil {
		t.Fatal(err)
	}
	p = get(t, tn, "/"+slug)
	set := prefix + id + "/w/thumb 320w, " + prefix + id + "/w/640.jpg 640w, " + prefix + id + "/w/1280.jpg 1280w, " + prefix + id + "/w/1920.jpg 1920w"
	must(t, p, 200,
		// The hero: preloaded with its srcset, then drawn first, full width.
		`<link rel="preload" as="image" href="`+prefix+id+`/w/1280.jpg" imagesrcset="`+set+`" imagesizes="100vw" fetchpriority="high">`,
		`<img src="`+prefix+id+`/w/1280.jpg" srcset="`+set+`" sizes="100vw" alt="" width="1600" height="700" fetchpriority="high">`,
		// A card below the fold: lazy, sized to its column.
		`sizes="(min-width: 64rem) 22rem, (min-width: 40rem) 50vw, 100vw" alt="" width="800" height="600" loading="lazy" decoding="async">`)
	if strings.Contains(p.body, prefix+ref) {
		t.Error("the page links the original, which may carry the photo's GPS position")
	}
	if p.calls > 5 {
		t.Errorf("%d DynamoDB calls", p.calls)
	}
}
