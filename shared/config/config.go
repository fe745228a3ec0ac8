// Package config reads the process configuration once, from the environment.
package config

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"
)

// Config is everything a handler needs to know about its deployment.
type Config struct {
	// TableName is the single DynamoDB table holding every tenant's data.
	TableName string
	// MediaBucket is the S3 bucket holding uploaded media under media/{tenant}/.
	MediaBucket string
	// MediaUploadURL is where browsers post presigned uploads; empty means the bucket's own S3
	// endpoint. The local server sets a same-origin proxy, since moto sends no CORS headers on POST.
	MediaUploadURL string
	// ObjectURLPrefix is the URL path under which media keys are served ("/media/" on CloudFront and locally).
	ObjectURLPrefix string
	// SessionTTL is the absolute lifetime of a login session.
	SessionTTL time.Duration
	// LogLevel is the minimum level written to the JSON log.
	LogLevel slog.Level
	// OriginSecret, when set, is the value CloudFront sends in the X-Origin-Verify header; a
	// request without it did not come through CloudFront and is refused (403). Empty locally.
	OriginSecret string
	// WebsiteURL is the address of a tenant's website when it has no domain of its own, with
	// {tenant} standing for its id: the local server's "http://{tenant}.localhost:8080". Empty in
	// AWS, where a website lives on the institution's first domain.
	WebsiteURL string
	// PanelURL is the panel's own address (scheme and host, no trailing slash), for links in
	// mail that lead staff to the panel (a form submission's notification): PANEL_URL, the
	// local server's own address when unset there. Never taken from a request, whose Host or
	// Origin a visitor chooses. Empty leaves such links out.
	PanelURL string
	// DeriveImagesInBackground makes the media library derive a confirmed image's resized copies
	// in its own process (the local server). False in AWS, where the media bucket's events call
	// the imaging function.
	DeriveImagesInBackground bool
}

// WebsiteOf is the address of a tenant's website: https on its first domain, else WebsiteURL
// with its id; "" when it has neither (no domain set up yet in AWS).
func (c Config) WebsiteOf(tenant string, domains []string) string {
	if len(domains) > 0 {
		return "https://" + domains[0]
	}
	if c.WebsiteURL == "" {
		return ""
	}
	return strings.ReplaceAll(c.WebsiteURL, "{tenant}", tenant)
}

// FromEnv reads TABLE_NAME, MEDIA_BUCKET, MEDIA_UPLOAD_URL, OBJECT_URL_PREFIX, LOG_LEVEL,
// ORIGIN_SECRET, WEBSITE_URL and PANEL_URL, with local defaults.
func FromEnv() (Config, error) {
	cfg := Config{
		TableName:       envOr("TABLE_NAME", "cms"),
		MediaBucket:     envOr("MEDIA_BUCKET", "cms-media"),
		ObjectURLPrefix: envOr("OBJECT_URL_PREFIX", "/media/"),
		MediaUploadURL:  os.Getenv("MEDIA_UPLOAD_URL"),
		SessionTTL:      12 * time.Hour,
		OriginSecret:    strings.TrimSpace(os.Getenv("ORIGIN_SECRET")),
		WebsiteURL:      strings.TrimSpace(os.Getenv("WEBSITE_URL")),
		PanelURL:        strings.TrimRight(strings.TrimSpace(os.Getenv("PANEL_URL")), "/"),
	}
	if !strings.HasSuffix(cfg.ObjectURLPrefix, "/") {
		cfg.ObjectURLPrefix += "/"
	}
	if lvl := os.Getenv("LOG_LEVEL"); lvl != "" {
		if err := cfg.LogLevel.UnmarshalText([]byte(lvl)); err != nil {
			return Config{}, fmt.Errorf("config: LOG_LEVEL %q: %w", lvl, err)
		}
	}
	return cfg, nil
}

func envOr(key, fallback string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return fallback
}
