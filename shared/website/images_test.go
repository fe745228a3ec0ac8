package website_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestAPagesImagesOfferTheirCopiesAndNeverTheOriginal(t *testing.T) {
	tn := testkit.NewTenant(t)
	id, ref := testkit.LibraryJPEG(t, tn.ID, "photo.jpg", imagingtest.Photo(t, 2400, 1600, 1))
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
	if err := media.NewDeriver(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket, slog.New(slog.DiscardHandler)).Derive(context.Background(), scope, id); err != nil {
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
