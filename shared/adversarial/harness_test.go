package adversarial_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/routes"
	"github.com/campuscms/panel/shared/testkit"
)

type call = testkit.Request

// send makes one request, counts it, and fails the test on any 5xx: the suite's one rule that
// holds for every request whatever it expects otherwise.
func send(t *testing.T, req call) testkit.Response {
	t.Helper()
	res := testkit.Call(t, req)
	totals.sent.Add(1)
	if res.Status >= 500 {
		totals.serverErrors.Add(1)
		t.Errorf("5xx: %s %s → %d %.300s", req.Method, req.Path, res.Status, res.Raw)
	}
	return res
}

// sendUnderFault is send for a request made while a fault is injected: a 503 "busy" is then the
// expected answer (counted as a refusal), any other 5xx still fails the test.
func sendUnderFault(t *testing.T, req call) testkit.Response {
	t.Helper()
	res := testkit.Call(t, req)
	totals.sent.Add(1)
	switch {
	case res.Status == http.StatusServiceUnavailable && res.Message() == busyMessage:
		totals.busy.Add(1)
	case res.Status >= 500:
		totals.serverErrors.Add(1)
		t.Errorf("5xx under an injected fault: %s %s → %d %.300s", req.Method, req.Path, res.Status, res.Raw)
	}
	return res
}

// refused asserts that res has one of the expected refusal statuses and counts it.
func refused(t *testing.T, what string, res testkit.Response, want ...int) {
	t.Helper()
	if !slices.Contains(want, res.Status) {
		t.Errorf("%s: %d %.300s, want %v", what, res.Status, res.Raw, want)
		return
	}
	totals.refused.Add(1)
}

// route is one declared route: its method, its path under the API base with {id}-style
// wildcards, and the prefix (path segment) it belongs to.
type route struct {
	Pattern, Method, Path, Prefix string
	HasID                         bool
}

// allRoutes lists every route every group declares, from the registered mux patterns.
func allRoutes(t *testing.T) []route {
	t.Helper()
	table, err := routes.Load()
	if err != nil {
		t.Fatal(err)
	}
	byGroup, err := app.Patterns(testkit.Deps(t), modules.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var out []route
	for _, g := range table.GroupNames() {
		if table.BasePathFor(g) != table.BasePath {
			// The public website API (its own base path) has no staff token to steal or climb
			// with; shared/public's tests cover its tenancy, leaks, caching and limits.
			continue
		}
		for _, p := range byGroup[g] {
			method, path, ok := strings.Cut(p, " ")
			if !ok {
				t.Fatalf("pattern %q has no method: every route must name one", p)
			}
			path = strings.TrimPrefix(path, table.BasePath)
			prefix, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
			out = append(out, route{Pattern: p, Method: method, Path: path, Prefix: prefix, HasID: strings.Contains(path, "{id}")})
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d routes found", len(out))
	}
	return out
}

// concrete fills the route's wildcards: {id} with id, {version} with the first one, {kind}
// with a collection, {$} with
// nothing.
func (r route) concrete(id string) string {
	p := strings.ReplaceAll(r.Path, "{$}", "")
	p = strings.ReplaceAll(p, "{id}", id)
	p = strings.ReplaceAll(p, "{version}", "1")
	p = strings.ReplaceAll(p, "{kind}", "faqs")
	if strings.Contains(p, "{") {
		panic("adversarial: route " + r.Pattern + " has a wildcard the suite does not know; teach concrete() about it")
	}
	return p
}

func (r route) hasBody() bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPatch || r.Method == http.MethodPut
}

// publicRoutes are the routes open without a token. A new public route must be added here on
// purpose; until then the suite fails on it (it expects a 401).
var publicRoutes = map[string]bool{
	"POST /auth/login":    true,
	"POST /auth/passcode": true,
	// The second step of a sign-in: its proof is the challenge in the body, not a token.
	"POST /auth/two-factor": true,
	"GET /auth/tenant-info": true,
	// A forgotten password: the request names an account, the confirm carries the mail's token.
	"POST /auth/password-reset":         true,
	"POST /auth/password-reset/confirm": true,
	"GET /misc/server-time":             true,
}

func (r route) public() bool { return publicRoutes[r.Method+" "+r.Path] }

func registry(t *testing.T) collections.Registry {
	t.Helper()
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

var seq struct {
	sync.Mutex
	n int
}

// next returns a number unique in the run, so generated usernames never collide.
func next() int {
	seq.Lock()
	defer seq.Unlock()
	seq.n++
	return seq.n
}

// uploadMedia stores one media record in the tenant the way the browser does.
func uploadMedia(t *testing.T, tn testkit.Tenant) string {
	t.Helper()
	png := imagingtest.TransparentPNG(t, 4, 4) // a real image: confirmation decodes it
	res := send(t, call{Method: "POST", Path: "/media/uploads", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "a.png", "size": len(png), "mimeType": "image/png"}})
	if res.Status != 200 {
		t.Fatalf("upload request: %d %s", res.Status, res.Raw)
	}
	var tk struct {
		Result struct {
			URL    string            `json:"url"`
			Fields map[string]string `json:"fields"`
			Key    string            `json:"key"`
		} `json:"result"`
	}
	if err := json.Unmarshal(res.Raw, &tk); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range tk.Result.Fields {
		_ = mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "a.png")
	_, _ = fw.Write(png)
	_ = mw.Close()
	resp, err := http.Post(tk.Result.URL, mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	res = send(t, call{Method: "POST", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"key": tk.Result.Key, "name": "a.png"}})
	if res.Status != http.StatusCreated {
		t.Fatalf("confirm upload: %d %s", res.Status, res.Raw)
	}
	return res.Get("result.id").(string)
}

// snapshot is what a tenant's data looks like from outside: each collection's count, each given
// record as stored, the dashboard counters and the media library.
func snapshot(t *testing.T, tn testkit.Tenant, reg collections.Registry, ids map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	get := func(name, path string) {
		res := send(t, call{Method: "GET", Path: path, Tenant: tn.ID, Token: tn.AdminToken})
		if res.Status != 200 {
			t.Fatalf("snapshot %s: %d %s", path, res.Status, res.Raw)
		}
		out[name] = string(res.Raw)
	}
	for _, key := range reg.Keys() {
		get("count "+key, "/"+key+"?limit=100")
		if id := ids[key]; id != "" {
			get("record "+key, "/"+key+"/"+id)
		}
	}
	get("counters", "/misc/masters")
	get("media", "/media?limit=100")
	return out
}

// sameSnapshot fails the test on any difference between two snapshots.
func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: %s changed:\nbefore %.400s\nafter  %.400s", what, k, v, after[k])
		}
	}
}

// world is the shared cast of the route walk: tenant A (the caller's), tenant B (the other),
// a record of every collection in each, a media record in B, and a user of A without rights.
type world struct {
	reg        collections.Registry
	a, b       testkit.Tenant
	aIDs, bIDs map[string]string
	noRights   string // token of a user of A with no permission at all
	nobody     string // that user's username
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{reg: registry(t), a: testkit.NewTenant(t), b: testkit.NewTenant(t), aIDs: map[string]string{}, bIDs: map[string]string{}}
	for _, key := range w.reg.Keys() {
		if w.reg[key].Singleton != "" {
			// One record per tenant, always there; its id is the tenant id.
			w.aIDs[key], w.bIDs[key] = w.a.ID, w.b.ID
			continue
		}
		w.aIDs[key] = testkit.CreateRecord(t, w.a, w.reg, w.reg[key], next())["id"].(string)
		w.bIDs[key] = testkit.CreateRecord(t, w.b, w.reg, w.reg[key], next())["id"].(string)
	}
	w.bIDs["media"] = uploadMedia(t, w.b)
	name := fmt.Sprintf("nobody-%d", next())
	res := send(t, call{Method: "POST", Path: "/users", Tenant: w.a.ID, Token: w.a.AdminToken, Body: map[string]any{
		"firstName": "No", "lastName": "Rights", "username": name, "password": "nobody-pass-1", "isAdmin": false, "permissionIds": []string{}}})
	if res.Status != http.StatusCreated {
		t.Fatalf("create user without rights: %d %s", res.Status, res.Raw)
	}
	w.nobody = name
	w.noRights = testkit.Login(t, w.a.ID, name, "nobody-pass-1")
	return w
}

// freshToken signs A's admin in again, for routes that end the session they are called with.
func (w *world) freshToken(t *testing.T) string {
	t.Helper()
	return testkit.Login(t, w.a.ID, w.a.AdminUsername, w.a.AdminPassword)
}

var _ = context.Background

// tokens returns the admin's and the rights-less user's tokens for calling r: fresh sessions for
// a route that ends the session it is called with, the shared ones otherwise.
func (w *world) tokens(t *testing.T, r route) (admin, noRights string) {
	t.Helper()
	if r.Path == "/auth/logout" {
		return w.freshToken(t), testkit.Login(t, w.a.ID, w.nobody, "nobody-pass-1")
	}
	return w.a.AdminToken, w.noRights
}
