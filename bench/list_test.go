// Package bench holds the benchmarks that print figures (DESIGN §7: tests never assert time).
// BenchmarkList measures list calls over collections of 100 and 10,000 records through the real
// handlers and the local emulator; bench/list.sh prints them side by side with their ratio.
package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/words"
)

// TestMain runs the benchmarks on the emulator testkit starts (moto), or with DynamoDB on
// dynalite when AWS_ENDPOINT_URL_DYNAMODB names it (bench/list.sh's second run).
func TestMain(m *testing.M) {
	if os.Getenv("AWS_ENDPOINT_URL_DYNAMODB") != "" {
		os.Exit(testkit.RunOver(m, dynaliteAdapter{next: http.DefaultTransport}))
	}
	testkit.Main(m)
}

// Sizes are the collection sizes compared; pageSize the list's limit.
var sizes = []int{100, 10_000}

const pageSize = 20

// seed writes n FAQs straight into the table with BatchWriteItem (25 a call), with the index
// attributes, word index entries and the counter the API would write. Seeding through the API would take hours:
// each of moto's transactions copies the whole table.
func seed(b *testing.B, st *store.Store, scope store.Scope, n int) {
	b.Helper()
	ctx := context.Background()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	batch := make([]any, 0, 25)
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if _, err := st.Table.Batch("PK", "SK").Write().Put(batch...).Run(ctx); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := 0; i < n; i++ {
		id := ids.New()
		at := start.Add(time.Duration(i) * time.Second)
		rec := map[string]any{"PK": scope.Collection("faqs"), "SK": id, "id": id, "version": 1,
			"question": fmt.Sprintf("Question %05d", i), "answer": strings.Repeat("a", 200), "position": i, "status": true,
			"createdAt": at.Format(time.RFC3339Nano), "updatedAt": at.Format(time.RFC3339Nano)}
		for k, v := range listing.Attributes(listing.Record{Partition: scope.Collection("faqs"), ID: id, UpdatedAt: at, Name: rec["question"].(string)}) {
			rec[k] = v
		}
		batch = append(batch, rec)
		// Its word index entries, as the engine writes them with every create.
		for _, e := range listing.WordEntries(scope.Collection("faqs"), id, words.Of(rec["question"].(string))) {
			batch = append(batch, e)
		}
		if len(batch) >= 22 {
			flush()
		}
	}
	flush()
	if err := st.AddToCounter(scope, "faqs", int64(n)).Run(ctx); err != nil {
		b.Fatal(err)
	}
}

// measure serves one request and returns its status, body, DynamoDB calls and items read.
func measure(b *testing.B, h http.Handler, tn testkit.Tenant, path string) (*httptest.ResponseRecorder, int64, int64) {
	ctx, calls := awsclient.WithCallCounter(context.Background())
	ctx, items := awsclient.WithItemCounter(ctx)
	req := httptest.NewRequestWithContext(ctx, "GET", testkit.Base+path, nil)
	req.Header.Set("X-Tenant-Id", tn.ID)
	req.Header.Set("Authorization", "Bearer "+tn.AdminToken)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
	}
	return rec, calls.Load(), items.Load()
}

// nextCursor reads the nextCursor of a list answer.
func nextCursor(b *testing.B, rec *httptest.ResponseRecorder) string {
	const key = `"nextCursor":"`
	s := rec.Body.String()
	i := strings.Index(s, key)
	if i < 0 {
		b.Fatalf("no nextCursor in %s", s[:min(len(s), 200)])
	}
	s = s[i+len(key):]
	return s[:strings.IndexByte(s, '"')]
}

// BenchmarkList reports, per size and kind of call, the time per call and the DynamoDB calls
// and items read per call (the guard's session read included).
//
//	go test -run '^$' -bench List -benchtime 20x ./bench
func BenchmarkList(b *testing.B) {
	deps := testkit.Deps(b)
	h, err := app.NewAPI(deps, modules.All()...)
	if err != nil {
		b.Fatal(err)
	}
	// Every size is seeded before any is measured: seeding is thousands of writes, which warm the
	// emulator (dynalite's JIT) up, and would otherwise favour the size seeded last.
	tenants := map[int]testkit.Tenant{}
	for _, n := range sizes {
		tenants[n] = testkit.NewTenant(b)
		scope, _ := store.NewScope(tenants[n].ID)
		seed(b, deps.Store, scope, n)
	}
	for _, n := range sizes {
		tn := tenants[n]
		first, _, _ := measure(b, h, tn, fmt.Sprintf("/faqs?limit=%d", pageSize))
		cursor := url.QueryEscape(nextCursor(b, first))
		// A search matching the same 10 names at either size: "Question 00050" to "Question 00059".
		cases := []struct{ name, path string }{
			{"first-page", fmt.Sprintf("/faqs?limit=%d", pageSize)},
			{"name-search", fmt.Sprintf("/faqs?limit=%d&search=question+0005", pageSize)},
			{"word-search", fmt.Sprintf("/faqs?limit=%d&search=0005+quest", pageSize)},
			{"name-order", fmt.Sprintf("/faqs?limit=%d&sort=question&order=asc", pageSize)},
			{"page-2-cursor", fmt.Sprintf("/faqs?limit=%d&page=2&cursor=%s", pageSize, cursor)},
			{"page-2-number", fmt.Sprintf("/faqs?limit=%d&page=2", pageSize)},
			{"page-50-number", fmt.Sprintf("/faqs?limit=%d&page=50", pageSize)},
		}
		for _, c := range cases {
			for i := 0; i < 5; i++ {
				measure(b, h, tn, c.path) // warm: connections, the emulator's caches
			}
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				var calls, items int64
				for i := 0; i < b.N; i++ {
					_, c, it := measure(b, h, tn, c.path)
					calls, items = calls+c, items+it
				}
				b.ReportMetric(float64(calls)/float64(b.N), "dynamo-calls/op")
				b.ReportMetric(float64(items)/float64(b.N), "items-read/op")
			})
		}
	}
}
