package main

import (
	"compress/gzip"
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// TestLocalRouting checks that the local server routes as CloudFront does: on the panel's host,
// API to the groups, media to the bucket (with nosniff and a sandbox CSP), the SPA with history
// fallback; on any other host, the website, with media and the API as on the panel.
func TestLocalRouting(t *testing.T) {
	site := t.TempDir()
	must(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html><title>panel</title>"), 0o644))
	must(t, os.MkdirAll(filepath.Join(site, "assets"), 0o755))
	must(t, os.WriteFile(filepath.Join(site, "assets", "app.js"), []byte("console.log(1)"), 0o644))
	h, err := newHandler(testkit.Deps(t), site)
	must(t, err)
	tn := testkit.NewTenant(t)
	cases := []struct {
		name, method, path string
		host               string
		status             int
		contains           string
		header             [2]string
	}{
		{"health", "GET", "/api/health", "", 200, `"status":"ok"`, [2]string{}},
		{"history route", "GET", "/custom-forms/01ARZ3NDEKTSV4RRFFQ69G5FAV/submissions", "", 200, "<title>panel</title>", [2]string{"Cache-Control", "no-cache"}},
		{"media library route", "GET", "/media", "", 200, "<title>panel</title>", [2]string{}},
		{"asset", "GET", "/assets/app.js", "", 200, "console.log", [2]string{"Cache-Control", "public, max-age=31536000, immutable"}},
		{"no writes to the SPA", "POST", "/dashboard", "", 405, "", [2]string{"Allow", "GET, HEAD"}},
		{"unknown API path is a JSON 404, not the SPA", "GET", "/api/v1/tenant/nothing", "", 404, `"message":"Not found."`, [2]string{}},
		{"API route", "GET", "/api/v1/tenant/auth/tenant-info", "", 404, "Could not find institution!", [2]string{}},
		{"missing media is a 404, not the SPA", "GET", "/media/demo/01ARZ3NDEKTSV4RRFFQ69G5FAV/x.png", "", 404, "", [2]string{}},
		{"a tenant's website", "GET", "/", tn.ID + ".localhost:8080", 200, "Welcome to Test " + tn.ID, [2]string{}},
		{"the website's 404", "GET", "/dashboard", tn.ID + ".localhost:8080", 404, "Page not found", [2]string{}},
		{"no website at an unknown host", "GET", "/", "nobody.localhost:8080", 404, "No website is published", [2]string{}},
		{"the public API on a website host", "GET", "/api/v1/public/site", tn.ID + ".localhost:8080", 404, "Could not find institution!", [2]string{}},
		{"media on a website host", "GET", "/media/demo/01ARZ3NDEKTSV4RRFFQ69G5FAV/x.png", tn.ID + ".localhost:8080", 404, "", [2]string{}},
	}
	t.Run("the website is compressed like CloudFront", func(t *testing.T) {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = tn.ID + ".localhost:8080"
		r.Header.Set("Accept-Encoding", "gzip, br")
		h.ServeHTTP(rec, r)
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(rec.Body)
		must(t, err)
		page, err := io.ReadAll(zr)
		must(t, err)
		if !strings.Contains(string(page), "Welcome to Test "+tn.ID) {
			t.Fatalf("%.300s", page)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			r := httptest.NewRequest(c.method, c.path, nil)
			r.Host = "127.0.0.1:8080"
			if c.host != "" {
				r.Host = c.host
			}
			h.ServeHTTP(rec, r)
			if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.contains) {
				t.Fatalf("%d %q", rec.Code, rec.Body.String())
			}
			if c.header[0] != "" && rec.Header().Get(c.header[0]) != c.header[1] {
				t.Fatalf("%s = %q, want %q", c.header[0], rec.Header().Get(c.header[0]), c.header[1])
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestMediaIsCachedBriefly: like CloudFront, the local server serves media with a short max-age,
// so a deleted file stops being served within minutes (never "immutable" for a year).
func TestMediaIsCachedBriefly(t *testing.T) {
	d := testkit.Deps(t)
	key := "media/demo/01ARZ3NDEKTSV4RRFFQ69G5FAV/cached.png"
	_, err := s3client.New(d.AWS).PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: aws.String(key),
		Body: strings.NewReader("png"), ContentType: aws.String("image/png")})
	must(t, err)
	h, err := newHandler(d, t.TempDir())
	must(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/"+key, nil))
	if rec.Code != 200 || rec.Header().Get("Cache-Control") != media.CacheControl {
		t.Fatalf("%d Cache-Control %q, want %q", rec.Code, rec.Header().Get("Cache-Control"), media.CacheControl)
	}
}
