package public

import (
	"context"
	"html/template"
	"net/http"
	"net/url"

	"github.com/campuscms/panel/shared/redirects"
	"github.com/campuscms/panel/shared/store"
)

// Redirect is where the website sends a visitor of an old address (the redirects collection).
type Redirect struct {
	// ID is the redirect's record.
	ID string
	// To is a path of the site (kept relative, so it stays on the host asked) or an https://
	// address.
	To string
	// Status is 301 or 302.
	Status int
}

// Redirect is the site's redirect from the address u asks for: its path, with its one WordPress
// query parameter (?p=123, ?page_id=7…) when it has exactly one (redirects.RequestKey). One
// GetItem of the path's marker, which holds the target and status; ok is false when there is no
// redirect from it, or it is switched off. The website asks only once nothing of the new site answers the address,
// except for the home page with such a query (WordPress's /?p=123), asked before the home page.
func (r *Reader) Redirect(ctx context.Context, site *Site, u *url.URL) (Redirect, bool, error) {
	key, ok := redirects.RequestKey(u.EscapedPath(), u.RawQuery)
	if !ok {
		return Redirect{}, false, nil
	}
	var m redirects.Marker
	err := r.st.Get(ctx, redirects.MarkerKey(site.Scope, key), &m)
	switch {
	case store.IsNotFound(err):
		return Redirect{}, false, nil
	case err != nil:
		return Redirect{}, false, store.Wrap("redirect "+key, err)
	case m.Off || m.To == "" || (m.StatusCode != redirects.Permanent && m.StatusCode != redirects.Temporary):
		return Redirect{}, false, nil
	}
	return Redirect{ID: m.RedirectID, To: m.To, Status: m.StatusCode}, true, nil
}

// TemporaryCacheControl is how long a 302 may be kept: not at all without asking again (it is
// temporary by definition, and a browser keeping it would hide the page once it is back).
const TemporaryCacheControl = "no-cache"

// WriteRedirect answers a request with a redirect: its status, Location (a path as stored, so
// it stays on the host asked; an https:// address as is) and a short HTML body with the link
// (none for HEAD). A 301 is cached like every public answer (CacheControl: a redirect changed in
// the panel is followed within a minute, since browsers keep a 301 as long as they are told);
// a 302 is never reused without asking again (TemporaryCacheControl).
func WriteRedirect(w http.ResponseWriter, r *http.Request, rd Redirect) {
	h := w.Header()
	h.Set("Location", rd.To)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("Vary", vary)
	if rd.Status == http.StatusMovedPermanently {
		h.Set("Cache-Control", CacheControl)
	} else {
		h.Set("Cache-Control", TemporaryCacheControl)
	}
	w.WriteHeader(rd.Status)
	if r.Method == http.MethodHead {
		return
	}
	link := template.HTMLEscapeString(rd.To)
	_, _ = w.Write([]byte("<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Moved</title><p>This page has moved to <a href=\"" +
		link + "\">" + link + "</a>.</p></html>\n"))
}
