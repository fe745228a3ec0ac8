package visits_test

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/visits"
)

func TestNormalizePath(t *testing.T) {
	cases := []struct {
		name, in, want string
		ok             bool
	}{
		{"home", "/", "/", true},
		{"page", "/about", "/about", true},
		{"trailing slash", "/events/", "/events", true},
		{"many slashes", "/events///", "/events", true},
		{"query and fragment", "/events?page=2#top", "/events", true},
		{"detail", "/events/01ARZ3NDEKTSV4RRFFQ69G5FAV", "/events/01ARZ3NDEKTSV4RRFFQ69G5FAV", true},
		{"unicode", "/école", "/école", true},
		{"at the limit", "/" + strings.Repeat("a", 199), "/" + strings.Repeat("a", 199), true},
		{"too long", "/" + strings.Repeat("a", 200), "", false},
		{"empty", "", "", false},
		{"relative", "about", "", false},
		{"absolute URL", "https://evil.example/x", "", false},
		{"control character", "/a\nb", "", false},
		{"bad UTF-8", "/\xff", "", false},
		{"preview", "/_preview/abc", "", false},
		{"preview root", "/_preview", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := visits.NormalizePath(c.in)
			if got != c.want || ok != c.ok {
				t.Fatalf("NormalizePath(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestNormalizeHost(t *testing.T) {
	cases := map[string]string{
		"www.Google.com":           "www.google.com",
		"news.example.org:8443":    "news.example.org",
		"example.org.":             "example.org",
		"192.0.2.1":                "192.0.2.1",
		"":                         "",
		"exa mple.org":             "",
		"<script>":                 "",
		"a..b":                     "",
		".example.org":             "",
		"https://example.org/path": "",
		strings.Repeat("a", 254):   "",
	}
	for in, want := range cases {
		if got := visits.NormalizeHost(in); got != want {
			t.Errorf("NormalizeHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsBot(t *testing.T) {
	cases := map[string]bool{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36":  false,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1": false,
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)":                                     true,
		"Mozilla/5.0 (compatible; bingbot/2.0)":                                                                        true,
		"Mozilla/5.0 (compatible; Yahoo! Slurp)":                                                                       true,
		"facebookexternalhit/1.1":                                                                                      true,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/131.0 Safari/537.36":                        true,
		"Mozilla/5.0 (Linux; Android 11) Chrome/131.0 Mobile Safari/537.36 Chrome-Lighthouse":                          true,
		"curl/8.5.0": true,
		"":           true,
		"   ":        true,
	}
	for ua, want := range cases {
		if got := visits.IsBot(ua); got != want {
			t.Errorf("IsBot(%q) = %v, want %v", ua, got, want)
		}
	}
}

func TestTokens(t *testing.T) {
	key, other := visits.Key("secret"), visits.Key("")
	tok := visits.Sign(key, "acme", "/about", "UTC")
	cases := []struct {
		name                      string
		key                       []byte
		tenant, path, zone, token string
		want                      bool
	}{
		{"its own page", key, "acme", "/about", "UTC", tok, true},
		{"another path", key, "acme", "/events", "UTC", tok, false},
		{"another tenant", key, "acme-corp", "/about", "UTC", tok, false},
		{"another zone", key, "acme", "/about", "Europe/Paris", tok, false},
		{"parts moved between fields", key, "acme", "/aboutUTC", "", tok, false},
		{"another key", other, "acme", "/about", "UTC", tok, false},
		{"truncated", key, "acme", "/about", "UTC", tok[:10], false},
		{"empty", key, "acme", "/about", "UTC", "", false},
	}
	for _, c := range cases {
		if got := visits.Verify(c.key, c.tenant, c.path, c.zone, c.token); got != c.want {
			t.Errorf("%s: Verify = %v, want %v", c.name, got, c.want)
		}
	}
	if len(tok) != 22 {
		t.Fatalf("token %q: %d characters, want 22", tok, len(tok))
	}
}

func TestZone(t *testing.T) {
	for name, ok := range map[string]bool{"UTC": true, "America/New_York": true, "Europe/Paris": true, "Local": false, "Mars/Olympus": false, "": false, "../etc/passwd": false} {
		loc, got := visits.Zone(name)
		if got != ok || (ok && loc.String() != name) {
			t.Errorf("Zone(%q) = %v, %v; want ok %v", name, loc, got, ok)
		}
	}
}
