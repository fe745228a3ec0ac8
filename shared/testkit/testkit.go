// Package testkit runs Go tests against the real handlers and the local AWS emulator: one
// emulator and one fresh table per test binary, one tenant per test, so tests run in parallel
// and never see each other's data.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/localaws"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/tenants"
)

// Base is the API base path.
const Base = "/api/v1/tenant"

var shared struct {
	emu    *localaws.Emulator
	deps   *app.Deps
	server *httptest.Server
	faults *awsclient.Faults
}

// Main is a test binary's TestMain: it starts moto_server when AWS_ENDPOINT_URL is unset,
// creates a table (and media bucket) unique to this binary, runs the tests and cleans up.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main without the exit: it returns the tests' exit code, for a TestMain that reports
// something after the tests.
func Run(m *testing.M) int { return RunOver(m, nil) }

// RunOver is Run with every AWS call passing through next, below the fault injector (nil: the
// default transport). The list benchmark adapts the calls dynalite lacks with it.
func RunOver(m *testing.M, next http.RoundTripper) int {
	ctx := context.Background()
	auth.LowerHashCostForTests()
	if os.Getenv("AWS_ENDPOINT_URL") == "" {
		emu, err := localaws.Start(ctx, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testkit:", err)
			return 1
		}
		defer emu.Stop()
		emu.UseEndpoint()
		shared.emu = emu
	}
	suffix := strings.ToLower(ids.New()[14:])
	os.Setenv("TABLE_NAME", "test-"+suffix)
	os.Setenv("MEDIA_BUCKET", "test-media-"+suffix)
	cfg, err := config.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	// Every AWS call of the handlers passes through the fault injector, which does nothing
	// until a test injects a fault (scoped to its own tenant).
	shared.faults = awsclient.NewFaults(next)
	if shared.deps, err = app.NewDeps(awsclient.WithTransport(ctx, shared.faults), cfg); err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	shared.deps.Log = discardLogger()
	if err := shared.deps.Store.EnsureTable(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	if err := localaws.EnsureBucket(ctx, s3client.New(shared.deps.AWS), cfg.MediaBucket, []string{"http://127.0.0.1"}); err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	handler, err := app.NewAPI(shared.deps, modules.All()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testkit:", err)
		return 1
	}
	shared.server = httptest.NewServer(handler)
	defer shared.server.Close()
	defer stopMailbox() // started by the first test that asked for it (Mailbox)
	return m.Run()
}

// EmulatorResident is the resident memory of the emulator this test binary started (ok false
// when it uses one named by AWS_ENDPOINT_URL), for benchmarks that report it.
func EmulatorResident(t testing.TB) (bytes int64, ok bool) {
	t.Helper()
	if shared.emu == nil {
		return 0, false
	}
	n, err := shared.emu.ResidentBytes()
	if err != nil {
		t.Fatal(err)
	}
	return n, true
}

// Deps returns the dependencies the test binary's handlers use.
func Deps(t testing.TB) *app.Deps {
	t.Helper()
	if shared.deps == nil {
		t.Fatal("testkit: call testkit.Main from TestMain")
	}
	return shared.deps
}

// Faults returns the fault injector every AWS call of the test binary's handlers passes through.
// Scope each injected fault to the test's tenant id (Fault.Match) so parallel tests are unaffected.
func Faults(t testing.TB) *awsclient.Faults {
	t.Helper()
	if shared.faults == nil {
		t.Fatal("testkit: call testkit.Main from TestMain")
	}
	return shared.faults
}

// URL is the address of the test binary's API server (for clients that speak HTTP themselves).
func URL(t testing.TB) string {
	t.Helper()
	if shared.server == nil {
		t.Fatal("testkit: call testkit.Main from TestMain")
	}
	return shared.server.URL
}

// Tenant is a fresh institution with a signed-in admin.
type Tenant struct {
	ID            string
	AdminID       string
	AdminUsername string
	AdminPassword string
	AdminToken    string
}

// NewTenant creates a tenant with a unique id and logs its admin in.
func NewTenant(t testing.TB) Tenant {
	t.Helper()
	tn := Tenant{ID: "t-" + strings.ToLower(ids.New()[12:]), AdminUsername: "admin", AdminPassword: "admin-pass-1"}
	u, err := tenants.Create(context.Background(), Deps(t).Store, tenants.NewTenant{ID: tn.ID, Name: "Test " + tn.ID,
		AdminUsername: tn.AdminUsername, AdminPassword: tn.AdminPassword})
	if err != nil {
		t.Fatal(err)
	}
	tn.AdminID = u.ID
	tn.AdminToken = Login(t, tn.ID, tn.AdminUsername, tn.AdminPassword)
	return tn
}

// Login signs a user in and returns the token, failing the test otherwise.
func Login(t testing.TB, tenant, username, password string) string {
	t.Helper()
	res := Call(t, Request{Method: "POST", Path: "/auth/login", Tenant: tenant, Body: map[string]any{"username": username, "password": password}})
	if res.Status != http.StatusOK {
		t.Fatalf("login %s/%s: %d %s", tenant, username, res.Status, res.Raw)
	}
	return res.Get("result.token").(string)
}

// Request is one API call; Path is relative to the base path, Body is marshalled to JSON unless
// it is a string or []byte (sent as is).
type Request struct {
	Method, Path, Tenant, Token string
	Body                        any
	Header                      map[string]string
}

// Response is the decoded answer.
type Response struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
}

// Call sends the request to the test binary's API server.
func Call(t testing.TB, req Request) Response {
	t.Helper()
	var body io.Reader
	switch b := req.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	path := req.Path
	if !strings.HasPrefix(path, "/api/") {
		path = Base + path
	}
	hr, err := http.NewRequest(req.Method, shared.server.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if req.Tenant != "" {
		hr.Header.Set("X-Tenant-Id", req.Tenant)
	}
	if req.Token != "" {
		hr.Header.Set("Authorization", "Bearer "+req.Token)
	}
	for k, v := range req.Header {
		hr.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	res := Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	_ = json.Unmarshal(raw, &res.Body)
	return res
}

// Get reads a dotted path ("result.user.id", "result.0.name") from the JSON body; nil if absent.
func (r Response) Get(path string) any {
	var cur any = r.Body
	for _, part := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[part]
		case []any:
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// Message is the body's "message".
func (r Response) Message() string {
	s, _ := r.Body["message"].(string)
	return s
}

// Expect fails the test unless the response has the status and, when message is not empty,
// that message.
func Expect(t testing.TB, res Response, status int, message string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d; body %s", res.Status, status, res.Raw)
	}
	if message != "" && res.Message() != message {
		t.Fatalf("message %q, want %q", res.Message(), message)
	}
}

// userSeq numbers the users NewUser creates within one test binary.
var userSeq atomic.Int64

// NewUser creates a non-admin user of the tenant holding exactly the given permission codes and
// returns its token.
func NewUser(t testing.TB, tn Tenant, perms ...string) string {
	t.Helper()
	if perms == nil {
		perms = []string{}
	}
	name := fmt.Sprintf("staff%d", userSeq.Add(1))
	res := Call(t, Request{Method: "POST", Path: "/users", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{
		"firstName": "Staff", "lastName": "Member", "username": name, "password": "staff-pass-1", "permissionIds": perms}})
	Expect(t, res, http.StatusCreated, "")
	return Login(t, tn.ID, name, "staff-pass-1")
}
