package public_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

var api struct {
	once sync.Once
	h    http.Handler
	err  error
}

// handler is the whole API as the local server mounts it.
func handler(t *testing.T) http.Handler {
	t.Helper()
	api.once.Do(func() { api.h, api.err = app.NewAPI(testkit.Deps(t), modules.All()...) })
	if api.err != nil {
		t.Fatal(api.err)
	}
	return api.h
}

// req is one public request.
type req struct {
	method, path string
	tenant       string
	host         string // Host header; "" leaves httptest's example.com
	header       map[string]string
	body         string
	client       string // RemoteAddr
}

type resp struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
	calls  int64
}

// public serves one request under /api/v1/public through the real handlers, counting its
// DynamoDB calls.
func public(t *testing.T, q req) resp {
	t.Helper()
	if q.method == "" {
		q.method = "GET"
	}
	ctx, calls := awsclient.WithCallCounter(context.Background())
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	hr := httptest.NewRequestWithContext(ctx, q.method, "/api/v1/public"+q.path, body)
	if q.body != "" {
		hr.Header.Set("Content-Type", "application/json")
	}
	if q.tenant != "" {
		hr.Header.Set("X-Tenant-Id", q.tenant)
	}
	if q.host != "" {
		hr.Host = q.host
	}
	if q.client != "" {
		hr.RemoteAddr = q.client
	}
	for k, v := range q.header {
		hr.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	handler(t).ServeHTTP(rec, hr)
	out := resp{status: rec.Code, header: rec.Header(), raw: rec.Body.Bytes(), calls: calls.Load()}
	_ = json.Unmarshal(out.raw, &out.body)
	return out
}

func expect(t *testing.T, r resp, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
}

// result is the body's result list.
func (r resp) list() []map[string]any {
	items, _ := r.body["result"].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		out = append(out, it.(map[string]any))
	}
	return out
}

func (r resp) ids() []string {
	var out []string
	for _, it := range r.list() {
		out = append(out, it["id"].(string))
	}
	return out
}

// create makes a record through the staff API and returns its id.
func create(t *testing.T, tn testkit.Tenant, collection string, body map[string]any) string {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/" + collection, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, http.StatusCreated, "")
	return res.Get("result.id").(string)
}

// patch edits a record through the staff API.
func patch(t *testing.T, tn testkit.Tenant, collection, id string, body map[string]any) {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/" + collection + "/" + id, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, http.StatusOK, "")
}

const img = "01ARZ3NDEKTSV4RRFFQ69G5FAV/photo.png"
