package auth

import (
	"net/http/httptest"
	"testing"

	"github.com/campuscms/panel/shared/config"
)

// TestPanelOrigin: a reset link points at the deployment's panel address when it has one; behind
// CloudFront without one there is no link (never the viewer's X-Site-Host); locally the
// request's host, validated, with its port only on a loopback name.
func TestPanelOrigin(t *testing.T) {
	cases := []struct {
		name      string
		cfg       config.Config
		host, xsh string
		want      string
		err       bool
	}{
		{"configured", config.Config{PanelURL: "https://panel.example.org", OriginSecret: "s"}, "x.execute-api.aws", "evil.example", "https://panel.example.org", false},
		{"behind CloudFront without one", config.Config{OriginSecret: "s"}, "x.execute-api.aws", "evil.example", "", true},
		{"local", config.Config{}, "127.0.0.1:8481", "", "http://127.0.0.1:8481", false},
		{"localhost name", config.Config{}, "demo.localhost:8080", "", "http://demo.localhost:8080", false},
		{"a name: https, no port", config.Config{}, "panel.example.org:8443", "", "https://panel.example.org", false},
		{"not a host", config.Config{}, "evil.example/x?y=", "", "", true},
		{"user info", config.Config{}, "a@evil.example", "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Service{cfg: c.cfg}
			r := httptest.NewRequest("POST", "/api/v1/tenant/auth/password-reset", nil)
			r.Host = c.host
			if c.xsh != "" {
				r.Header.Set("X-Site-Host", c.xsh)
			}
			got, err := s.panelOrigin(r)
			if (err != nil) != c.err || got != c.want {
				t.Fatalf("got %q, %v; want %q (error %v)", got, err, c.want, c.err)
			}
		})
	}
}
