package api

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRequireOrigin(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(OriginHeader) != "" {
			t.Error("the secret reached the handler")
		}
		w.WriteHeader(http.StatusNoContent)
	})
	cases := []struct {
		name, secret, header string
		status               int
	}{
		{"no secret configured (local)", "", "", 204},
		{"right secret", "s3cret-value", "s3cret-value", 204},
		{"missing header", "s3cret-value", "", 403},
		{"wrong header", "s3cret-value", "s3cret-valuf", 403},
		{"prefix of the secret", "s3cret-value", "s3cret", 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/v1/tenant/auth/tenant-info", nil)
			if c.header != "" {
				r.Header.Set(OriginHeader, c.header)
			}
			rec := httptest.NewRecorder()
			RequireOrigin(c.secret, ok).ServeHTTP(rec, r)
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d", rec.Code, c.status)
			}
		})
	}
}
