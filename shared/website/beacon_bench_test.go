package website_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/visits"
	"github.com/campuscms/panel/shared/website"
)

// writeCost is what DynamoDB calls cost in writes: each call and its write request units (an
// item under 1 KB is one unit; each item of a transaction two).
type writeCost struct {
	updates, txs, txItems, reads, other int
}

func (c writeCost) units() int { return c.updates + 2*c.txItems }

// costOf tallies the DynamoDB calls that mention tenant.
func costOf(calls []awsclient.Call) writeCost {
	var c writeCost
	for _, call := range calls {
		switch call.Op {
		case "UpdateItem", "PutItem", "DeleteItem":
			c.updates++
		case "TransactWriteItems":
			var body struct{ TransactItems []json.RawMessage }
			_ = json.Unmarshal([]byte(call.Body), &body)
			c.txs++
			c.txItems += len(body.TransactItems)
		case "GetItem", "BatchGetItem", "Query":
			c.reads++
		default:
			c.other++
		}
	}
	return c
}

// BenchmarkPageViews prints what 1,000 page views cost in DynamoDB writes through the beacon
// (the website's POST /_v, counted before the answer as in Lambda): the first 1,000 of a day,
// which make the day's items, and the next 1,000. The views follow a school site's shape: 30
// pages, a few read far more than the rest (Zipf), one view in five from one of 8 other sites,
// every view from its own address (so each pays its rate-limit write), 4 shards. Run:
//
//	go test -run '^$' -bench BenchmarkPageViews -benchtime 1x ./shared/website
func BenchmarkPageViews(b *testing.B) {
	key := visits.Key("bench")
	h, err := website.Build(testkit.Deps(b), website.Options{LocalHosts: true, ViewKey: key})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		tn := testkit.NewTenant(b)
		host := tn.ID + ".localhost:8080"
		views := viewPlan(key, tn.ID, 2000)
		for round, name := range []string{"first 1,000 of a day", "next 1,000"} {
			before := len(testkit.Faults(b).Calls(tn.ID))
			start := time.Now()
			sendAll(b, h, host, views[round*1000:(round+1)*1000], round)
			elapsed := time.Since(start)
			c := costOf(testkit.Faults(b).Calls(tn.ID)[before:])
			b.Logf("%s: %d UpdateItem + %d TransactWriteItems (%d items) = %d write calls, %d write request units; %d reads; %.1f ms a view on the emulator",
				name, c.updates, c.txs, c.txItems, c.updates+c.txs, c.units(), c.reads, float64(elapsed.Milliseconds())/1000)
			metric := strings.ReplaceAll(strings.Fields(name)[0], ",", "")
			b.ReportMetric(float64(c.units()), "WRU/1000views-"+metric)
		}
	}
}

type plannedView struct{ path, token, ref string }

// viewPlan draws n views over 30 paths of the tenant (the list pages, then notices), each with
// the token its page carries.
func viewPlan(key []byte, tenant string, n int) []plannedView {
	paths := []string{"/", "/events", "/notices", "/albums", "/staff", "/departments", "/faqs", "/resources", "/testimonials"}
	for i := len(paths); i < 30; i++ {
		paths = append(paths, fmt.Sprintf("/notices/01JNOTICE%017d", i))
	}
	z := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.2, 1, uint64(len(paths)-1))
	r := rand.New(rand.NewPCG(3, 4))
	out := make([]plannedView, n)
	for i := range out {
		p := paths[z.Uint64()]
		out[i] = plannedView{path: p, token: visits.Sign(key, tenant, p, "UTC")}
		if r.IntN(5) == 0 {
			out[i].ref = fmt.Sprintf("site%d.example.org", r.IntN(8))
		}
	}
	return out
}

// sendAll sends the views from 8 browsers at a time, each view from its own address.
func sendAll(b testing.TB, h http.Handler, host string, views []plannedView, round int) {
	b.Helper()
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				v := views[i]
				body, _ := json.Marshal(map[string]string{"p": v.path, "z": "UTC", "v": v.token, "r": v.ref})
				r := httptest.NewRequest("POST", website.BeaconPath, strings.NewReader(string(body)))
				r.Host = host
				r.Header.Set("User-Agent", browserUA)
				r.Header.Set("CloudFront-Viewer-Address", fmt.Sprintf("10.%d.%d.%d:443", round, i/250, i%250))
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusNoContent {
					b.Errorf("view %d: %d", i, w.Code)
				}
			}
		})
	}
	for i := range views {
		next <- i
	}
	close(next)
	wg.Wait()
}

// BenchmarkVisitsReport measures GET /visits' read (visits.Read): calls, items read and time on
// the emulator, for 30 days of a typical school site (30 paths and 8 referrers a day, each on
// its 4 shards: 152 items a day) and for 7 days at the day's bound (1,000 path and 1,000
// referrer items, and the other items: 2,010 a day). Run:
//
//	go test -run '^$' -bench BenchmarkVisitsReport -benchtime 1x ./shared/website
func BenchmarkVisitsReport(b *testing.B) {
	st := testkit.Deps(b).Store
	cases := []struct {
		name             string
		days, paths, ref int
	}{
		{"typical-30-days", 30, 30, 8},
		{"bound-7-days", 7, visits.DefaultMaxItems / visits.DefaultShards, visits.DefaultMaxItems / visits.DefaultShards},
	}
	for _, c := range cases {
		tn := testkit.NewTenant(b)
		scope, _ := store.NewScope(tn.ID)
		seedDays(b, st, scope, c.days, c.paths, c.ref)
		b.Run(c.name, func(b *testing.B) {
			var calls, items int64
			for b.Loop() {
				ctx, n := awsclient.WithCallCounter(context.Background())
				ctx, it := awsclient.WithItemCounter(ctx)
				rep, err := visits.Read(ctx, st, scope, c.days, time.Now(), nil)
				if err != nil {
					b.Fatal(err)
				}
				if rep.Days[0].Views == 0 {
					b.Fatal("nothing read")
				}
				calls += n.Load()
				items += it.Load()
			}
			b.ReportMetric(float64(calls)/float64(b.N), "dynamo-calls/op")
			b.ReportMetric(float64(items)/float64(b.N), "items-read/op")
		})
	}
}

// seedDays writes days of count items straight into the table (the counter's keys, 4 shards).
func seedDays(b *testing.B, st *store.Store, scope store.Scope, days, paths, refs int) {
	b.Helper()
	now := time.Now().UTC()
	var items []any
	for d := range days {
		day := now.AddDate(0, 0, -d).Format(time.DateOnly)
		for shard := range visits.DefaultShards {
			for p := range paths {
				items = append(items, map[string]any{"PK": scope.Partition(visits.Partition), "SK": fmt.Sprintf("%s#P#%d#/page-%d", day, shard, p), "views": 3})
			}
			for r := range refs {
				items = append(items, map[string]any{"PK": scope.Partition(visits.Partition), "SK": fmt.Sprintf("%s#R#%d#site%d.example.org", day, shard, r), "views": 1})
			}
		}
	}
	for i := 0; i < len(items); i += 25 {
		if _, err := st.Table.Batch("PK", "SK").Write().Put(items[i:min(i+25, len(items))]...).Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
