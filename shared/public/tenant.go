package public

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

type siteKey struct{}

func siteFrom(ctx context.Context) *Site { return ctx.Value(siteKey{}).(*Site) }

// RequestHost is the host the visitor asked for: X-Site-Host (CloudFront's viewer-request
// function copies the viewer's Host there, since API Gateway needs its own Host) or Host, port
// and case removed. "" when it is not a well-formed host name.
func RequestHost(r *http.Request) string {
	h, _ := requestHostPort(r)
	return h
}

// requestHostPort is RequestHost and the port the request named after it ("" if none).
func requestHostPort(r *http.Request) (host, port string) {
	h := r.Header.Get("X-Site-Host")
	if h == "" {
		h = r.Host
	}
	h, _, _ = strings.Cut(h, ",")
	h = strings.TrimSpace(h)
	if hp, p, err := net.SplitHostPort(h); err == nil {
		h, port = hp, p
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if !store.ValidHost(h) {
		return "", ""
	}
	return h, port
}

// RequestOrigin is scheme://host of the site a request is for (X-Forwarded-Proto and X-Site-Host
// as CloudFront sends them), the base of its absolute URLs: canonical links, Open Graph, the
// sitemap and robots.txt, the JSON API's media URLs. The host is RequestHost's, the validated
// name that resolves the tenant (through its domains, checked by HostAllowed), and never the
// port the request carried: a client chooses that freely, and a page cached with it would send
// every later visitor there. Only a loopback name keeps a well-formed port: the local server
// serves websites at http://{tenant}.localhost:PORT (WEBSITE_URL) and itself at 127.0.0.1:PORT,
// and a loopback address reaches nobody but the visitor's own machine (CloudFront serves no
// such host). "" when the host is not a well-formed name (absolute URLs become root-relative).
func RequestOrigin(r *http.Request) string {
	host, port := requestHostPort(r)
	if host == "" {
		return ""
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	if port != "" && loopback(host) && validPort(port) {
		host += ":" + port
	}
	return scheme + "://" + host
}

// loopback reports whether host names the visitor's own machine: localhost, a name under it
// (browsers resolve *.localhost to loopback, RFC 6761), or an address in 127.0.0.0/8.
func loopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validPort reports whether p is a port number, 1 to 65535, in plain digits.
func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == p
}

// resolve finds the tenant of a public request: the X-Tenant-Id header when present (an unknown
// id is a 404, never a fall-back to the host), else the request's host through its DOMAIN#
// lookup item. A host lookup is checked against the tenant's own domain list too.
func (s *Service) resolve(r *http.Request) (*Site, error) {
	ctx := r.Context()
	if id := strings.TrimSpace(r.Header.Get(auth.TenantHeader)); id != "" {
		return s.read.Tenant(ctx, id, RequestOrigin(r))
	}
	host := RequestHost(r)
	if host == "" {
		return nil, api.ErrUnknownTenant
	}
	id, err := s.read.TenantOfHost(ctx, host)
	if err != nil {
		return nil, err
	}
	out, err := s.read.Tenant(ctx, id, RequestOrigin(r))
	if err != nil {
		return nil, err
	}
	if !HostAllowed(out.Tenant, host) {
		return nil, api.ErrUnknownTenant
	}
	return out, nil
}

// HostAllowed reports whether host is one of the tenant's own website domains: a lookup item
// alone never admits a host the tenant's list no longer names.
func HostAllowed(t store.Tenant, host string) bool { return slices.Contains(t.Domains, host) }

// handle wraps a public handler: it resolves the tenant first and logs it. Every answer may be
// read by any origin (CORS *): the data is public and no credentials are involved, and an
// institution's website usually lives on another origin than this API.
func (s *Service) handle(h api.HandlerFunc) http.Handler {
	return api.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		cors(w)
		st, err := s.resolve(r)
		if err != nil {
			return err
		}
		if st.Tenant.Suspended {
			MarkSuspended(w)
			return ErrSuspended
		}
		// Answers differ by language: ?lang=, else Accept-Language (caches key on it).
		w.Header().Add("Vary", "Accept-Language")
		st, err = requestLanguage(r, st)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Language", st.Language())
		r = api.WithLogger(r, "tenant", st.Scope.Tenant())
		return h(w, r.WithContext(context.WithValue(r.Context(), siteKey{}, st)))
	})
}

// ErrSuspended answers for a tenant ops suspended (cmsctl tenant suspend): the public API's and the
// website's 503, with MarkSuspended's headers.
var ErrSuspended = &api.Error{Status: http.StatusServiceUnavailable, Message: "This website is temporarily unavailable. Please try again later."}

// SuspendedRetryAfter is the Retry-After of a suspended tenant's answers, in seconds.
const SuspendedRetryAfter = "3600"

// MarkSuspended sets the headers of a suspended tenant's answer: come back in an hour, and let
// no cache (browser or CloudFront) keep the answer past the resume.
func MarkSuspended(w http.ResponseWriter) {
	w.Header().Set("Retry-After", SuspendedRetryAfter)
	w.Header().Set("Cache-Control", "no-store")
}

func cors(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "ETag, Retry-After")
}

// preflight answers a browser's CORS preflight for the public routes.
func preflight(w http.ResponseWriter, _ *http.Request) {
	cors(w)
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST")
	h.Set("Access-Control-Allow-Headers", "Content-Type, X-Tenant-Id, If-None-Match")
	h.Set("Access-Control-Max-Age", "86400")
	h.Set("Cache-Control", "public, max-age=86400")
	w.WriteHeader(http.StatusNoContent)
}
