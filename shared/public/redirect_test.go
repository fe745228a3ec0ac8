package public_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	publicpkg "github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// Reader.Redirect finds the tenant's redirect from an address however it is spelled, with one
// GetItem (none for the home page without a WordPress query), and never another tenant's.
func TestReaderRedirect(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	id := create(t, a, "redirects", map[string]any{"fromPath": "/Über-uns/", "to": "/about", "statusCode": "302"})
	wp := create(t, a, "redirects", map[string]any{"fromPath": "/?page_id=7", "to": "https://www.example.org/"})
	rd, err := publicpkg.NewReader(testkit.Deps(t).Store, "/media/")
	if err != nil {
		t.Fatal(err)
	}
	site := func(tenant string) *publicpkg.Site {
		scope, err := store.NewScope(tenant)
		if err != nil {
			t.Fatal(err)
		}
		return rd.Site(scope, "http://"+tenant+".localhost")
	}
	cases := []struct {
		name, tenant, target string
		want                 publicpkg.Redirect
		found                bool
		calls                int64
	}{
		{"as stored", a.ID, "/%C3%9Cber-uns", publicpkg.Redirect{ID: id, To: "/about", Status: http.StatusFound}, true, 1},
		{"lower-case escapes, trailing slash", a.ID, "/%c3%9cber-uns/", publicpkg.Redirect{ID: id, To: "/about", Status: http.StatusFound}, true, 1},
		{"a WordPress query among others", a.ID, "/?utm_source=x&page_id=7", publicpkg.Redirect{ID: wp, To: "https://www.example.org/", Status: http.StatusMovedPermanently}, true, 1},
		{"another page id", a.ID, "/?page_id=8", publicpkg.Redirect{}, false, 1},
		{"the home page", a.ID, "/", publicpkg.Redirect{}, false, 0},
		{"case matters", a.ID, "/%C3%BCber-uns", publicpkg.Redirect{}, false, 1},
		{"another tenant", b.ID, "/%C3%9Cber-uns", publicpkg.Redirect{}, false, 1},
		{"another tenant's query", b.ID, "/?page_id=7", publicpkg.Redirect{}, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := url.Parse(c.target)
			if err != nil {
				t.Fatal(err)
			}
			ctx, calls := awsclient.WithCallCounter(context.Background())
			got, found, err := rd.Redirect(ctx, site(c.tenant), u)
			if err != nil || found != c.found || got != c.want {
				t.Fatalf("Redirect(%s) = %+v, %v, %v; want %+v, %v", c.target, got, found, err, c.want, c.found)
			}
			if calls.Load() != c.calls {
				t.Errorf("%d DynamoDB calls, want %d", calls.Load(), c.calls)
			}
		})
	}
}

// WriteRedirect answers with the status, Location and cache headers, and a body linking the
// target (escaped), none for HEAD.
func TestWriteRedirect(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method string
		rd     publicpkg.Redirect
		cache  string
	}{
		{"GET", publicpkg.Redirect{To: "/new?a=1&b=2", Status: http.StatusMovedPermanently}, publicpkg.CacheControl},
		{"GET", publicpkg.Redirect{To: `https://www.example.org/"><script>`, Status: http.StatusFound}, publicpkg.TemporaryCacheControl},
		{"HEAD", publicpkg.Redirect{To: "/new", Status: http.StatusMovedPermanently}, publicpkg.CacheControl},
	} {
		w := httptest.NewRecorder()
		publicpkg.WriteRedirect(w, httptest.NewRequest(c.method, "/old", nil), c.rd)
		h := w.Header()
		if w.Code != c.rd.Status || h.Get("Location") != c.rd.To || h.Get("Cache-Control") != c.cache || h.Get("Vary") == "" {
			t.Errorf("%s %s: %d %v", c.method, c.rd.To, w.Code, h)
		}
		body := w.Body.String()
		switch {
		case c.method == "HEAD" && body != "":
			t.Errorf("HEAD has a body: %q", body)
		case c.method == "GET" && (strings.Contains(body, "<script>") || !strings.Contains(body, "This page has moved to")):
			t.Errorf("body %q", body)
		}
	}
}
