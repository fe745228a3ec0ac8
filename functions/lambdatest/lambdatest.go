// Package lambdatest proves the Lambda path of every group function, not just the local server:
// recorded API Gateway v2 events (functions/<group>/testdata/*.json) go through the same adapter
// main uses, and each built bootstrap binary serves one invocation from a minimal Lambda
// Runtime API (the three calls: next, response, error) that this package provides.
package lambdatest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Case is one recorded event of a group and what the handler must answer.
type Case struct {
	// Group is the resource group (functions/<group>).
	Group string
	// Name is the event file name without .json.
	Name string
	// Event is the raw API Gateway v2 (payload 2.0) event with {{placeholders}}.
	Event []byte
	// Expect is read from <name>.expect.json.
	Expect Expect
}

// Expect is the expected answer to an event: status, and for JSON bodies the keys that must be
// present in "result" (an object), top-level fields, and the exact "message" if given.
type Expect struct {
	Status  int      `json:"status"`
	Result  []string `json:"result,omitempty"`
	Fields  []string `json:"fields,omitempty"`
	Message string   `json:"message,omitempty"`
	// HTML lists what an HTML answer (the website's) must contain; its body is not JSON.
	HTML []string `json:"html,omitempty"`
}

// LoadCases reads every functions/<group>/testdata/<name>.json that has a <name>.expect.json.
func LoadCases(root, group string) ([]Case, error) {
	dir := filepath.Join(root, "functions", group, "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, f := range files {
		if strings.HasSuffix(f, ".expect.json") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		ev, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		raw, err := os.ReadFile(filepath.Join(dir, name+".expect.json"))
		if err != nil {
			return nil, fmt.Errorf("lambdatest: %s has no %s.expect.json: %w", f, name, err)
		}
		c := Case{Group: group, Name: name, Event: ev}
		if err := json.Unmarshal(raw, &c.Expect); err != nil {
			return nil, fmt.Errorf("lambdatest: %s.expect.json: %w", name, err)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Fill replaces {{key}} placeholders in an event with JSON-safe values.
func Fill(event []byte, vars map[string]string) []byte {
	s := string(event)
	for k, v := range vars {
		q, _ := json.Marshal(v)
		s = strings.ReplaceAll(s, "{{"+k+"}}", string(q[1:len(q)-1]))
	}
	return []byte(s)
}

// Check compares an API Gateway v2 response (statusCode, body) with the expectation.
func Check(status int, body string, base64Encoded bool, want Expect) error {
	if base64Encoded {
		return fmt.Errorf("body is base64-encoded; JSON answers should be plain text")
	}
	if status != want.Status {
		return fmt.Errorf("status %d, want %d; body %s", status, want.Status, body)
	}
	if len(want.HTML) > 0 {
		for _, s := range want.HTML {
			if !strings.Contains(body, s) {
				return fmt.Errorf("HTML lacks %q: %.500s", s, body)
			}
		}
		return nil
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		return fmt.Errorf("body is not a JSON object: %v: %s", err, body)
	}
	if want.Message != "" && doc["message"] != want.Message {
		return fmt.Errorf("message %v, want %q", doc["message"], want.Message)
	}
	for _, f := range want.Fields {
		if _, ok := doc[f]; !ok {
			return fmt.Errorf("body lacks %q: %s", f, body)
		}
	}
	if len(want.Result) > 0 {
		res, ok := doc["result"].(map[string]any)
		if !ok {
			return fmt.Errorf("body has no result object: %s", body)
		}
		for _, k := range want.Result {
			if _, ok := res[k]; !ok {
				return fmt.Errorf("result lacks %q: %s", k, body)
			}
		}
	}
	return nil
}

// RepoRoot is the module root (the directory of go.mod above this package).
func RepoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("lambdatest: go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("lambdatest: not inside the module")
	}
	return filepath.Dir(gomod), nil
}

// BuildFlags are the flags the deployed bootstrap is built with (infra/scripts/build-functions.sh).
var BuildFlags = []string{"-tags", "lambda.norpc", "-trimpath", "-ldflags=-s -w"}

// BuildBootstraps builds functions/<group> for every group in one go build (each shared package
// compiled once; separate builds at once each compile the whole graph on a cold cache), with the
// deployment flags, into dir/<group>; it returns each group's binary.
func BuildBootstraps(ctx context.Context, root string, groups []string, goarch, dir string) (map[string]string, error) {
	args := append([]string{"build"}, BuildFlags...)
	args = append(args, "-o", dir+string(filepath.Separator))
	bins := map[string]string{}
	for _, g := range groups {
		args = append(args, "./functions/"+g)
		bins[g] = filepath.Join(dir, g)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+goarch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("lambdatest: build %v: %v\n%s", groups, err, msg)
	}
	return bins, nil
}

// BuildPackage builds any main package (relative to root) the way BuildBootstraps builds a
// group, into dir/<name>/bootstrap: the init benchmark's hello-world baseline uses it.
func BuildPackage(ctx context.Context, root, pkg, name, goarch, dir string) (string, error) {
	out := filepath.Join(dir, name, "bootstrap")
	args := append([]string{"build"}, BuildFlags...)
	args = append(args, "-o", out, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+goarch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("lambdatest: build %s: %v\n%s", pkg, err, msg)
	}
	return out, nil
}

// HostArch is the GOARCH a bootstrap must have to run on this machine.
func HostArch() string { return runtime.GOARCH }

// Invocation is what the function answered to one event.
type Invocation struct {
	RequestID string
	// Response is the body POSTed to /response (nil if the function reported an error).
	Response []byte
	// Error is the body POSTed to /error (or /init/error).
	Error []byte
}

// RuntimeAPI is a minimal Lambda Runtime API: GET /next hands out queued events, POST
// /{id}/response and /{id}/error collect the answers, POST /init/error reports a failed init.
// It records when /next is first called: the end of the function's init.
type RuntimeAPI struct {
	// Addr is host:port, the value of AWS_LAMBDA_RUNTIME_API.
	Addr string

	srv     *http.Server
	events  chan queued
	results chan Invocation

	mu        sync.Mutex
	firstNext time.Time
	nextSeen  chan struct{}
	seq       int
}

type queued struct {
	id   string
	body []byte
}

// NewRuntimeAPI listens on a free loopback port.
func NewRuntimeAPI() (*RuntimeAPI, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &RuntimeAPI{
		Addr:     ln.Addr().String(),
		events:   make(chan queued, 16),
		results:  make(chan Invocation, 16),
		nextSeen: make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", r.next)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/response", r.answer(false))
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/error", r.answer(true))
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.results <- Invocation{RequestID: "init", Error: body}
		w.WriteHeader(http.StatusAccepted)
	})
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// Close stops the server; a function blocked in /next sees its connection close.
func (r *RuntimeAPI) Close() { _ = r.srv.Close() }

// Enqueue queues an event and returns its request id.
func (r *RuntimeAPI) Enqueue(event []byte) string {
	r.mu.Lock()
	r.seq++
	id := "req-" + strconv.Itoa(r.seq)
	r.mu.Unlock()
	r.events <- queued{id: id, body: event}
	return id
}

// FirstNext waits for the function's first GET /next and returns when it came.
func (r *RuntimeAPI) FirstNext(ctx context.Context) (time.Time, error) {
	select {
	case <-r.nextSeen:
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.firstNext, nil
	case <-ctx.Done():
		return time.Time{}, ctx.Err()
	}
}

// Result waits for the next answer (response, error or init error).
func (r *RuntimeAPI) Result(ctx context.Context) (Invocation, error) {
	select {
	case inv := <-r.results:
		return inv, nil
	case <-ctx.Done():
		return Invocation{}, ctx.Err()
	}
}

func (r *RuntimeAPI) next(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	if r.firstNext.IsZero() {
		r.firstNext = time.Now()
		close(r.nextSeen)
	}
	r.mu.Unlock()
	select {
	case ev := <-r.events:
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Lambda-Runtime-Aws-Request-Id", ev.id)
		h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(30*time.Second).UnixMilli(), 10))
		h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:eu-west-1:123456789012:function:lambdatest")
		h.Set("Lambda-Runtime-Trace-Id", "Root=1-67a1b2c3-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=0")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(ev.body)
	case <-req.Context().Done():
	}
}

func (r *RuntimeAPI) answer(isError bool) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		inv := Invocation{RequestID: req.PathValue("id")}
		if isError {
			inv.Error = body
		} else {
			inv.Response = body
		}
		r.results <- inv
		w.WriteHeader(http.StatusAccepted)
	}
}

// Process is a bootstrap started against a RuntimeAPI.
type Process struct {
	Cmd     *exec.Cmd
	Started time.Time
	Stderr  *bytes.Buffer
}

// StartBootstrap runs the binary with AWS_LAMBDA_RUNTIME_API and the Lambda environment a
// provided.al2023 function sees, plus extra (TABLE_NAME, MEDIA_BUCKET, the emulator endpoint).
func StartBootstrap(bin string, api *RuntimeAPI, group string, extra []string) (*Process, error) {
	cmd := exec.Command(bin)
	cmd.Env = append([]string{
		"AWS_LAMBDA_RUNTIME_API=" + api.Addr,
		"AWS_LAMBDA_FUNCTION_NAME=campuscms-" + group,
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256",
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_LAMBDA_LOG_FORMAT=JSON",
		"LAMBDA_TASK_ROOT=" + filepath.Dir(bin),
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"TZ=:UTC",
	}, extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	p := &Process{Cmd: cmd, Stderr: &stderr}
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// Stop kills the process (Lambda freezes and later kills an idle sandbox; it never exits itself).
func (p *Process) Stop() {
	_ = p.Cmd.Process.Kill()
	_ = p.Cmd.Wait()
}

// ForwardEnv picks the variables a bootstrap needs from this process's environment: those Lambda
// sets for the SDK (region, keys), the emulator endpoint, and the function's configuration.
// Nothing else: a developer machine's AWS_CA_BUNDLE, say, makes the SDK parse a whole CA file at
// every start (5–7 ms here), a cost no deployed function pays.
func ForwardEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if forwarded[k] {
			out = append(out, kv)
		}
	}
	return out
}

var forwarded = map[string]bool{
	"AWS_ENDPOINT_URL": true, "AWS_REGION": true, "AWS_DEFAULT_REGION": true,
	"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true,
	"AWS_EC2_METADATA_DISABLED": true,
	"TABLE_NAME":                true, "MEDIA_BUCKET": true, "MEDIA_UPLOAD_URL": true, "LOG_LEVEL": true, "OBJECT_URL_PREFIX": true, "ORIGIN_SECRET": true,
}

// Median of durations (the mean of the middle two for an even count).
func Median[T ~int64 | ~float64](ds []T) T {
	s := sorted(ds)
	switch {
	case len(s) == 0:
		return 0
	case len(s)%2 == 1:
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// LowerQuartile of durations (the nearest rank): on a shared machine, the starts that other
// work slowed least, so a steadier measure of a program's own cost than the median.
func LowerQuartile(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return sorted(ds)[(len(ds)-1)/4]
}

// PairedRatio is the median over rounds of ds[i] / base[i], each start against the baseline's
// start of the same round (they run one after the other): load that drifts during a run (other
// tenants of a shared machine) weighs on both sides of each ratio, where a ratio of medians
// takes each median from different moments.
func PairedRatio(ds, base []time.Duration) float64 {
	var ratios []float64
	for i := range min(len(ds), len(base)) {
		if base[i] > 0 {
			ratios = append(ratios, float64(ds[i])/float64(base[i]))
		}
	}
	return Median(ratios)
}

func sorted[T ~int64 | ~float64](ds []T) []T {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s
}
