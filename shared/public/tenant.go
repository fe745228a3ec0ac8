package public

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// site is the tenant a public request is for, and where the request came from.
type site struct {
	scope  store.Scope
	tenant store.Tenant
	// origin is scheme://host the website reached us at; media URLs and the sitemap's own URL
	// are built on it, since CloudFront serves /media/* on every host it answers for.
	origin string
}

type siteKey struct{}

func siteFrom(ctx context.Context) *site { return ctx.Value(siteKey{}).(*site) }

// requestHost is the host the visitor asked for: X-Site-Host (CloudFront's viewer-request
// function copies the viewer's Host there, since API Gateway needs its own Host) or Host, port
// and case removed. "" when it is not a well-formed host name.
func requestHost(r *http.Request) string {
	h := r.Header.Get("X-Site-Host")
	if h == "" {
		h = r.Host
	}
	h, _, _ = strings.Cut(h, ",")
	h = strings.TrimSpace(h)
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if !store.ValidHost(h) {
		return ""
	}
	return h
}

func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Header.Get("X-Site-Host")
	if host == "" {
		host = r.Host
	}
	host, _, _ = strings.Cut(host, ",")
	return scheme + "://" + strings.TrimSpace(host)
}

// resolve finds the tenant of a public request: the X-Tenant-Id header when present (an unknown
// id is a 404, never a fall-back to the host), else the request's host through its DOMAIN#
// lookup item. A host lookup is checked against the tenant's own domain list too.
func (s *Service) resolve(r *http.Request) (*site, error) {
	ctx := r.Context()
	if id := strings.TrimSpace(r.Header.Get(auth.TenantHeader)); id != "" {
		return s.siteOf(r, id)
	}
	host := requestHost(r)
	if host == "" {
		return nil, api.ErrUnknownTenant
	}
	id, err := s.st.TenantOfHost(ctx, host)
	if err != nil {
		return nil, tenantError(err)
	}
	out, err := s.siteOf(r, id)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(out.tenant.Domains, host) {
		return nil, api.ErrUnknownTenant
	}
	return out, nil
}

// siteOf reads the tenant id names; an invalid or unknown id is a 404.
func (s *Service) siteOf(r *http.Request, id string) (*site, error) {
	scope, err := store.NewScope(id)
	if err != nil {
		return nil, api.ErrUnknownTenant
	}
	t, err := s.st.GetTenant(r.Context(), scope)
	if err != nil {
		return nil, tenantError(err)
	}
	return &site{origin: requestOrigin(r), scope: scope, tenant: t}, nil
}

func tenantError(err error) error {
	if store.IsNotFound(err) {
		return api.ErrUnknownTenant
	}
	return err
}

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
		r = api.WithLogger(r, "tenant", st.scope.Tenant())
		return h(w, r.WithContext(context.WithValue(r.Context(), siteKey{}, st)))
	})
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
