package website_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

var benchSite struct {
	once   sync.Once
	tenant string
	srv    *website.Server
	err    error
}

// benchServer is a website server over a tenant seeded with the demo institution.
func benchServer(b *testing.B) (*website.Server, string) {
	b.Helper()
	benchSite.once.Do(func() {
		d := testkit.Deps(b)
		tn := testkit.NewTenant(b)
		if _, err := demo.Seed(context.Background(), d.Store, s3client.New(d.AWS), d.Config.MediaBucket, tn.ID); err != nil {
			benchSite.err = err
			return
		}
		// Two more languages: the demo's home and About pages translated, for the translated rows.
		if benchSite.err = translateForBench(b, tn); benchSite.err != nil {
			return
		}
		rd, err := public.NewReader(d.Store, d.Config.ObjectURLPrefix)
		if err != nil {
			benchSite.err = err
			return
		}
		benchSite.tenant = tn.ID
		benchSite.srv, benchSite.err = website.New(rd, website.Options{LocalHosts: true})
	})
	if benchSite.err != nil {
		b.Fatal(benchSite.err)
	}
	return benchSite.srv, benchSite.tenant
}

var benchPaths = map[string]string{"home": "/", "page": "/about", "events": "/events", "home-fr": "/fr/", "page-ar": "/ar/a-propos-ar"}

// translatedBenchPages are the translated pages the benchmark requests (their render is the
// default pages' templates).
var translatedBenchPages = []string{"home-fr", "page-ar"}

// translateForBench sets French and Arabic on the tenant and translates its home and About pages.
func translateForBench(b *testing.B, tn testkit.Tenant) error {
	call := func(method, path string, body any) (testkit.Response, error) {
		res := testkit.Call(b, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
		if res.Status >= 300 {
			return res, fmt.Errorf("%s %s: %d %s", method, path, res.Status, res.Raw)
		}
		return res, nil
	}
	if _, err := call("PATCH", "/site-settings", map[string]any{"languages": []string{"fr", "ar"}}); err != nil {
		return err
	}
	list, err := call("GET", "/pages?limit=100", nil)
	if err != nil {
		return err
	}
	texts := map[string]map[string]any{
		"home":  {"fr": map[string]any{"title": "Accueil"}, "ar": map[string]any{"title": "الرئيسية"}},
		"about": {"fr": map[string]any{"title": "À propos", "slug": "a-propos"}, "ar": map[string]any{"title": "من نحن", "slug": "a-propos-ar"}},
	}
	pages, _ := list.Get("result").([]any)
	for _, p := range pages {
		rec, _ := p.(map[string]any)
		if tr, ok := texts[fmt.Sprint(rec["slug"])]; ok {
			if _, err := call("PATCH", fmt.Sprintf("/pages/%v", rec["id"]), map[string]any{"translations": tr}); err != nil {
				return err
			}
		}
	}
	return nil
}

// BenchmarkWebsite measures, for the home page, a page with sections and the events list:
// a whole request on the emulator (ns/op, DynamoDB calls per request, bytes of HTML) and the
// render alone (the time a page costs beyond its DynamoDB reads), and the requests of a French
// home and an Arabic page (issue 35: the same calls). Goal (issue 17): ≤ 4 calls per
// page, render ≤ 20 ms. Run: go test -run '^$' -bench BenchmarkWebsite ./shared/website
func BenchmarkWebsite(b *testing.B) {
	srv, tenant := benchServer(b)
	h := srv.Handler()
	for _, kind := range append(slices.Clone(website.BenchPages), translatedBenchPages...) {
		newReq := func(ctx context.Context) *http.Request {
			r := httptest.NewRequestWithContext(ctx, "GET", benchPaths[kind], nil)
			r.Host = tenant + ".localhost"
			return r
		}
		b.Run(kind+"/request", func(b *testing.B) {
			var calls, bytes int64
			for b.Loop() {
				ctx, n := awsclient.WithCallCounter(context.Background())
				w := httptest.NewRecorder()
				h.ServeHTTP(w, newReq(ctx))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", kind, w.Code)
				}
				calls += n.Load()
				bytes += int64(w.Body.Len())
			}
			b.ReportMetric(float64(calls)/float64(b.N), "dynamo-calls/op")
			b.ReportMetric(float64(bytes)/float64(b.N), "html-bytes/op")
		})
		if slices.Contains(translatedBenchPages, kind) {
			continue
		}
		b.Run(kind+"/render", func(b *testing.B) {
			render, err := srv.PrepareRender(newReq(context.Background()), kind)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := render(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
