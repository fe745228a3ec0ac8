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
	var set string
	for _, w := range []string{"160", "240", "320", "480", "640", "800", "960", "1280", "1920"} {
		file := w + ".jpg"
		if w == "160" {
			file = "thumb"
		} else {
			set += ", "
		}
		set += prefix + id + "/w/" + file + " " + w + "w"
	}
	// The classic theme's slider across its 66rem container, its cards in up to three columns.
	slide := "(min-width: 66rem) 64rem, calc(100vw - 2rem)"
	must(t, p, 200,
		// The hero: preloaded with its srcset and sizes, then drawn first, across the container.
		`<link rel="preload" as="image" href="`+prefix+id+`/w/1280.jpg" imagesrcset="`+set+`" imagesizes="`+slide+`" fetchpriority="high">`,
		`<img src="`+prefix+id+`/w/1280.jpg" srcset="`+set+`" sizes="`+slide+`" alt="" width="1600" height="700" fetchpriority="high">`,
		// A card below the fold: lazy, sized to its column.
		`sizes="(min-width: 66rem) 20.5rem, (min-width: 52.5rem) calc(33.33vw - 1.5rem), (min-width: 35.25rem) calc(50vw - 1.63rem), calc(100vw - 2rem)" alt="" width="800" height="600" loading="lazy" decoding="async">`)
	if strings.Contains(p.body, prefix+ref) {
		t.Error("the page links the original, which may carry the photo's GPS position")
	}
	if p.calls > 5 {
		t.Errorf("%d DynamoDB calls", p.calls)
	}
	// The card is in the page's second section: its copies wait for site.js (data-src,
	// data-srcset) behind a transparent placeholder of its proportions; without JavaScript, the
	// <noscript> copy is a plain lazy image and the placeholder is hidden.
	card := `<img src="data:image/svg+xml,%3Csvg%20xmlns=%27http://www.w3.org/2000/svg%27%20viewBox=%270%200%20800%20600%27/%3E" data-src="` +
		prefix + id + `/w/`
	must(t, p, 200, card, `data-srcset="`+set+`" data-sizes="`, `<noscript><img src="`+prefix+id+`/w/`,
		`<noscript><style>img[data-src]{display:none}</style></noscript>`)
	if strings.Count(p.body, "data-src=") != 1 {
		t.Errorf("%d held images, want the card's only (the hero in the first section is not)", strings.Count(p.body, "data-src="))
	}
}
