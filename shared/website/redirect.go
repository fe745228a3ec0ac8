package website

import (
	"net/http"
	"sync"

	"github.com/campuscms/panel/shared/public"
)

// Redirects (the redirects collection) answer old addresses, WordPress's among them, once the new
// site has nothing there: a page, list or detail at the address always wins. The one exception is
// the home page asked with a WordPress query (/?p=123, /?page_id=7): / always answers, so such a
// request looks its redirect up first (redirectFirst). Only GET and HEAD are redirected; a form
// posted to an old address gets the 404 as before.

// redirectable reports whether a request may be answered with a redirect.
func redirectable(r *http.Request) bool {
	return r.Method == http.MethodGet || r.Method == http.MethodHead
}

// lookupRedirect is the site's redirect from the address q asks for (one GetItem; none for a
// method that is not redirected, or an address no redirect can be from).
func (s *Server) lookupRedirect(q *req) (public.Redirect, bool, error) {
	if !redirectable(q.r) {
		return public.Redirect{}, false, nil
	}
	return s.read.Redirect(q.r.Context(), q.site, q.r.URL)
}

// redirectFirst answers q with its redirect before the handler's own reads, when there is one:
// the tenant is checked as for any page (unknown, suspended, a host it does not own: as before).
// done is true when it answered.
func (s *Server) redirectFirst(q *req) (done bool, err error) {
	if q.lang != "" {
		return false, nil // the redirects are old addresses of the default language's site
	}
	rd, ok, err := s.lookupRedirect(q)
	if err != nil || !ok {
		return false, err
	}
	if q.visit == nil {
		if _, err := s.load(q, public.Want{NoSettings: true}); err != nil {
			return false, err
		}
	}
	public.WriteRedirect(q.w, q.r, rd)
	return true, nil
}

// redirectNotFound answers a request the site has nothing for with its redirect, when there is
// one, and otherwise leaves q's visit loaded with the settings the 404 page shows (done false).
// When those are still to be read, the redirect is looked up side by side with them, so a 404
// costs no more round trips than before.
func (s *Server) redirectNotFound(q *req) (done bool, err error) {
	var rd public.Redirect
	var found bool
	var lookupErr error
	if q.lang != "" {
		// The redirects are old addresses of the default language's site.
		if q.visit == nil || q.visit.Settings == nil {
			_, err = s.load(q, public.Want{})
		}
		return false, err
	}
	if q.visit == nil || q.visit.Settings == nil {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd, found, lookupErr = s.lookupRedirect(q)
		}()
		_, err = s.load(q, public.Want{})
		wg.Wait()
		if err != nil {
			return false, err
		}
	} else {
		rd, found, lookupErr = s.lookupRedirect(q)
	}
	if lookupErr != nil || !found {
		return false, lookupErr
	}
	public.WriteRedirect(q.w, q.r, rd)
	return true, nil
}
