package website_test

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/themes"
)

// demoSite is a tenant seeded with the demo institution, its images given their copies, and one
// address of every kind of page the website serves (as the browser tests visit them).
var demoSite struct {
	once  sync.Once
	tn    testkit.Tenant
	paths []string
	err   error
}

func demoPages(t *testing.T) (testkit.Tenant, []string) {
	t.Helper()
	demoSite.once.Do(func() {
		d := testkit.Deps(t)
		tn := testkit.NewTenant(t)
		ctx := context.Background()
		if _, err := demo.Seed(ctx, d.Store, s3client.New(d.AWS), d.Config.MediaBucket, tn.ID); err != nil {
			demoSite.err = err
			return
		}
		scope, _ := store.NewScope(tn.ID)
		if _, err := media.NewDeriver(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket, slog.New(slog.DiscardHandler)).DeriveTenant(ctx, scope); err != nil {
			demoSite.err = err
			return
		}
		first := func(collection string) string {
			res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/" + collection + "?limit=5", Tenant: tn.ID, Token: tn.AdminToken})
			id, _ := res.Get("result.0.id").(string)
			if id == "" {
				demoSite.err = fmt.Errorf("the demo has no %s: %s", collection, res.Raw)
			}
			return id
		}
		demoSite.tn = tn
		demoSite.paths = []string{"/", "/about", "/events", "/events/" + first("events"), "/notices", "/notices/" + first("notices"),
			"/albums", "/albums/" + first("albums"), "/staff", "/departments", "/faqs", "/resources", "/testimonials",
			"/forms/" + first("custom-forms"), "/search?q=campus", "/search?q=zzzz", "/no-such-page"}
	})
	if demoSite.err != nil {
		t.Fatal(demoSite.err)
	}
	return demoSite.tn, demoSite.paths
}

// parsed is what the page tests read of a page's HTML.
type parsed struct {
	headings []int // the levels of h1…h6 in document order
	imgs     []map[string]string
	preloads []map[string]string // <link rel=preload as=image>
}

func parsePage(t *testing.T, body string) parsed {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out parsed
	attrs := func(n *html.Node) map[string]string {
		m := map[string]string{}
		for _, a := range n.Attr {
			m[a.Key] = a.Val
		}
		return m
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "h1", "h2", "h3", "h4", "h5", "h6":
				out.headings = append(out.headings, int(n.Data[1]-'0'))
			case "img":
				out.imgs = append(out.imgs, attrs(n))
			case "link":
				if a := attrs(n); a["rel"] == "preload" && a["as"] == "image" {
					out.preloads = append(out.preloads, a)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// srcsetWidths are the widths a srcset offers, smallest first.
func srcsetWidths(t *testing.T, set string) []int {
	t.Helper()
	var ws []int
	for _, c := range strings.Split(set, ",") {
		f := strings.Fields(c)
		if len(f) != 2 || !strings.HasSuffix(f[1], "w") {
			t.Fatalf("srcset candidate %q", c)
		}
		w, err := strconv.Atoi(strings.TrimSuffix(f[1], "w"))
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	sort.Ints(ws)
	return ws
}

// TestEveryPageTypeInEveryTheme: on every kind of page in every theme, with the demo's content
// and its images' copies,
//   - no heading level is skipped (h1 first, then at most one level deeper at a time);
//   - every image of the library offers its copies (srcset, each at most 1.5 times the width of
//     the one before) with sizes, width and height;
//   - the page's first, largest image (the hero) is the one image fetched first
//     (fetchpriority=high) and is preloaded with the same srcset and sizes, so the browser's
//     choice of copy for the preload is the image's; every other one below the header is lazy;
//   - a page with an image and sections (the demo's /about) has a hero.
func TestEveryPageTypeInEveryTheme(t *testing.T) {
	tn, paths := demoPages(t)
	library := "/media/" + tn.ID + "/"
	inEveryTheme(t, tn, func(th themes.Theme) {
		for _, path := range paths {
			p := get(t, tn, path)
			if p.status != 200 && !(path == "/no-such-page" && p.status == 404) {
				t.Fatalf("%s %s: %d", th.ID, path, p.status)
			}
			where := th.ID + " " + path
			pg := parsePage(t, p.body)
			if len(pg.headings) == 0 || pg.headings[0] != 1 {
				t.Errorf("%s: headings %v do not start with h1", where, pg.headings)
			}
			for i := 1; i < len(pg.headings); i++ {
				if pg.headings[i] > pg.headings[i-1]+1 {
					t.Errorf("%s: headings %v skip from h%d to h%d", where, pg.headings, pg.headings[i-1], pg.headings[i])
					break
				}
			}
			var heroes []map[string]string
			header := headerImages(p.body)
			for _, img := range pg.imgs {
				if !strings.HasPrefix(img["src"], library) {
					continue
				}
				if img["srcset"] == "" || img["sizes"] == "" || img["width"] == "" || img["height"] == "" {
					t.Errorf("%s: %s lacks srcset, sizes, width or height", where, img["src"])
					continue
				}
				ws := srcsetWidths(t, img["srcset"])
				for i := 1; i < len(ws); i++ {
					if float64(ws[i]) > 1.5*float64(ws[i-1]) {
						t.Errorf("%s: %s offers copies %v: %d then %d", where, img["src"], ws, ws[i-1], ws[i])
					}
				}
				switch {
				case img["fetchpriority"] == "high":
					heroes = append(heroes, img)
				case img["loading"] != "lazy" && !header[img["src"]]:
					t.Errorf("%s: %s (sizes %q) is neither the hero nor lazy", where, img["src"], img["sizes"])
				}
			}
			if len(heroes) > 1 {
				t.Errorf("%s: %d images fetched first", where, len(heroes))
			}
			if path == "/about" && len(heroes) == 0 {
				t.Errorf("%s: no hero image", where)
			}
			if len(heroes) == 1 {
				h := heroes[0]
				if len(pg.preloads) != 1 || pg.preloads[0]["imagesrcset"] != h["srcset"] || pg.preloads[0]["imagesizes"] != h["sizes"] ||
					pg.preloads[0]["fetchpriority"] != "high" {
					t.Errorf("%s: the hero (srcset %q, sizes %q) is not preloaded as it is drawn: %v", where, h["srcset"], h["sizes"], pg.preloads)
				}
			} else if len(pg.preloads) > 0 {
				t.Errorf("%s: an image preloaded that the page does not draw first: %v", where, pg.preloads)
			}
		}
	})
}

// headerImages are the srcs of the images of a page's site header (its logo: small, at the top
// of every page, never lazy).
func headerImages(body string) map[string]bool {
	out := map[string]bool{}
	if m := regexp.MustCompile(`(?s)<header class="site-header.*?</header>`).FindString(body); m != "" {
		for _, src := range regexp.MustCompile(`<img[^>]* src="([^"]+)"`).FindAllStringSubmatch(m, -1) {
			out[html.UnescapeString(src[1])] = true
		}
	}
	return out
}
