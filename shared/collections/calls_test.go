package collections_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/testkit"
)

// dynamoCalls serves one request through the real handlers and counts its DynamoDB calls.
func dynamoCalls(t testing.TB, h http.Handler, method, path, tenant, token, body string) (int, int64) {
	t.Helper()
	ctx, calls := awsclient.WithCallCounter(context.Background())
	req := httptest.NewRequestWithContext(ctx, method, testkit.Base+path, strings.NewReader(body))
	req.Header.Set("X-Tenant-Id", tenant)
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, calls.Load()
}

// TestRoundTrips pins how many DynamoDB calls each kind of request makes.
func TestRoundTrips(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	h, err := app.NewAPI(testkit.Deps(t), modules.All()...)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		if code, _ := dynamoCalls(t, h, "POST", "/faqs", tn.ID, tn.AdminToken, fmt.Sprintf(`{"question":"Q%d","answer":"A"}`, i)); code != 201 {
			t.Fatalf("seed: %d", code)
		}
	}
	if code, _ := dynamoCalls(t, h, "POST", "/notifications", tn.ID, tn.AdminToken, `{"title":"N","message":"M"}`); code != 201 {
		t.Fatalf("seed notification: %d", code)
	}
	cases := []struct {
		name, method, path, body string
		want                     int64
	}{
		{"search page 2 (guard batch + a probe of the word's index entries + the rest of them (30 match) + one batch read of the page)", "GET", "/faqs?page=2&limit=10&search=q&sort=question", "", 4},
		{"rare word search (guard batch + the probe that holds all its entries + one batch read of the page)", "GET", "/faqs?limit=10&search=q29", "", 3},
		{"first page (guard batch + counter get + one index query)", "GET", "/faqs?limit=10", "", 3},
		{"page past the end (guard batch + counter get only)", "GET", "/faqs?page=9&limit=10", "", 2},
		{"create (guard batch + one transaction)", "POST", "/faqs", `{"question":"New","answer":"A"}`, 2},
		{"the bell (guard batch + the unread counter, its total and facetCount + one index query)", "GET", "/notifications?read=false&limit=5", "", 3},
		{"notifications (guard batch + both counters in one batch + one index query)", "GET", "/notifications?limit=10", "", 3},
		{"me (guard batch only)", "GET", "/auth/me", "", 1},
		{"tenant-info (one get)", "GET", "/auth/tenant-info", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, n := dynamoCalls(t, h, c.method, c.path, tn.ID, tn.AdminToken, c.body)
			if code >= 300 || n != c.want {
				t.Fatalf("status %d, %d DynamoDB calls, want %d", code, n, c.want)
			}
		})
	}
}

// TestListReadsAPage pins how many items a list reads: the guard's batch (tenant, session,
// user, security settings), the counter, and one page of index entries — the same at 30 records as at 100,000,
// because nothing else is read.
func TestListReadsAPage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	h, err := app.NewAPI(testkit.Deps(t), modules.All()...)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		if code, _ := dynamoCalls(t, h, "POST", "/faqs", tn.ID, tn.AdminToken, fmt.Sprintf(`{"question":"Q%02d","answer":"A"}`, i)); code != 201 {
			t.Fatalf("seed: %d", code)
		}
	}
	const guard, counter = 4, 1
	cases := []struct {
		name, path string
		want       int64
	}{
		{"first page", "/faqs?limit=5", guard + counter + 5},
		{"name order", "/faqs?limit=5&sort=question", guard + counter + 5},
		{"page 2 by number skips one page", "/faqs?limit=5&page=2", guard + counter + 10},
		{"search counts its 10 matches, reads 5", "/faqs?limit=5&search=q0", guard + 10 + 5},
		{"past the end", "/faqs?limit=5&page=4", guard + counter},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, items := awsclient.WithItemCounter(context.Background())
			req := httptest.NewRequestWithContext(ctx, "GET", testkit.Base+c.path, nil)
			req.Header.Set("X-Tenant-Id", tn.ID)
			req.Header.Set("Authorization", "Bearer "+tn.AdminToken)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 || items.Load() != c.want {
				t.Fatalf("status %d, %d items read, want %d", rec.Code, items.Load(), c.want)
			}
		})
	}
}

// BenchmarkList measures one list request (page 2 of 10, searched and sorted) over 200 records,
// through the real handlers and the local emulator (whose ~3 ms a call dominates).
func BenchmarkList(b *testing.B) {
	tn := testkit.NewTenant(b)
	h, err := app.NewAPI(testkit.Deps(b), modules.All()...)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		dynamoCalls(b, h, "POST", "/faqs", tn.ID, tn.AdminToken, fmt.Sprintf(`{"question":"Question %d","answer":"%s"}`, i, strings.Repeat("a", 200)))
	}
	b.ResetTimer()
	var calls int64
	for i := 0; i < b.N; i++ {
		code, n := dynamoCalls(b, h, "GET", "/faqs?page=2&limit=10&search=question&sort=question", tn.ID, tn.AdminToken, "")
		if code != 200 {
			b.Fatal(code)
		}
		calls += n
	}
	b.ReportMetric(float64(calls)/float64(b.N), "dynamo-calls/op")
}
