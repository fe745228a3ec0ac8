package app

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
)

// Router is a group's api.Mux: the Go 1.22 patterns the modules declare ("PATCH
// /api/v1/tenant/faqs/{id}", "OPTIONS /x/{rest...}", "PATCH /x/{$}"), matched as net/http's
// ServeMux matches them (a literal segment wins over a wildcard, GET serves HEAD, {id} values
// unescaped and set as path values), with the API's JSON 404 and 405 (and its Allow header). It
// exists for the cold start: ServeMux parses each pattern and checks it against the others for
// conflicts, about half of a group's start with a hundred routes; the router splits a pattern in
// a few string operations, files it by its number of segments, and refuses only an exact
// duplicate (the route table's test walks every pattern of every group through ServeMux too).
type Router struct {
	// bySegments holds the routes of n path segments at n; rest the routes ending in {rest...}.
	bySegments map[int][]*route
	rest       []*route
	// fallback serves what no route does; nil: the API's JSON 404 and 405.
	fallback http.Handler
}

// route is one declared pattern.
type route struct {
	pattern string
	method  string
	// segments are the path's segments: a literal, or a wildcard's name in braces ("{id}").
	segments []string
	// trailingSlash: the pattern ends in {$} (its path ends in "/").
	trailingSlash bool
	// rest names the final {name...} wildcard that takes the path's remaining segments, if any.
	rest    string
	handler http.Handler
}

// NewRouter returns an empty router. Requests no route serves (no route for the path, or none
// for its method, or a path that is not clean) go to fallback, or when it is nil get the API's
// JSON 404, or 405 with Allow (the website's fallback is its HTML 404 page).
func NewRouter(fallback http.Handler) *Router {
	return &Router{bySegments: map[int][]*route{}, fallback: fallback}
}

// Handle declares a pattern; a pattern declared twice, one without a method, or a subtree
// ("/x/") is a start-up error (a panic, as ServeMux's).
func (rt *Router) Handle(pattern string, h http.Handler) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || method == "" || !strings.HasPrefix(path, "/") {
		panic(fmt.Sprintf("app: route %q: want \"METHOD /path\"", pattern))
	}
	r := &route{pattern: pattern, method: method, handler: h}
	path, r.trailingSlash = strings.CutSuffix(path, "/{$}")
	if strings.HasSuffix(path, "/") {
		// ServeMux's "/x/" takes every path under /x; the groups' routes never need it.
		panic(fmt.Sprintf("app: route %q: a pattern ending in / (a subtree) is not supported", pattern))
	}
	if path != "" {
		r.segments = strings.Split(path[1:], "/")
	}
	rest := false
	if n := len(r.segments); n > 0 && strings.HasPrefix(r.segments[n-1], "{") && strings.HasSuffix(r.segments[n-1], "...}") {
		last := r.segments[n-1]
		r.rest = strings.TrimSuffix(last[1:], "...}")
		r.segments, rest = r.segments[:len(r.segments)-1], true
	}
	list := rt.bySegments[len(r.segments)]
	if rest {
		list = rt.rest
	}
	for _, other := range list {
		if other.method == r.method && other.trailingSlash == r.trailingSlash && sameShape(other.segments, r.segments) {
			panic(fmt.Sprintf("app: route %q conflicts with %q", pattern, other.pattern))
		}
	}
	if rest {
		rt.rest = append(rt.rest, r)
	} else {
		rt.bySegments[len(r.segments)] = append(list, r)
	}
}

// sameShape reports whether two patterns' segments match the same paths.
func sameShape(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if isWildcard(a[i]) != isWildcard(b[i]) || !isWildcard(a[i]) && a[i] != b[i] {
			return false
		}
	}
	return true
}

func isWildcard(seg string) bool { return strings.HasPrefix(seg, "{") }

// ServeHTTP serves the best route of the request's path and method: of the routes whose path
// matches, the most specific (literal segments before wildcards, left to right); the JSON 405
// with Allow when some match the path but not the method, the JSON 404 when none do (and for a
// path with an empty, "." or ".." segment).
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	escaped := r.URL.EscapedPath()
	trailingSlash := strings.HasSuffix(escaped, "/")
	var segs []string
	if trimmed := strings.TrimSuffix(escaped, "/"); trimmed != "" {
		segs = strings.Split(trimmed[1:], "/")
	}
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil || s == "" || s == "." || s == ".." {
			// Not a clean path (ServeMux would redirect to the cleaned one; API Gateway and
			// CloudFront send clean paths): no route.
			rt.notFound(w, r)
			return
		}
		segs[i] = u
	}
	candidates := [][]*route{rt.bySegments[len(segs)], rt.rest}
	pathMatches := func(c *route) bool {
		rest := c.rest != ""
		return (rest || c.trailingSlash == trailingSlash) && c.matches(segs, rest)
	}
	var best *route
	for _, list := range candidates {
		for _, c := range list {
			if pathMatches(c) && c.serves(r.Method) && (best == nil || moreSpecific(c, best)) {
				best = c
			}
		}
	}
	if best == nil && rt.fallback != nil {
		rt.fallback.ServeHTTP(w, r)
		return
	}
	if best == nil {
		// The methods the path has, if any: 405 with Allow, else 404.
		var allow []string
		for _, list := range candidates {
			for _, c := range list {
				if pathMatches(c) {
					allow = append(allow, c.method)
					if c.method == http.MethodGet {
						allow = append(allow, http.MethodHead)
					}
				}
			}
		}
		if len(allow) == 0 {
			rt.notFound(w, r)
			return
		}
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(slices.Compact(allow), ", "))
		_ = api.JSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method not allowed."})
		return
	}
	for i, seg := range best.segments {
		if isWildcard(seg) {
			r.SetPathValue(seg[1:len(seg)-1], segs[i])
		}
	}
	if best.rest != "" {
		rest := strings.Join(segs[len(best.segments):], "/")
		if trailingSlash && rest != "" {
			rest += "/"
		}
		r.SetPathValue(best.rest, rest)
	}
	r.Pattern = best.pattern
	best.handler.ServeHTTP(w, r)
}

// notFound answers a request no route serves: the fallback, or the API's JSON 404.
func (rt *Router) notFound(w http.ResponseWriter, r *http.Request) {
	if rt.fallback != nil {
		rt.fallback.ServeHTTP(w, r)
		return
	}
	NotFound(w, r)
}

// NotFound is the API's JSON 404.
func NotFound(w http.ResponseWriter, _ *http.Request) {
	_ = api.JSON(w, http.StatusNotFound, map[string]string{"message": "Not found."})
}

// serves reports whether the route answers method (a GET route answers HEAD too).
func (c *route) serves(method string) bool {
	return c.method == method || c.method == http.MethodGet && method == http.MethodHead
}

// matches reports whether the route's segments match the path's (rest: the route ends in
// {rest...}, which takes zero or more further segments).
func (c *route) matches(segs []string, rest bool) bool {
	if rest && len(segs) < len(c.segments) || !rest && len(segs) != len(c.segments) {
		return false
	}
	for i, seg := range c.segments {
		if !isWildcard(seg) && seg != segs[i] {
			return false
		}
	}
	return true
}

// moreSpecific reports whether a beats b for the same path: at the first segment where one is
// literal and the other a wildcard, the literal; then a pattern without {rest...}.
func moreSpecific(a, b *route) bool {
	for i := 0; i < len(a.segments) && i < len(b.segments); i++ {
		if wa, wb := isWildcard(a.segments[i]), isWildcard(b.segments[i]); wa != wb {
			return !wa
		}
	}
	return len(a.segments) > len(b.segments)
}
