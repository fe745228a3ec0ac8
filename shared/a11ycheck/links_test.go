package a11ycheck_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/testkit"
)

// TestLinkCheck: a published page's links to other sites are checked by the scheduled job (an
// httptest server stands in for the web): a 404 is reported broken, a 301 redirected, a 200 and
// a HEAD-refusing site that answers GET pass; each address is asked once a day at most, even
// when two records link it; the counters and the report follow; a later save that drops the
// links takes their findings away.
func TestLinkCheck(t *testing.T) {
	t.Parallel()
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		switch r.URL.Path {
		case "/gone":
			http.NotFound(w, r)
		case "/moved":
			http.Redirect(w, r, "https://example.org/new-home", http.StatusMovedPermanently)
		case "/nohead":
			if r.Method == http.MethodHead {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			w.Write([]byte("ok"))
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	tn := testkit.NewTenant(t)
	content := `<p><a href="` + srv.URL + `/ok">Our partner</a>, <a href="` + srv.URL + `/gone">the old prospectus site</a>, <a href="` + srv.URL + `/moved">the sports club</a> and <a href="` + srv.URL + `/nohead">the library</a>.</p>`
	res := call(t, tn, "POST", "/pages", map[string]any{"title": "Links", "slug": "links", "isPublished": true, "content": content})
	testkit.Expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)
	testkit.Expect(t, call(t, tn, "POST", "/notices", map[string]any{"title": "Sport", "message": "m", "status": true,
		"content": `<p>See <a href="` + srv.URL + `/moved">the sports club</a>.</p>`}), http.StatusCreated, "")
	wantCounts(t, tn, 0, 0) // not checked yet

	now := time.Now().Add(time.Second)
	lc := a11ycheck.NewLinkChecker(testkit.Deps(t).Store).WithClient(srv.Client()).Only(tn.ID)
	lc.Now = func() time.Time { return now }
	run, err := lc.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if run.Items != 2 || run.Broken != 1 || run.Redirected != 2 || run.Asked+run.Remembered != 5 {
		t.Fatalf("run %+v", run)
	}
	// /moved was asked once for the two records (the second found it remembered); /nohead twice (HEAD, GET).
	if got := asked.Load(); got != 5 {
		t.Fatalf("the server was asked %d times, want 5 (4 addresses, one of them twice: HEAD then GET)", got)
	}
	wantCounts(t, tn, 2, 3)
	rep := call(t, tn, "GET", "/accessibility-report?rule=broken-link", nil)
	if !strings.Contains(string(rep.Raw), "answered 404") || !strings.Contains(string(rep.Raw), "https://example.org/new-home") {
		t.Fatalf("report %s", rep.Raw)
	}

	// Within the day nothing is asked again.
	before := asked.Load()
	now = now.Add(time.Hour)
	if run, err := lc.Run(context.Background()); err != nil || run.Items != 0 || asked.Load() != before {
		t.Fatalf("a second run the same day: %+v %v, %d asks", run, err, asked.Load()-before)
	}
	// A day later the addresses are due again.
	now = now.Add(a11ycheck.LinkInterval)
	if run, err := lc.Run(context.Background()); err != nil || run.Items != 2 || asked.Load() == before {
		t.Fatalf("a day later: %+v %v", run, err)
	}
	wantCounts(t, tn, 2, 3)

	// The page drops its broken and redirected links: their findings go.
	testkit.Expect(t, call(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "content": `<p><a href="` + srv.URL + `/ok">Our partner</a></p>`}), http.StatusOK, "")
	wantCounts(t, tn, 1, 1)
}

// TestLinkCheckDialsPublicAddressesOnly: the production client refuses loopback addresses (a
// staff-typed link must not reach inside the network); the link is reported unreachable.
func TestLinkCheckDialsPublicAddressesOnly(t *testing.T) {
	t.Parallel()
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
	defer srv.Close()
	tn := testkit.NewTenant(t)
	testkit.Expect(t, call(t, tn, "POST", "/pages", map[string]any{"title": "Inside", "slug": "inside", "isPublished": true,
		"content": `<a href="` + srv.URL + `/admin">Our intranet</a>`}), http.StatusCreated, "")
	lc := a11ycheck.NewLinkChecker(testkit.Deps(t).Store).Only(tn.ID)
	lc.Now = func() time.Time { return time.Now().Add(time.Second) }
	run, err := lc.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if asked.Load() != 0 || run.Broken != 1 {
		t.Fatalf("run %+v, %d requests reached the loopback server", run, asked.Load())
	}
}
