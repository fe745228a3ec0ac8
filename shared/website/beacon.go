package website

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/visits"
)

// BeaconPath is where site.js sends a page view: the site's own host, so no CORS and no
// third party.
const BeaconPath = "/_v"

// maxBeaconBytes bounds a beacon's body: a path of 200 bytes, a token and a host fit many times.
const maxBeaconBytes = 2048

// DefaultViewLimit admits 300 page views per client address and tenant every 10 minutes (one
// every two seconds), enough for a class behind one school address; past it views are not
// counted.
var DefaultViewLimit = public.Limit{Max: 300, Window: 10 * time.Minute}

// countTimeout bounds the writes of one view counted after its answer (CountAfter).
const countTimeout = 5 * time.Second

// beacon is what site.js sends: the page's path, time zone and token as the page carries them,
// and the host of the site the visitor came from (never the whole address).
type beacon struct {
	Path     string `json:"p"`
	Zone     string `json:"z"`
	Token    string `json:"v"`
	Referrer string `json:"r"`
}

// pageCount is what a page carries for its beacon (site.js reads it from the script element):
// its path, the time zone whose day its views count in (the site settings', read with the page
// anyway, so counting reads nothing) and the token binding both to the tenant.
type pageCount struct {
	Path  string
	Zone  string
	Token string
}

// countOf is the beacon data of a page being rendered: only a page answered 200 to a GET, neither
// private (an answer to a POST) nor a preview, and at a path that is counted.
func (s *Server) countOf(q *req, v *view) *pageCount {
	if (v.Status != 0 && v.Status != http.StatusOK) || v.Private || v.Preview || (q.r.Method != http.MethodGet && q.r.Method != http.MethodHead) {
		return nil
	}
	p, ok := visits.NormalizePath(q.loc.Href(q.r.URL.Path))
	if !ok || q.visit == nil || q.visit.Settings == nil {
		return nil
	}
	zone := q.visit.Settings.TimeZone().String()
	return &pageCount{Path: p, Zone: zone, Token: visits.Sign(s.viewKey, q.site.Scope.Tenant(), p, zone)}
}

// beacon serves POST /_v: one page view. It answers 204 whatever becomes of the view (a
// visitor's browser has nothing to do with the answer) and never sets a cookie. Counted is a
// view whose token is the one its tenant's page at that path carries, from a browser that does
// not ask not to be tracked (DNT, Sec-GPC), is no known bot, and is under its address's limit.
// What is stored is the path and the referring site's host, never the visitor's address or
// user agent; the limit keeps, as the forms' does, a truncated hash of the address for its
// window (expiresAt).
func (s *Server) beacon(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBeaconBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "Request body too large.", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "Bad request.", http.StatusBadRequest)
		return
	}
	var b beacon
	if err := json.Unmarshal(body, &b); err != nil {
		http.Error(w, "Bad request: the body must be JSON.", http.StatusBadRequest)
		return
	}
	q, err := s.resolve(w, r)
	if err != nil {
		s.fail(nil, w, r, err)
		return
	}
	view, ok := s.countable(q, b)
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	client := public.ClientAddress(r)
	if !s.opts.CountAfter {
		// In Lambda nothing runs after the answer: the writes finish first (one UpdateItem for
		// the limit, one per count, side by side), while the browser, which sent a beacon, waits
		// for nothing.
		s.count(r.Context(), q, client, view)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.WriteHeader(http.StatusNoContent)
	s.pending.Go(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), countTimeout)
		defer cancel()
		s.count(ctx, q, client, view)
	})
}

// countable is the view a beacon stands for, if it is counted.
func (s *Server) countable(q *req, b beacon) (visits.View, bool) {
	h := q.r.Header
	if h.Get("DNT") == "1" || h.Get("Sec-GPC") == "1" || visits.IsBot(q.r.UserAgent()) {
		return visits.View{}, false
	}
	p, ok := visits.NormalizePath(b.Path)
	if !ok || p != b.Path || !visits.Verify(s.viewKey, q.site.Scope.Tenant(), p, b.Zone, b.Token) {
		return visits.View{}, false
	}
	zone, ok := visits.Zone(b.Zone)
	if !ok {
		return visits.View{}, false
	}
	ref := visits.NormalizeHost(b.Referrer)
	if ref == q.host {
		ref = "" // a visitor moving between the site's own pages
	}
	return visits.View{Path: p, Referrer: ref, Zone: zone}, true
}

// count counts a view under the client's limit; a failure is logged, never answered.
func (s *Server) count(ctx context.Context, q *req, client string, v visits.View) {
	if err := s.read.Allow(ctx, q.site, client, "views", s.opts.ViewLimit); err != nil {
		var limited *public.RateLimited
		if !errors.As(err, &limited) {
			s.opts.Log.WarnContext(ctx, "page view not counted", "cause", err.Error())
		}
		return
	}
	if err := s.counter.Count(ctx, q.site.Scope, v); err != nil {
		s.opts.Log.WarnContext(ctx, "page view not counted", "cause", err.Error())
	}
}

// WaitForCounts waits until the views counted after their answer (CountAfter) are written: the
// local server's shutdown, and tests.
func (s *Server) WaitForCounts() { s.pending.Wait() }
