package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

// uploadProxyPrefix is the same-origin path under which the local server forwards browser
// uploads to the emulator. moto answers a bucket's CORS preflight but sends no CORS headers on
// the POST itself, so a cross-origin upload from the panel would fail in the browser; in the
// cloud the browser posts straight to S3, whose bucket CORS rule allows the panel's origin.
const uploadProxyPrefix = "/_s3"

// uploadProxy forwards POST /_s3/{bucket} to the emulator at endpoint. Only uploads pass: the
// emulator checks no policy, so the bodies are capped here and the API's confirmation step
// checks size and content as it does for every upload.
func uploadProxy(endpoint string) (http.Handler, error) {
	target, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.URL.Path = strings.TrimSuffix(target.Path, "/") + strings.TrimPrefix(r.In.URL.Path, uploadProxyPrefix)
		r.Out.URL.RawPath = ""
		r.Out.Host = target.Host
		r.Out.Header.Del("Origin")
	}}
	const maxUpload = 16 << 20
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxUpload {
			http.Error(w, "upload too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
		proxy.ServeHTTP(w, r)
	}), nil
}
