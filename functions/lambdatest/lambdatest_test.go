package lambdatest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/routes"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

// TestMain starts the emulator (unless AWS_ENDPOINT_URL is set) and a table for this binary;
// TABLE_NAME and MEDIA_BUCKET are then in the environment, which lambdamain reads like main does.
func TestMain(m *testing.M) { testkit.Main(m) }

func groups(t testing.TB) []string {
	t.Helper()
	table, err := routes.Load()
	if err != nil {
		t.Fatal(err)
	}
	return table.Functions()
}

// handlerOf builds a group's Lambda handler as its main does: the API groups from their modules,
// the website from its own package.
func handlerOf(group string) (lambdamain.Handler, error) {
	table, err := routes.Load()
	if err != nil {
		return nil, err
	}
	if group == table.Website {
		return lambdamain.NewWith(context.Background(), func(d *app.Deps) (http.Handler, error) { return website.Build(d, website.Options{}) })
	}
	return lambdamain.New(context.Background(), group, modules.All()...)
}

func root(t testing.TB) string {
	t.Helper()
	r, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// varsFor makes a fresh tenant with a signed-in admin, and its website at {tenant}.example.org,
// for the {{placeholders}} of an event.
func varsFor(t testing.TB) map[string]string {
	t.Helper()
	tn := testkit.NewTenant(t)
	testkit.SetDomains(t, tn.ID, tn.ID+".example.org")
	return map[string]string{"tenant": tn.ID, "token": tn.AdminToken, "username": tn.AdminUsername, "password": tn.AdminPassword}
}

// TestHandlerAnswersRecordedEvents sends every recorded event of every group through the
// handler main builds (lambdamain.New: config from env, app.NewGroup, httpadapter.NewV2).
func TestHandlerAnswersRecordedEvents(t *testing.T) {
	r := root(t)
	for _, group := range groups(t) {
		cases, err := LoadCases(r, group)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Errorf("functions/%s/testdata has no recorded API Gateway v2 event (<name>.json + <name>.expect.json)", group)
			continue
		}
		h, err := handlerOf(group)
		if err != nil {
			t.Fatalf("%s: %v", group, err)
		}
		for _, c := range cases {
			t.Run(group+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				var req events.APIGatewayV2HTTPRequest
				if err := json.Unmarshal(Fill(c.Event, varsFor(t)), &req); err != nil {
					t.Fatal(err)
				}
				res, err := h(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if err := Check(res.StatusCode, res.Body, res.IsBase64Encoded, c.Expect); err != nil {
					t.Error(err)
				}
				if ct := res.Headers["Content-Type"]; ct == "" && res.MultiValueHeaders["Content-Type"] == nil {
					t.Errorf("no Content-Type header: %v", res.Headers)
				}
			})
		}
	}
}

var hostBootstraps = struct {
	once sync.Once
	bins map[string]string
	err  error
}{}

// hostBootstrap is functions/<group> built for this machine's architecture with the deployment
// flags (the deployed arm64 build differs only in GOARCH); the first call builds every group, in
// one go build.
func hostBootstrap(t testing.TB, group string) string {
	t.Helper()
	hostBootstraps.once.Do(func() {
		dir, err := os.MkdirTemp("", "lambdatest-")
		if err != nil {
			hostBootstraps.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		hostBootstraps.bins, hostBootstraps.err = BuildBootstraps(ctx, root(t), groups(t), HostArch(), dir)
	})
	if hostBootstraps.err != nil {
		t.Fatal(hostBootstraps.err)
	}
	bin, ok := hostBootstraps.bins[group]
	if !ok {
		t.Fatalf("no bootstrap built for group %s", group)
	}
	return bin
}

// TestBootstrapServesOneInvocation starts each group's real bootstrap binary against the fake
// Runtime API, hands it one recorded event and checks its answer.
func TestBootstrapServesOneInvocation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every group's bootstrap; skipped with -short")
	}
	r := root(t)
	for _, group := range groups(t) {
		t.Run(group, func(t *testing.T) {
			t.Parallel()
			cases, err := LoadCases(r, group)
			if err != nil {
				t.Fatal(err)
			}
			var c *Case
			for i := range cases {
				if cases[i].Expect.Status == 200 {
					c = &cases[i]
					break
				}
			}
			if c == nil {
				t.Fatalf("functions/%s/testdata has no event expecting 200", group)
			}
			bin := hostBootstrap(t, group)
			api, err := NewRuntimeAPI()
			if err != nil {
				t.Fatal(err)
			}
			defer api.Close()
			id := api.Enqueue(Fill(c.Event, varsFor(t)))
			p, err := StartBootstrap(bin, api, group, ForwardEnv())
			if err != nil {
				t.Fatal(err)
			}
			defer p.Stop()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			inv, err := api.Result(ctx)
			if err != nil {
				t.Fatalf("no answer from %s: %v; stderr: %s", filepath.Base(bin), err, p.Stderr)
			}
			if inv.Error != nil || inv.RequestID != id {
				t.Fatalf("invocation %s: error %s; stderr: %s", inv.RequestID, inv.Error, p.Stderr)
			}
			var res events.APIGatewayV2HTTPResponse
			if err := json.Unmarshal(inv.Response, &res); err != nil {
				t.Fatalf("response is not an API Gateway v2 response: %v: %s", err, inv.Response)
			}
			if err := Check(res.StatusCode, res.Body, res.IsBase64Encoded, c.Expect); err != nil {
				t.Errorf("%s (%s): %v", group, c.Name, err)
			}
			// After answering, the runtime asks for the next event: the loop is alive.
			if _, err := api.FirstNext(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}

// baselines are the reference functions BenchmarkColdStart measures before the groups:
// bench/hello, the smallest aws-lambda-go function, and bench/hello-dynamodb, the same plus a
// DynamoDB client (the floor of any function that reads the table).
var baselines = []string{"hello", "hello-dynamodb"}

// starts is how many times BenchmarkColdStart starts each bootstrap.
var starts = flag.Int("starts", 10, "BenchmarkColdStart: starts per bootstrap")

// BenchmarkColdStart reports, per group, the bootstrap's init time: from process start to its
// first GET /next (the median and lower quartile of -starts starts, and the median ratio of each
// start to hello-dynamodb's of the same round), and the binary sizes. The starts are interleaved
// (one of each bootstrap per round, in a new order each round), so a machine's load drifting
// during the run weighs on every group alike and the ratios to the baselines hold.
//
//	go test -run '^$' -bench ColdStart ./functions/lambdatest -args -starts 20
//
// The baselines come first, built with the same flags; bench/lambda-init.sh divides every
// group's figures by theirs.
func BenchmarkColdStart(b *testing.B) {
	type bootstrap struct {
		name, host, arm string
		inits           []time.Duration
	}
	var all []*bootstrap
	for _, name := range append(append([]string(nil), baselines...), groups(b)...) {
		pkg := "./functions/" + name
		if slices.Contains(baselines, name) {
			pkg = "./bench/" + name
		}
		dir := b.TempDir()
		host, err := BuildPackage(context.Background(), root(b), pkg, name, HostArch(), dir+"/host")
		if err != nil {
			b.Fatal(err)
		}
		arm, err := BuildPackage(context.Background(), root(b), pkg, name, "arm64", dir)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, &bootstrap{name: name, host: host, arm: arm})
	}
	for round := 0; round < *starts; round++ {
		// In a new order each round: a bootstrap's place in the round (after which others, how
		// long into the harness's own run) must not weigh on it more than on the others.
		for _, i := range rand.Perm(len(all)) {
			bs := all[i]
			d, err := timeInit(bs.host, bs.name)
			if err != nil {
				b.Fatal(err)
			}
			bs.inits = append(bs.inits, d)
		}
	}
	var helloDB []time.Duration
	for _, bs := range all {
		if bs.name == "hello-dynamodb" {
			helloDB = bs.inits
		}
	}
	for _, bs := range all {
		b.Run(bs.name, func(b *testing.B) {
			b.ReportMetric(float64(Median(bs.inits).Microseconds())/1000, "init-ms-median")
			b.ReportMetric(float64(LowerQuartile(bs.inits).Microseconds())/1000, "init-ms-p25")
			b.ReportMetric(PairedRatio(bs.inits, helloDB), "x-hello-db-paired")
			for metric, bin := range map[string]string{"host-bytes": bs.host, "arm64-bytes": bs.arm} {
				if fi, err := os.Stat(bin); err == nil {
					b.ReportMetric(float64(fi.Size()), metric)
				}
			}
		})
	}
}

// timeInit starts the bootstrap once and returns the time from process start to its first
// GET /next.
func timeInit(bin, group string) (time.Duration, error) {
	api, err := NewRuntimeAPI()
	if err != nil {
		return 0, err
	}
	defer api.Close()
	p, err := StartBootstrap(bin, api, group, ForwardEnv())
	if err != nil {
		return 0, err
	}
	defer p.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	at, err := api.FirstNext(ctx)
	if err != nil {
		return 0, fmt.Errorf("%s: %v; stderr: %s", group, err, p.Stderr)
	}
	return at.Sub(p.Started), nil
}
