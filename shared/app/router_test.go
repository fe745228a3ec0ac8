package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// echo answers which pattern served the request and the path values it saw.
func echo(pattern string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var vals []string
		for _, name := range []string{"id", "version", "kind", "slug", "rest"} {
			if v := r.PathValue(name); v != "" {
				vals = append(vals, name+"="+v)
			}
		}
		fmt.Fprintf(w, "%s %s", pattern, strings.Join(vals, " "))
	})
}

// paths are requests to try against a group's patterns: each pattern's path with its wildcards
// filled, and the same with a trailing slash, one segment more, one fewer, an escaped slash in a
// wildcard, and an empty wildcard.
func paths(patterns []string) []string {
	set := map[string]bool{"/": true, "/api/v1/tenant/nothing-here": true}
	for _, p := range patterns {
		_, path, _ := strings.Cut(p, " ")
		path = strings.Replace(path, "/{$}", "/", 1)
		filled := strings.NewReplacer("{id}", "rec-1", "{version}", "3", "{kind}", "faqs", "{slug}", "about-us", "{rest...}", "a/b").Replace(path)
		set[filled] = true
		set[strings.TrimSuffix(filled, "/")+"/"] = true
		set[filled+"/extra"] = true
		set[filled[:strings.LastIndex(strings.TrimSuffix(filled, "/"), "/")+1]] = true
		set[strings.Replace(path, "{id}", "a%2Fb", 1)] = true
		set[strings.Replace(path, "{id}", "", 1)] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		if !strings.Contains(p, "{") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// TestRouterMatchesServeMux: for every group's routes, every method and paths around each route,
// the router picks the route net/http's ServeMux picks, with the same path values, and answers
// 404 and 405 (with the same Allow) where it does.
func TestRouterMatchesServeMux(t *testing.T) {
	byGroup, err := app.Patterns(testkit.Deps(t), modules.All()...)
	if err != nil {
		t.Fatal(err)
	}
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
	checked := 0
	for group, patterns := range byGroup {
		rt, mux := app.NewRouter(nil), http.NewServeMux()
		for _, p := range patterns {
			rt.Handle(p, echo(p))
			mux.Handle(p, echo(p))
		}
		for _, path := range paths(patterns) {
			if redirects(mux, methods, path) {
				continue
			}
			for _, m := range methods {
				want, got := httptest.NewRecorder(), httptest.NewRecorder()
				rt.ServeHTTP(got, httptest.NewRequest(m, path, nil))
				checked++
				if strings.Contains(path, "//") {
					// ServeMux redirects to the cleaned path; the router has no route there.
					if got.Code != http.StatusNotFound {
						t.Errorf("%s %s: %d, want 404", m, path, got.Code)
					}
					continue
				}
				mux.ServeHTTP(want, httptest.NewRequest(m, path, nil))
				if want.Code != got.Code || want.Header().Get("Allow") != got.Header().Get("Allow") ||
					want.Code == 200 && want.Body.String() != got.Body.String() {
					t.Errorf("%s: %s %s: ServeMux %d %q (Allow %q), router %d %q (Allow %q)", group, m, path,
						want.Code, want.Body.String(), want.Header().Get("Allow"), got.Code, got.Body.String(), got.Header().Get("Allow"))
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d requests checked", checked)
	}
}

// redirects reports whether ServeMux redirects some method's request for path: to the path with a
// slash ("PATCH /notifications" to the pattern "/notifications/{$}"), which the router does not do.
func redirects(mux *http.ServeMux, methods []string, path string) bool {
	for _, m := range methods {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(m, path, nil))
		if rec.Code == http.StatusMovedPermanently || rec.Code == http.StatusTemporaryRedirect {
			return true
		}
	}
	return false
}

// TestRouterAnswersJSON: the API's JSON failure bodies, the root, and a duplicate route, a subtree
// and a pattern without a method refused at start.
func TestRouterAnswersJSON(t *testing.T) {
	rt := app.NewRouter(nil)
	rt.Handle("GET /api/x/{id}", echo("x"))
	for path, want := range map[string]string{"/api/y": `{"message":"Not found."}`, "/api/x/1": `{"message":"Method not allowed."}`} {
		rec := httptest.NewRecorder()
		rt.ServeHTTP(rec, httptest.NewRequest("POST", path, nil))
		if strings.TrimSpace(rec.Body.String()) != want || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			t.Errorf("POST %s: %d %s", path, rec.Code, rec.Body)
		}
	}
	rt.Handle("GET /{$}", echo("root"))
	rec := httptest.NewRecorder()
	rt.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Body.String() != "root " {
		t.Errorf("GET /: %d %q", rec.Code, rec.Body)
	}
	for _, bad := range []string{"GET /api/x/{other}", "GET /api/tree/", "/api/no-method"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%q was accepted", bad)
				}
			}()
			rt.Handle(bad, echo("y"))
		}()
	}
}
