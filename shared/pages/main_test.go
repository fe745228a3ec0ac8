package pages_test

import (
	"net/http"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

func mustStatus(t *testing.T, res testkit.Response, status int) {
	t.Helper()
	testkit.Expect(t, res, status, "")
}

// as sends a request as the tenant's admin.
func as(t *testing.T, tn testkit.Tenant, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
}

// newPage creates a page and returns its id and slug.
func newPage(t *testing.T, tn testkit.Tenant, title string) (id, slug string) {
	t.Helper()
	res := as(t, tn, "POST", "/pages", map[string]any{"title": title, "description": "About " + title})
	mustStatus(t, res, http.StatusCreated)
	return res.Get("result.id").(string), res.Get("result.slug").(string)
}

// version reads a page's current version.
func version(t *testing.T, tn testkit.Tenant, id string) float64 {
	t.Helper()
	res := as(t, tn, "GET", "/pages/"+id, nil)
	mustStatus(t, res, http.StatusOK)
	return res.Get("result.version").(float64)
}

// mediaRef is a well-formed media reference of the tenant's library.
const mediaRef = "01ARZ3NDEKTSV4RRFFQ69G5FAV/photo.png"
