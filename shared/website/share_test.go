package website_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// TestShareImagesAreLargeCopies: a page's, an event's and a notice's share previews (Open Graph,
// Twitter) show a large copy of their own image with its size (the original before the copies
// exist), never a thumbnail.
func TestShareImagesAreLargeCopies(t *testing.T) {
	tn := testkit.NewTenant(t)
	id, ref := testkit.LibraryJPEG(t, tn.ID, "photo.jpg", imagingtest.Photo(t, 2400, 1600, 1))
	slug := staff(t, tn, "POST", "/pages", map[string]any{"title": "Campus life", "image": ref}).Get("result.slug").(string)
	ev := staff(t, tn, "POST", "/events", map[string]any{"title": "Open day", "image": ref,
		"startDate": time.Now().AddDate(0, 0, 3).Format(time.DateOnly)}).Get("result.id").(string)
	n := staff(t, tn, "POST", "/notices", map[string]any{"title": "Term starts", "message": "Monday.", "image": ref}).Get("result.id").(string)
	origin := "http://" + tn.ID + ".localhost:8080/media/" + tn.ID + "/"
	paths := []string{"/" + slug, "/events/" + ev, "/notices/" + n}
	for _, path := range paths {
		must(t, get(t, tn, path), 200, `<meta property="og:image" content="`+origin+ref+`">`)
	}
	d := testkit.Deps(t)
	scope, _ := store.NewScope(tn.ID)
	if err := media.NewDeriver(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket, slog.New(slog.DiscardHandler)).Derive(context.Background(), scope, id); err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		p := get(t, tn, path)
		must(t, p, 200, `<meta property="og:image" content="`+origin+id+`/w/1920.jpg">`,
			`<meta property="og:image:width" content="1920">`, `<meta property="og:image:height" content="1280">`,
			`<meta name="twitter:image" content="`+origin+id+`/w/1920.jpg">`)
		if strings.Contains(p.body, `content="`+origin+id+`/w/thumb`) {
			t.Errorf("%s: a thumbnail as the share image", path)
		}
	}
}

// TestSitemapListsHomeAsRoot: the home page is in the sitemap at /, where it answers, not at
// /home, which is a redirect.
func TestSitemapListsHomeAsRoot(t *testing.T) {
	tn := testkit.NewTenant(t)
	staff(t, tn, "POST", "/pages", map[string]any{"title": "Home", "slug": "home"})
	staff(t, tn, "POST", "/pages", map[string]any{"title": "About", "slug": "about"})
	base := "http://" + tn.ID + ".localhost:8080"
	p := get(t, tn, "/sitemap.xml")
	must(t, p, 200, "<loc>"+base+"/</loc>", "<loc>"+base+"/about</loc>")
	if strings.Contains(p.body, "/home</loc>") {
		t.Errorf("the sitemap lists /home: %s", p.body)
	}
	if strings.Count(p.body, "<loc>"+base+"/</loc>") != 1 {
		t.Errorf("/ listed more than once: %s", p.body)
	}
	if r := get(t, tn, "/home"); r.status != 301 || r.header.Get("Location") != "/" {
		t.Errorf("/home: %d %s", r.status, r.header.Get("Location"))
	}
}
