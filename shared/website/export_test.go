package website

import (
	"net/http"
	"net/http/httptest"
)

// BenchPages are the page kinds the render benchmark measures.
var BenchPages = []string{"home", "page", "events"}

// PrepareRender reads what one request of kind needs (resolving its host and reading as a real
// request does) and returns a function that only renders it again: the benchmark's measure of
// the time a page costs beyond DynamoDB.
func (s *Server) PrepareRender(r *http.Request, kind string) (func() error, error) {
	if kind == "page" {
		r.SetPathValue("slug", r.URL.Path[1:])
	}
	q, err := s.resolve(httptest.NewRecorder(), r)
	if err != nil {
		return nil, err
	}
	h := map[string]handler{"home": s.home, "page": s.cmsPage, "events": s.list(listPages[0])}[kind]
	v, err := h(q)
	if err != nil {
		return nil, err
	}
	return func() error {
		rec := httptest.NewRecorder()
		q.w = rec
		return s.render(q, v)
	}, nil
}
