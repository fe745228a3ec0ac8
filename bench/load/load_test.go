// Package load is the load benchmark with faults (issue 21): many clients over three tenants mix
// staff edits (racing on the same records), uploads and public reads through the real HTTP
// handlers, while DynamoDB answers a share of calls with throttling and transaction conflicts;
// then every record, counter and the media quota are reconciled against what was accepted.
//
//	bench/load.sh                          # 200 clients, 3 minutes, 2% faults
//	CLIENTS=50 DURATION=30s bench/load.sh
//
// Without flags (go test ./...) it runs a short version: 12 clients for 8 seconds.
package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

var (
	clients   = flag.Int("clients", 12, "concurrent clients")
	duration  = flag.Duration("duration", 8*time.Second, "how long they run")
	faultRate = flag.Float64("fault-rate", 0.02, "share of DynamoDB calls answered with throttling, and of transactions with a conflict")
	// The emulator's memory as a panel grows (issue 32): tenants seeded with the demo content
	// before the run, and the emulator's resident memory printed after it.
	demoTenants = flag.Int("demo-tenants", 0, "tenants seeded with the demo content before the run")
)

func TestMain(m *testing.M) { testkit.Main(m) }

// faq is what the accepted answers say of one record, and what requests without an answer (a
// client's timeout: the server may still have done them) may have done to it.
type faq struct {
	answer  string
	version float64
	deleted bool
	// maybe are answers of edits whose outcome is unknown; maybeDeleted, a delete's.
	maybe        []string
	maybeDeleted bool
}

// tenantState is what was accepted in one tenant.
type tenantState struct {
	tn         testkit.Tenant
	mu         sync.Mutex
	faqs       map[string]*faq
	mediaBytes int64
	mediaCount int64
	// unknownCreates are the questions of creates without an answer; unknownUploads, uploads'.
	unknownCreates map[string]bool
	unknownUploads int
}

func (s *tenantState) pick(r *rand.Rand) (string, float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.faqs))
	for id, f := range s.faqs {
		if !f.deleted {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "", 0, false
	}
	sort.Strings(ids)
	// The first few records draw most edits: deliberate races on the same records.
	i := r.IntN(len(ids))
	if r.IntN(2) == 0 {
		i = r.IntN(min(len(ids), 3))
	}
	return ids[i], s.faqs[ids[i]].version, true
}

// stats are the answers by route and status, and the latencies by route.
type stats struct {
	mu        sync.Mutex
	latencies map[string][]time.Duration
	statuses  map[string]map[int]int
}

func (st *stats) add(route string, status int, d time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.latencies[route] = append(st.latencies[route], d)
	if st.statuses[route] == nil {
		st.statuses[route] = map[int]int{}
	}
	st.statuses[route][status]++
}

type client struct {
	http  *http.Client
	base  string
	stats *stats
}

// call sends one request and decodes the envelope's result into out on 2xx.
func (c *client) call(route, method, path, tenant, token string, body any, out any) int {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("X-Tenant-Id", tenant)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.stats.add(route, 0, time.Since(start))
		return 0
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	c.stats.add(route, resp.StatusCode, time.Since(start))
	if resp.StatusCode/100 == 2 && out != nil {
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(raw, &env) == nil {
			_ = json.Unmarshal(env.Result, out)
		}
	}
	return resp.StatusCode
}

type record struct {
	ID       string  `json:"id" dynamo:"id"`
	Question string  `json:"question" dynamo:"question"`
	Answer   string  `json:"answer" dynamo:"answer"`
	Version  float64 `json:"version" dynamo:"version"`
}

// staffStep is one action of a staff client.
func staffStep(c *client, r *rand.Rand, s *tenantState, n int) {
	t := s.tn
	base := testkit.Base
	switch x := r.IntN(100); {
	case x < 30:
		answer := fmt.Sprintf("answer %d-%d", n, r.IntN(1e6))
		var rec record
		question := fmt.Sprintf("Question %d %d?", n, r.IntN(1e9))
		switch c.call("POST /faqs", "POST", base+"/faqs", t.ID, t.AdminToken, map[string]any{"question": question, "answer": answer}, &rec) {
		case 201:
			s.mu.Lock()
			s.faqs[rec.ID] = &faq{answer: rec.Answer, version: rec.Version}
			s.mu.Unlock()
		case 0:
			s.mu.Lock()
			s.unknownCreates[question] = true
			s.mu.Unlock()
		}
	case x < 65:
		id, version, ok := s.pick(r)
		if !ok {
			return
		}
		answer := fmt.Sprintf("edit %d-%d", n, r.IntN(1e6))
		var rec record
		switch c.call("PATCH /faqs/{id}", "PATCH", base+"/faqs/"+id, t.ID, t.AdminToken, map[string]any{"answer": answer, "version": version}, &rec) {
		case 200:
			s.mu.Lock()
			if f := s.faqs[id]; rec.Version > f.version {
				f.answer, f.version = rec.Answer, rec.Version
			}
			s.mu.Unlock()
		case 0:
			s.mu.Lock()
			s.faqs[id].maybe = append(s.faqs[id].maybe, answer)
			s.mu.Unlock()
		}
	case x < 72:
		id, _, ok := s.pick(r)
		if !ok {
			return
		}
		switch c.call("DELETE /faqs/{id}", "DELETE", base+"/faqs/"+id, t.ID, t.AdminToken, nil, nil) {
		case 200:
			s.mu.Lock()
			s.faqs[id].deleted = true
			s.mu.Unlock()
		case 0:
			s.mu.Lock()
			s.faqs[id].maybeDeleted = true
			s.mu.Unlock()
		}
	case x < 80:
		upload(c, r, s)
	default:
		var list []map[string]any
		c.call("GET /public/faqs", "GET", "/api/v1/public/faqs", t.ID, "", nil, &list)
	}
}

// upload is the browser's upload: request, presigned POST, confirm.
func upload(c *client, r *rand.Rand, s *tenantState) {
	t := s.tn
	body := pngOf(1 + r.IntN(40))
	var ticket struct {
		URL    string            `json:"url"`
		Fields map[string]string `json:"fields"`
		Key    string            `json:"key"`
	}
	if c.call("POST /media/uploads", "POST", testkit.Base+"/media/uploads", t.ID, t.AdminToken,
		map[string]any{"name": "load.png", "size": len(body), "mimeType": "image/png"}, &ticket) != 200 {
		return
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	for k, v := range ticket.Fields {
		_ = mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "load.png")
	_, _ = fw.Write(body)
	_ = mw.Close()
	resp, err := c.http.Post(ticket.URL, mw.FormDataContentType(), &form)
	if err != nil {
		return
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return
	}
	var rec struct {
		FileSize int64 `json:"fileSize"`
	}
	switch c.call("POST /media", "POST", testkit.Base+"/media", t.ID, t.AdminToken, map[string]any{"key": ticket.Key, "name": "load.png"}, &rec) {
	case 201:
		s.mu.Lock()
		s.mediaBytes += rec.FileSize
		s.mediaCount++
		s.mu.Unlock()
	case 0:
		s.mu.Lock()
		s.unknownUploads++
		s.mu.Unlock()
	}
}

func TestLoadWithFaults(t *testing.T) {
	seedDemoTenants(t, *demoTenants)
	tenants := make([]*tenantState, 3)
	for i := range tenants {
		tenants[i] = &tenantState{tn: testkit.NewTenant(t), faqs: map[string]*faq{}, unknownCreates: map[string]bool{}}
	}
	faults := testkit.Faults(t)
	faults.Quiet(true)
	defer faults.Quiet(false)
	removeThrottle := faults.Inject(awsclient.Fault{Service: "dynamodb", Rate: *faultRate, Status: 400, Code: "ProvisionedThroughputExceededException"})
	removeConflict := faults.Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Rate: *faultRate, Status: 400,
		Code: "TransactionCanceledException", Reasons: []string{"TransactionConflict"}})

	st := &stats{latencies: map[string][]time.Duration{}, statuses: map[string]map[int]int{}}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = *clients
	// The clients wait as long as the run itself and five minutes more: a request the emulator's
	// queue holds longer is counted as failed, and its effect is allowed either way.
	c := &client{http: &http.Client{Timeout: *duration + 5*time.Minute, Transport: transport}, base: testkit.URL(t), stats: st}
	deadline := time.Now().Add(*duration)
	var wg sync.WaitGroup
	var steps atomic.Int64
	for i := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 42))
			s := tenants[i%len(tenants)]
			for n := 0; time.Now().Before(deadline); n++ {
				staffStep(c, r, s, n)
				steps.Add(1)
			}
		}()
	}
	wg.Wait()
	removeThrottle()
	removeConflict()
	elapsed := *duration

	// The answers: per route, p50/p95/p99 and statuses; a 5xx other than 503 is a failure.
	routes := make([]string, 0, len(st.latencies))
	total, other5xx, busy := 0, 0, 0
	for r := range st.latencies {
		routes = append(routes, r)
	}
	sort.Strings(routes)
	fmt.Printf("load: %d clients, %s, %.0f%% faults, 3 tenants\n", *clients, elapsed, *faultRate*100)
	fmt.Printf("%-22s %7s %8s %8s %8s  %s\n", "route", "calls", "p50 ms", "p95 ms", "p99 ms", "statuses")
	for _, r := range routes {
		ls := st.latencies[r]
		sort.Slice(ls, func(i, j int) bool { return ls[i] < ls[j] })
		q := func(p float64) float64 {
			return float64(ls[min(len(ls)-1, int(p*float64(len(ls))))].Microseconds()) / 1000
		}
		var codes []string
		for code, n := range st.statuses[r] {
			codes = append(codes, fmt.Sprintf("%d×%d", code, n))
			total += n
			switch {
			case code == 503:
				busy += n
			case code >= 500 || code == 0:
				other5xx += n
			}
		}
		sort.Strings(codes)
		fmt.Printf("%-22s %7d %8.1f %8.1f %8.1f  %s\n", r, len(ls), q(0.5), q(0.95), q(0.99), strings.Join(codes, " "))
	}
	fmt.Printf("requests %d (%.0f/s), 503 busy under injected faults %d, other 5xx or failed %d\n", total, float64(total)/elapsed.Seconds(), busy, other5xx)

	// Reconcile every tenant's records and counters with what was accepted.
	ctx := context.Background()
	store := testkit.Deps(t).Store
	lost, phantom, wrong, counterErrs, uncertain := 0, 0, 0, 0, 0
	for _, s := range tenants {
		scope := mustScope(t, s.tn.ID)
		var items []record
		if err := store.Table.Get("PK", scope.Collection("faqs")).Consistent(true).All(ctx, &items); err != nil {
			t.Fatal(err)
		}
		stored := map[string]record{}
		for _, it := range items {
			stored[it.ID] = it
		}
		live := 0
		for id, f := range s.faqs {
			got, ok := stored[id]
			switch {
			case f.deleted && ok:
				phantom++
				t.Errorf("%s: deleted faq %s still stored", s.tn.ID, id)
			case f.deleted || (!ok && f.maybeDeleted):
			case !ok:
				lost++
				t.Errorf("%s: accepted faq %s lost", s.tn.ID, id)
			case got.Answer == f.answer && got.Version == f.version:
				live++
			case got.Version > f.version && slices.Contains(f.maybe, got.Answer):
				live++
				uncertain++ // an edit the client gave up waiting for was done
			default:
				wrong++
				t.Errorf("%s: faq %s stored %q v%v, accepted %q v%v", s.tn.ID, id, got.Answer, got.Version, f.answer, f.version)
			}
		}
		for id, got := range stored {
			if _, ok := s.faqs[id]; !ok {
				if s.unknownCreates[got.Question] {
					uncertain++ // a create the client gave up waiting for was done
					continue
				}
				phantom++
				t.Errorf("%s: faq %s stored but never accepted", s.tn.ID, id)
			}
		}
		counters, err := store.Counters(ctx, scope)
		if err != nil {
			t.Fatal(err)
		}
		var libBytes, libCount int64
		var media []struct {
			FileSize int64 `dynamo:"fileSize"`
		}
		if err := store.Table.Get("PK", scope.Collection("media")).Consistent(true).All(ctx, &media); err != nil {
			t.Fatal(err)
		}
		for _, m := range media {
			libBytes += m.FileSize
			libCount++
		}
		if libCount < s.mediaCount || libCount > s.mediaCount+int64(s.unknownUploads) {
			lost++
			t.Errorf("%s: %d media records, %d uploads accepted (%d unknown)", s.tn.ID, libCount, s.mediaCount, s.unknownUploads)
		}
		// Counters against the records themselves: exact whatever the clients knew.
		for name, want := range map[string]int64{"faqs": int64(len(stored)), "media": libCount, plans.CountMediaBytes: libBytes} {
			if counters[name] != want {
				counterErrs++
				t.Errorf("%s: counter %s = %d, want %d", s.tn.ID, name, counters[name], want)
			}
		}
		// The quota's held bytes against the truth: never below it (no upload past the quota can
		// be let in); above it only by uploads abandoned since it was last set from the truth.
		heldBytes, heldUploads, truthBytes, truthUploads := quotaHoldings(ctx, t, store, scope, libBytes)
		if heldBytes < truthBytes || heldUploads < truthUploads {
			counterErrs++
			t.Errorf("%s: quota holds %d bytes in %d uploads, below the truth %d in %d", s.tn.ID, heldBytes, heldUploads, truthBytes, truthUploads)
		}
		fmt.Printf("%s: %d faqs accepted (%d live), %d uploads (%d bytes): counters faqs=%d media=%d media-bytes=%d; "+
			"quota holds %d bytes in %d uploads for %d in %d (%d above)\n",
			s.tn.ID, len(s.faqs), live, s.mediaCount, s.mediaBytes, counters["faqs"], counters["media"], counters[plans.CountMediaBytes],
			heldBytes, heldUploads, truthBytes, truthUploads, heldBytes-truthBytes)
	}
	fmt.Printf("reconcile: lost %d, phantom %d, wrong %d, counters off %d (goal: all 0); other 5xx %d (goal 0); "+
		"done by requests the clients stopped waiting for: %d\n", lost, phantom, wrong, counterErrs, other5xx, uncertain)
	if other5xx > 0 {
		t.Errorf("%d answers were 5xx other than 503 (or failed)", other5xx)
	}
	if rss, ok := testkit.EmulatorResident(t); ok {
		fmt.Printf("emulator resident memory: %.0f MB after %d demo tenants and the run (goal: under 1 GB)\n", float64(rss)/(1<<20), *demoTenants)
	}
	if steps.Load() == 0 {
		t.Fatal("no client did anything")
	}
}

// seedDemoTenants creates n tenants with the demo site's content (records, versions, audit, words
// and 40 images each), as cmsctl seed-demo does, and prints the emulator's memory after them.
func seedDemoTenants(t *testing.T, n int) {
	if n == 0 {
		return
	}
	start := time.Now()
	d := testkit.Deps(t)
	for range n {
		tn := testkit.NewTenant(t)
		if _, err := demo.Seed(context.Background(), d.Store, s3client.New(d.AWS), d.Config.MediaBucket, tn.ID); err != nil {
			t.Fatal(err)
		}
	}
	if rss, ok := testkit.EmulatorResident(t); ok {
		fmt.Printf("emulator resident memory: %.0f MB after %d demo tenants (seeded in %s)\n", float64(rss)/(1<<20), n, time.Since(start).Round(time.Second))
	}
}

// quotaHoldings reads the media quota's counter (held bytes, uploads in flight) and the truth it
// stands for: the library's bytes plus the pending uploads not yet expired.
func quotaHoldings(ctx context.Context, t *testing.T, st *store.Store, scope store.Scope, libBytes int64) (held, inflight, truth, uploads int64) {
	pk, sk := scope.CounterKey(plans.CountMediaBytes)
	var c struct {
		Held     int64 `dynamo:"held"`
		Inflight int64 `dynamo:"inflight"`
	}
	if err := st.Get(ctx, store.Key{PK: pk, SK: sk}, &c); err != nil && !store.IsNotFound(err) {
		t.Fatal(err)
	}
	var pending []struct {
		Size      int64     `dynamo:"size"`
		ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
	}
	if err := st.Table.Get("PK", scope.Collection("upload")).Consistent(true).All(ctx, &pending); err != nil {
		t.Fatal(err)
	}
	truth = libBytes
	for _, p := range pending {
		if p.ExpiresAt.After(time.Now()) {
			truth += p.Size
			uploads++
		}
	}
	return c.Held, c.Inflight, truth, uploads
}

// pngOf is a valid PNG w pixels wide (sizes vary, so the bytes counter has something to sum).
func pngOf(w int) []byte {
	img := image.NewGray(image.Rect(0, 0, w, 4))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 37)
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func mustScope(t *testing.T, id string) store.Scope {
	s, err := store.NewScope(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
