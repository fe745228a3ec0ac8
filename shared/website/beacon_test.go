package website_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/visits"
	"github.com/campuscms/panel/shared/website"
)

// browserUA is an ordinary browser's user agent.
const browserUA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

// countingSite is a website handler spreading counts over three shards, with its own limit.
func countingSite(t *testing.T, limit public.Limit) http.Handler {
	t.Helper()
	h, err := website.Build(testkit.Deps(t), website.Options{LocalHosts: true, ViewShards: 3, ViewLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var beaconAttrs = regexp.MustCompile(`<script src="[^"]+" defer data-p="([^"]*)" data-z="([^"]*)" data-v="([^"]*)"></script>`)

// pageBeacon reads the beacon a page carries (path, zone, token); ok false when it carries none.
func pageBeacon(t *testing.T, p page) (b pageData, ok bool) {
	t.Helper()
	m := beaconAttrs.FindStringSubmatch(p.body)
	if m == nil {
		if !strings.Contains(p.body, `<script src="/assets/site.`) {
			t.Fatalf("page has no script: %.400s", p.body)
		}
		return pageData{}, false
	}
	return pageData{path: m[1], zone: m[2], token: m[3]}, true
}

// pageData is what a page carries for its beacon.
type pageData struct{ path, zone, token string }

// body is the beacon site.js sends for the page, from ref.
func (d pageData) body(ref string) string { return beaconJSON(d.path, d.zone, d.token, ref) }

type sent struct {
	status int
	header http.Header
	body   string
}

// sendBeacon posts a beacon body to host through h as a browser would (text/plain, its UA).
func sendBeacon(t *testing.T, h http.Handler, host, body string, headers map[string]string) sent {
	t.Helper()
	r := httptest.NewRequest("POST", website.BeaconPath, strings.NewReader(body))
	r.Host = host
	r.Header.Set("Content-Type", "text/plain;charset=UTF-8")
	r.Header.Set("User-Agent", browserUA)
	for k, v := range headers {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return sent{status: w.Code, header: w.Header(), body: w.Body.String()}
}

func beaconJSON(path, zone, token, ref string) string {
	b, _ := json.Marshal(map[string]string{"p": path, "z": zone, "v": token, "r": ref})
	return string(b)
}

// report reads the tenant's views of today.
func report(t *testing.T, tenant string) visits.Report {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := visits.Read(context.Background(), testkit.Deps(t).Store, scope, 1, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func todayViews(t *testing.T, tenant string) int64 { return report(t, tenant).Days[0].Views }

// TestPagesCarryTheirBeacon: a page answered 200 carries its path and a token for it; the 404
// page, a preview and the answer to a POST carry none (they are never counted).
func TestPagesCarryTheirBeacon(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, slug := newPage(t, tn, "Admissions", nil)
	for _, path := range []string{"/", "/events", "/events?utm_source=news", "/" + slug} {
		p := get(t, tn, path)
		must(t, p, 200)
		b, ok := pageBeacon(t, p)
		want, _ := visits.NormalizePath(path)
		if !ok || b.path != want || b.zone != "UTC" || !visits.Verify(visits.Key(""), tn.ID, want, "UTC", b.token) {
			t.Fatalf("%s: beacon %+v %v, want %q in UTC with its token", path, b, ok, want)
		}
	}
	if _, ok := pageBeacon(t, get(t, tn, "/no-such-page")); ok {
		t.Fatal("the 404 page carries a beacon")
	}
	preview := staff(t, tn, "POST", "/pages/"+id+"/preview", nil).Get("result.path").(string)
	if _, ok := pageBeacon(t, get(t, tn, preview)); ok {
		t.Fatal("a preview carries a beacon")
	}
	if _, ok := pageBeacon(t, visit(t, "POST", tn.ID+".localhost:8080", "/newsletter", map[string][]string{"email": {"not-an-address"}})); ok {
		t.Fatal("an answer to a POST carries a beacon")
	}
	// The institution's time zone goes with its pages, signed.
	staff(t, tn, "PATCH", "/site-settings", map[string]any{"timeZone": "Europe/Paris"})
	b, ok := pageBeacon(t, get(t, tn, "/faqs"))
	if !ok || b.zone != "Europe/Paris" || !visits.Verify(visits.Key(""), tn.ID, "/faqs", "Europe/Paris", b.token) {
		t.Fatalf("beacon %+v, want /faqs in Europe/Paris", b)
	}
}

// TestBeaconCountsExactlyUnderConcurrency: 200 beacons at once, over four pages and three
// shards, are all counted, per day, page and referring site.
func TestBeaconCountsExactlyUnderConcurrency(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	h := countingSite(t, public.Limit{Max: 1000, Window: time.Hour})
	host := tn.ID + ".localhost:8080"
	var targets []pageData
	for _, path := range []string{"/", "/events", "/notices", "/faqs"} {
		b, ok := pageBeacon(t, get(t, tn, path))
		if !ok {
			t.Fatalf("%s carries no beacon", path)
		}
		targets = append(targets, b)
	}
	refs := []string{"www.google.com", "", "", "news.example.org"}
	var wg sync.WaitGroup
	statuses := make([]int, 200)
	for i := range 200 {
		wg.Go(func() {
			statuses[i] = sendBeacon(t, h, host, targets[i%4].body(refs[i%4]), nil).status
		})
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusNoContent {
			t.Fatalf("beacon %d answered %d", i, s)
		}
	}
	rep := report(t, tn.ID)
	if rep.Days[0].Views != 200 {
		t.Fatalf("%d views today, want 200", rep.Days[0].Views)
	}
	want := "[{/ 50} {/events 50} {/faqs 50} {/notices 50}]"
	if fmt.Sprint(rep.TopPages) != want {
		t.Fatalf("top pages %v, want %s", rep.TopPages, want)
	}
	if fmt.Sprint(rep.TopReferrers) != "[{news.example.org 50} {www.google.com 50}]" {
		t.Fatalf("referrers %v", rep.TopReferrers)
	}
}

// TestBeaconsNotCounted: what is never counted is still answered 204 (or a 4xx for a body that
// is no beacon), never 5xx, never with a cookie; a referrer that is the site itself or no host
// leaves the view counted without one.
func TestBeaconsNotCounted(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	h := countingSite(t, public.Limit{Max: 1000, Window: time.Hour})
	host := tn.ID + ".localhost:8080"
	b, _ := pageBeacon(t, get(t, tn, "/events"))
	path, token := b.path, b.token
	theirs, _ := pageBeacon(t, get(t, other, "/events"))
	good := b.body("")
	cases := []struct {
		name    string
		host    string
		body    string
		headers map[string]string
		status  int
		counted bool
	}{
		{"a browser's view", host, good, nil, 204, true},
		{"Do Not Track", host, good, map[string]string{"DNT": "1"}, 204, false},
		{"Global Privacy Control", host, good, map[string]string{"Sec-GPC": "1"}, 204, false},
		{"a crawler", host, good, map[string]string{"User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}, 204, false},
		{"a link preview", host, good, map[string]string{"User-Agent": "facebookexternalhit/1.1"}, 204, false},
		{"a headless browser", host, good, map[string]string{"User-Agent": "Mozilla/5.0 HeadlessChrome/131.0"}, 204, false},
		{"no user agent", host, good, map[string]string{"User-Agent": ""}, 204, false},
		{"a preview's path", host, beaconJSON("/_preview/abc", "UTC", visits.Sign(visits.Key(""), tn.ID, "/_preview/abc", "UTC"), ""), nil, 204, false},
		{"a made-up path", host, beaconJSON("/no-such-page", "UTC", token, ""), nil, 204, false},
		{"a path the page did not carry", host, beaconJSON("/events/", "UTC", token, ""), nil, 204, false},
		{"another time zone", host, beaconJSON(path, "Pacific/Kiritimati", token, ""), nil, 204, false},
		{"a signed zone that is none", host, beaconJSON(path, "Mars/Olympus", visits.Sign(visits.Key(""), tn.ID, path, "Mars/Olympus"), ""), nil, 204, false},
		{"no token", host, beaconJSON(path, "UTC", "", ""), nil, 204, false},
		{"another tenant's token", host, beaconJSON(path, "UTC", theirs.token, ""), nil, 204, false},
		{"a huge path", host, beaconJSON("/"+strings.Repeat("a", 1500), "UTC", token, ""), nil, 204, false},
		{"a body over 2 kB", host, beaconJSON("/"+strings.Repeat("a", 3000), "UTC", token, ""), nil, 413, false},
		{"not JSON", host, "p=/events", nil, 400, false},
		{"empty", host, "", nil, 400, false},
		{"JSON of another shape", host, `{"p": 5}`, nil, 400, false},
		{"no tenant at the host", "nobody-here.localhost:8080", good, nil, 204, false},
		{"no site at the host", "www.example.invalid", good, nil, 404, false},
	}
	var counted int64
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := todayViews(t, tn.ID)
			res := sendBeacon(t, h, c.host, c.body, c.headers)
			if res.status != c.status {
				t.Fatalf("status %d, want %d: %s", res.status, c.status, res.body)
			}
			if sc := res.header.Values("Set-Cookie"); len(sc) > 0 {
				t.Fatalf("Set-Cookie %v", sc)
			}
			if cc := res.header.Get("Cache-Control"); cc != "no-store" {
				t.Fatalf("Cache-Control %q", cc)
			}
			after := todayViews(t, tn.ID)
			if got := after - before; got != map[bool]int64{true: 1, false: 0}[c.counted] {
				t.Fatalf("counted %d views, want counted=%v", got, c.counted)
			}
			counted = after
		})
	}
	for _, ref := range []string{tn.ID + ".localhost", "not a host", "<b>x</b>"} {
		if s := sendBeacon(t, h, host, b.body(ref), nil).status; s != 204 {
			t.Fatalf("referrer %q: %d", ref, s)
		}
	}
	rep := report(t, tn.ID)
	if rep.Days[0].Views != counted+3 || len(rep.TopReferrers) != 0 {
		t.Fatalf("views %d (want %d), referrers %v (want none)", rep.Days[0].Views, counted+3, rep.TopReferrers)
	}
	if v := todayViews(t, other.ID); v != 0 {
		t.Fatalf("the other tenant has %d views", v)
	}
}

// TestBeaconTenantIsolation: a beacon counts for the tenant whose site it is sent to and whose
// page it came from, never another; a page's token is refused on another tenant's site.
func TestBeaconTenantIsolation(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	h := countingSite(t, public.Limit{Max: 1000, Window: time.Hour})
	page, _ := pageBeacon(t, get(t, a, "/notices"))
	for _, host := range []string{a.ID + ".localhost:8080", b.ID + ".localhost:8080"} {
		if s := sendBeacon(t, h, host, page.body("example.org"), nil).status; s != 204 {
			t.Fatalf("%s: %d", host, s)
		}
	}
	if ra, rb := report(t, a.ID), report(t, b.ID); ra.Days[0].Views != 1 || rb.Days[0].Views != 0 || len(rb.TopReferrers) != 0 {
		t.Fatalf("A %+v, B %+v: want one view for A only", ra, rb)
	}
}

// TestBeaconRateLimited: past the client's limit views are not counted (still 204), and the
// limit is per client address.
func TestBeaconRateLimited(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	h := countingSite(t, public.Limit{Max: 2, Window: time.Hour})
	page, _ := pageBeacon(t, get(t, tn, "/"))
	host := tn.ID + ".localhost:8080"
	for i := range 4 {
		if s := sendBeacon(t, h, host, page.body(""), map[string]string{"CloudFront-Viewer-Address": "198.51.100.7:443"}).status; s != 204 {
			t.Fatalf("beacon %d: %d", i, s)
		}
	}
	if v := todayViews(t, tn.ID); v != 2 {
		t.Fatalf("%d views, want 2 (the limit)", v)
	}
	sendBeacon(t, h, host, page.body(""), map[string]string{"CloudFront-Viewer-Address": "198.51.100.8:443"})
	if v := todayViews(t, tn.ID); v != 3 {
		t.Fatalf("%d views, want 3 (another client)", v)
	}
}

// TestBeaconWhenTableBusy: DynamoDB throttling loses the view, never the answer (204).
func TestBeaconWhenTableBusy(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	h := countingSite(t, public.Limit{Max: 1000, Window: time.Hour})
	page, _ := pageBeacon(t, get(t, tn, "/"))
	remove := testkit.Faults(t).Inject(awsclient.Fault{Service: "dynamodb", Match: tn.ID, Status: 400, Code: "ProvisionedThroughputExceededException"})
	res := sendBeacon(t, h, tn.ID+".localhost:8080", page.body(""), nil)
	remove()
	if res.status != 204 {
		t.Fatalf("status %d, want 204", res.status)
	}
}

// TestScriptBudget: the website's one script, beacon included, stays within its budget (15 kB
// gzipped, bench/website.mjs's goal) and never touches cookies.
func TestScriptBudget(t *testing.T) {
	src, err := os.ReadFile("assets/site.js")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(src)
	zw.Close()
	if gz.Len() > 15*1024 {
		t.Fatalf("site.js is %d bytes gzipped, over 15 kB", gz.Len())
	}
	if !bytes.Contains(src, []byte("sendBeacon('"+website.BeaconPath+"'")) || bytes.Contains(src, []byte("document.cookie")) {
		t.Fatal("site.js must send its beacon to " + website.BeaconPath + " and never use cookies")
	}
	t.Logf("site.js: %d bytes, %d gzipped", len(src), gz.Len())
}

// TestBeaconCountsAfterAnswer: the local server's way (CountAfter) answers first and writes in
// the background; the view is there once the pending counts are done.
func TestBeaconCountsAfterAnswer(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	rd, err := public.NewReader(testkit.Deps(t).Store, testkit.Deps(t).Config.ObjectURLPrefix)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := website.New(rd, website.Options{LocalHosts: true, CountAfter: true})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	host := tn.ID + ".localhost:8080"
	page := pageBeaconVia(t, h, host, "/faqs")
	if s := sendBeacon(t, h, host, page.body("example.org"), nil).status; s != 204 {
		t.Fatalf("status %d", s)
	}
	srv.WaitForCounts()
	if rep := report(t, tn.ID); rep.Days[0].Views != 1 || fmt.Sprint(rep.TopReferrers) != "[{example.org 1}]" {
		t.Fatalf("report %+v", rep)
	}
}

// pageBeaconVia reads the beacon the page at path carries, served by h.
func pageBeaconVia(t testing.TB, h http.Handler, host, path string) pageData {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	r.Host = host
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	m := beaconAttrs.FindStringSubmatch(w.Body.String())
	if m == nil {
		t.Fatalf("%s carries no beacon (%d)", path, w.Code)
	}
	return pageData{path: m[1], zone: m[2], token: m[3]}
}
