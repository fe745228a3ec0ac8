package website

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/store"
)

// req is one website request being served: its tenant's site, resolved from the host.
type req struct {
	w    http.ResponseWriter
	r    *http.Request
	site *public.Site
	// host is the host the site was asked for; byDomain says it came through a DOMAIN# lookup
	// and must be one of the tenant's own domains.
	host     string
	byDomain bool
	visit    *public.Visit
	// lang is the language the address names (/fr/…), "" for an address without a prefix;
	// orig is then the request as it came (lang.go).
	lang string
	orig *http.Request
	// loc is the page's language: its words, dates and links (known once the site's settings
	// are read); others are the site's languages beside the default.
	loc    *locale
	others []string
}

// T is key's text in the page's language.
func (q *req) T(key string, args ...any) string { return q.loc.T(key, args...) }

// errNoSite is the answer for a host no institution's website lives on.
var errNoSite = errors.New("website: no site at this host")

// resolve finds the tenant of a request from its host: T.localhost for the local server,
// otherwise the host's DOMAIN# lookup (remembered for a minute).
func (s *Server) resolve(w http.ResponseWriter, r *http.Request) (*req, error) {
	host := public.RequestHost(r)
	if host == "" {
		return nil, errNoSite
	}
	q := &req{w: w, r: r, host: host}
	if a, ok := addressLang(r); ok {
		q.lang, q.orig = a.code, a.orig
	}
	q.loc = newLocale(orDefault(q.lang, langs.Default), langs.Default)
	var id string
	if t, ok := strings.CutSuffix(host, ".localhost"); ok && s.opts.LocalHosts && !strings.Contains(t, ".") {
		id = t
	} else if cached, ok := s.hosts.get(host, s.read.Now()); ok {
		id, q.byDomain = cached, true
	} else {
		found, err := s.read.TenantOfHost(r.Context(), host)
		if errors.Is(err, api.ErrUnknownTenant) {
			return nil, errNoSite
		}
		if err != nil {
			return nil, err
		}
		s.hosts.put(host, found, s.read.Now())
		id, q.byDomain = found, true
	}
	scope, err := store.NewScope(id)
	if err != nil {
		return nil, errNoSite
	}
	q.site = s.read.Site(scope, public.RequestOrigin(r))
	// Read in the address's language from the first read on: the visit's page-by-slug lookup is
	// that language's (the reads check it against the site's languages once they know them).
	q.site.Lang = q.lang
	return q, nil
}

// load reads the site's settings (and the page want names) and checks the tenant exists and
// owns the host.
func (s *Server) load(q *req, want public.Want) (*public.Visit, error) {
	want.Tenant = true
	v, err := s.read.Visit(q.r.Context(), q.site, want)
	if errors.Is(err, api.ErrUnknownTenant) {
		return nil, errNoSite
	}
	if err != nil {
		return nil, err
	}
	if q.byDomain && !public.HostAllowed(v.Site.Tenant, q.host) {
		return nil, errNoSite
	}
	if v.Site.Tenant.Suspended {
		return nil, public.ErrSuspended
	}
	if v.Settings != nil {
		all := q.site.Languages()
		def, others := all[0], all[1:]
		switch {
		case q.lang == def:
			return nil, errDefaultLang
		case q.lang != "" && !slices.Contains(others, q.lang):
			return nil, errNotSiteLang
		}
		q.loc, q.others = newLocale(orDefault(q.lang, def), def), others
	}
	q.visit = v
	return v, nil
}
