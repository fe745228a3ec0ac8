package public

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
)

// CacheControl is what every successful public read answers with: browsers and CloudFront keep
// it 30 seconds and may serve it stale for 30 more while they revalidate, so an edit in the
// panel is on the website within a minute while a popular site costs one Lambda call per
// path, tenant and host every 30 seconds or so.
const CacheControl = "public, max-age=30, stale-while-revalidate=30"

// vary names the request headers an answer depends on, for caches that key on them.
const vary = "X-Tenant-Id, X-Site-Host, Host"

// WriteCached answers a read with body, its ETag and the cache headers, or 304 when the
// request's If-None-Match already names that ETag.
func WriteCached(w http.ResponseWriter, r *http.Request, contentType string, body []byte) error {
	sum := sha256.Sum256(body)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", CacheControl)
	v := vary
	if strings.Contains(strings.Join(h.Values("Vary"), ","), "Accept-Language") {
		// The public API's answers depend on the language asked for (requestLanguage).
		v += ", Accept-Language"
	}
	h.Set("Vary", v)
	if matches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	_, err := w.Write(body)
	return err
}

// matches reports whether an If-None-Match header names etag (weakly, as RFC 9110 asks for
// If-None-Match), or is "*".
func matches(header, etag string) bool {
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
}

// writeJSON answers a read with a JSON body, cached.
func writeJSON(w http.ResponseWriter, r *http.Request, body any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return WriteCached(w, r, "application/json; charset=utf-8", append(raw, '\n'))
}
