// Command public is the load benchmark of the public website API (not a test): it starts the
// local stack in-process (the emulator unless AWS_ENDPOINT_URL is set, a fresh table, every
// group's handler on a local HTTP server), seeds one institution through the staff API, then
// runs N concurrent readers of the public routes for a while and prints throughput, latency
// percentiles and errors. It exits 1 when any request failed.
//
//	make bench-public                       # 200 readers, 30 s
//	go run ./bench/public -c 50 -d 10s -paths /faqs,/sitemap.xml
//	make bench-public BENCH_ARGS=-paths=/site,/pages/about
//
// Every request reaches the handlers here: there is no CloudFront in front, so the figures are
// the uncached cost (in the cloud CloudFront answers most reads from its cache).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/localaws"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/tenants"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	readers  int
	duration time.Duration
	paths    []string
}

func run() error {
	var o options
	var paths string
	flag.IntVar(&o.readers, "c", 200, "concurrent readers")
	flag.DurationVar(&o.duration, "d", 30*time.Second, "how long to read")
	flag.StringVar(&paths, "paths", "/sliders,/faqs?limit=20,/events?when=upcoming,/sitemap.xml", "public paths the readers cycle through")
	flag.Parse()
	o.paths = strings.Split(paths, ",")
	ctx := context.Background()

	base, tenant, stop, err := startStack(ctx)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("readers %d, duration %s, paths %v\n", o.readers, o.duration, o.paths)
	res := read(base+"/api/v1/public", tenant, o)
	res.print(o.duration)
	if res.errors > 0 {
		return fmt.Errorf("%d failed requests (first: %s)", res.errors, res.firstErr)
	}
	return nil
}

// startStack starts the emulator (unless one is given), a table, the API on a free port, and
// seeds one tenant; it returns the server's URL and the tenant id.
func startStack(ctx context.Context) (string, string, func(), error) {
	var stops []func()
	stop := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	if os.Getenv("AWS_ENDPOINT_URL") == "" {
		emu, err := localaws.Start(ctx, 0)
		if err != nil {
			return "", "", stop, err
		}
		stops = append(stops, emu.Stop)
		emu.UseEndpoint()
	}
	os.Setenv("TABLE_NAME", "bench-"+strings.ToLower(ids.New()[14:]))
	cfg, err := config.FromEnv()
	if err != nil {
		return "", "", stop, err
	}
	deps, err := app.NewDeps(ctx, cfg)
	if err != nil {
		return "", "", stop, err
	}
	if err := deps.Store.EnsureTable(ctx); err != nil {
		return "", "", stop, err
	}
	deps.Log = deps.Log.With() // request logs go to stderr; redirect with 2>/dev/null to hide them
	h, err := app.NewAPI(deps, modules.All()...)
	if err != nil {
		return "", "", stop, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", stop, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	stops = append(stops, func() { _ = srv.Close() })
	base := "http://" + ln.Addr().String()
	tenant := "bench-school"
	if _, err := tenants.Create(ctx, deps.Store, tenants.NewTenant{ID: tenant, Name: "Bench School", AdminUsername: "admin", AdminPassword: "bench-pass-1"}); err != nil {
		return "", "", stop, err
	}
	return base, tenant, stop, seed(base, tenant)
}

// seed creates a site's worth of content through the staff API.
func seed(base, tenant string) error {
	var login struct {
		Result struct{ Token string } `json:"result"`
	}
	if err := call(base, tenant, "", "POST", "/auth/login", map[string]any{"username": "admin", "password": "bench-pass-1"}, &login); err != nil {
		return err
	}
	tok := login.Result.Token
	day := time.Now().UTC().Format(time.DateOnly)
	for i := 0; i < 10; i++ {
		for _, c := range []struct {
			path string
			body map[string]any
		}{
			{"/sliders", map[string]any{"title": fmt.Sprint("Slide ", i), "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/s.png"}},
			{"/faqs", map[string]any{"question": fmt.Sprint("Question ", i), "answer": strings.Repeat("Answer. ", 20), "position": i}},
			{"/events", map[string]any{"title": fmt.Sprint("Event ", i), "startDate": day}},
			{"/sitemap-entries", map[string]any{"url": fmt.Sprintf("https://example.org/%d", i), "changeFreq": "weekly"}},
		} {
			if err := call(base, tenant, tok, "POST", c.path, c.body, nil); err != nil {
				return err
			}
		}
	}
	return seedSite(base, tenant, tok)
}

// seedSite gives the institution a page ("/pages/about", with a slider and a text section), a
// header and a menu of a few items, so /site and /pages/about read what a real site holds.
func seedSite(base, tenant, tok string) error {
	slides, _ := json.Marshal([]map[string]any{{"title": "Welcome", "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/s.png"}, {"title": "Apply now", "ctaUrl": "/apply"}})
	story, _ := json.Marshal([]map[string]any{{"title": "Our story", "description": strings.Repeat("Founded long ago. ", 20)}})
	var page struct {
		Result struct{ ID string } `json:"result"`
	}
	if err := call(base, tenant, tok, "POST", "/pages", map[string]any{"title": "About", "slug": "about",
		"content": "<h1>About us</h1>" + strings.Repeat("<p>We teach and we learn.</p>", 40), "metaTitle": "About us",
		"pageSections": []map[string]any{
			{"title": "Hero", "pageSectionTypeId": "1", "config": string(slides)},
			{"title": "Story", "pageSectionTypeId": "4", "config": string(story)},
		}}, &page); err != nil {
		return err
	}
	if err := call(base, tenant, tok, "PATCH", "/header/"+tenant, map[string]any{"title": "Bench School", "logoUrl": "01ARZ3NDEKTSV4RRFFQ69G5FAV/logo.png"}, nil); err != nil {
		return err
	}
	for _, it := range []map[string]any{
		{"label": "Home", "url": "/"}, {"label": "About", "type": "PAGE", "url": page.Result.ID},
		{"label": "News", "url": "/news"}, {"label": "Contact", "url": "/contact"},
	} {
		if err := call(base, tenant, tok, "POST", "/menu-items", it, nil); err != nil {
			return err
		}
	}
	return nil
}

func call(base, tenant, token, method, path string, body any, out any) error {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, base+"/api/v1/tenant"+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Tenant-Id", tenant)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("seed %s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

type result struct {
	mu        sync.Mutex
	latencies []time.Duration
	errors    int64
	firstErr  string
}

// read runs the readers until the duration is over.
func read(base, tenant string, o options) *result {
	client := &http.Client{Timeout: 120 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: o.readers}}
	res := &result{}
	var errs atomic.Int64
	deadline := time.Now().Add(o.duration)
	var wg sync.WaitGroup
	for i := 0; i < o.readers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var mine []time.Duration
			for n := i; time.Now().Before(deadline); n++ {
				path := o.paths[n%len(o.paths)]
				start := time.Now()
				err := get(client, base+path, tenant)
				if err != nil {
					if errs.Add(1) == 1 {
						res.mu.Lock()
						res.firstErr = path + ": " + err.Error()
						res.mu.Unlock()
					}
					continue
				}
				mine = append(mine, time.Since(start))
			}
			res.mu.Lock()
			res.latencies = append(res.latencies, mine...)
			res.mu.Unlock()
		}(i)
	}
	wg.Wait()
	res.errors = errs.Load()
	return res
}

func get(client *http.Client, url, tenant string) error {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-Tenant-Id", tenant)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	return nil
}

func (r *result) print(d time.Duration) {
	sort.Slice(r.latencies, func(i, j int) bool { return r.latencies[i] < r.latencies[j] })
	n := len(r.latencies)
	pct := func(p float64) time.Duration {
		if n == 0 {
			return 0
		}
		return r.latencies[min(n-1, int(float64(n)*p))]
	}
	fmt.Printf("requests %d ok, %d errors\n", n, r.errors)
	fmt.Printf("throughput %.1f req/s\n", float64(n)/d.Seconds())
	fmt.Printf("latency p50 %s  p95 %s  p99 %s  max %s\n", pct(0.50).Round(time.Millisecond), pct(0.95).Round(time.Millisecond),
		pct(0.99).Round(time.Millisecond), pct(1).Round(time.Millisecond))
}
