package website_test

import (
	"context"
	"net/http"
	"net/http/httptest"
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

var benchPaths = map[string]string{"home": "/", "page": "/about", "events": "/events"}

// BenchmarkWebsite measures, for the home page, a page with sections and the events list:
// a whole request on the emulator (ns/op, DynamoDB calls per request, bytes of HTML) and the
// render alone (the time a page costs beyond its DynamoDB reads). Goal (issue 17): ≤ 4 calls per
// page, render ≤ 20 ms. Run: go test -run '^$' -bench BenchmarkWebsite ./shared/website
func BenchmarkWebsite(b *testing.B) {
	srv, tenant := benchServer(b)
	h := srv.Handler()
	for _, kind := range website.BenchPages {
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
