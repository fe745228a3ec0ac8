package api

import (
	"crypto/subtle"
	"net/http"
)

// OriginHeader carries the secret CloudFront adds to every request it forwards to the API.
const OriginHeader = "X-Origin-Verify"

var errNotThroughCloudFront = &Error{Status: http.StatusForbidden, Message: "Forbidden."}

// RequireOrigin refuses (403) every request that does not carry secret in OriginHeader, so the
// HTTP API's execute-api address, which CloudFront needs as its origin and so cannot be turned
// off, serves nothing to anyone who bypasses CloudFront (and its security headers). An empty
// secret (local runs) lets everything through.
func RequireOrigin(secret string, next http.Handler) http.Handler {
	if secret == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get(OriginHeader)), []byte(secret)) != 1 {
			WriteError(w, r, errNotThroughCloudFront)
			return
		}
		// Handlers never need it; keep it out of anything that might echo headers.
		r.Header.Del(OriginHeader)
		next.ServeHTTP(w, r)
	})
}
