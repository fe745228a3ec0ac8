package drafts_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func as(t *testing.T, tn testkit.Tenant, token, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: token, Body: body})
}

func must(t *testing.T, res testkit.Response, status int) testkit.Response {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d: %s", res.Status, status, res.Raw)
	}
	return res
}

var site struct {
	once sync.Once
	h    http.Handler
	err  error
}

// visit reads path of tn's website as a visitor.
func visit(t *testing.T, tn testkit.Tenant, path string) (int, string) {
	t.Helper()
	site.once.Do(func() { site.h, site.err = website.Build(testkit.Deps(t), website.Options{LocalHosts: true}) })
	if site.err != nil {
		t.Fatal(site.err)
	}
	r := httptest.NewRequestWithContext(context.Background(), "GET", path, nil)
	r.Host = tn.ID + ".localhost:8080"
	w := httptest.NewRecorder()
	site.h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// public reads path of the public API of tn.
func public(t *testing.T, tn testkit.Tenant, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", testkit.URL(t)+"/api/v1/public"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Tenant-Id", tn.ID)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// search is the website's visitor search for q.
func search(t *testing.T, tn testkit.Tenant, q string) string {
	t.Helper()
	_, body := visit(t, tn, "/search?"+url.Values{"q": {q}}.Encode())
	return body
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
