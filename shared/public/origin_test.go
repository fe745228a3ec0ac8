package public_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	pub "github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/testkit"
)

// TestOriginNeverEchoesAPort: the absolute URLs of a site (canonical, Open Graph, sitemap, robots,
// the JSON API's media URLs) are built on RequestOrigin, which takes the validated host name and
// never the port a request's Host (or X-Site-Host) carries: a port is the client's to choose, and
// a page cached with it would send every visitor there (issue 40, item 4c). Loopback names keep
// theirs: the local server's websites live at http://{tenant}.localhost:PORT (WEBSITE_URL), and a
// loopback name reaches nobody but the visitor's own machine.
func TestOriginNeverEchoesAPort(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, host, siteHost, proto, want string
	}{
		{"plain host", "www.school.example", "", "", "http://www.school.example"},
		{"host with a port", "www.school.example:6666", "", "", "http://www.school.example"},
		{"https with a port", "www.school.example:8443", "", "https", "https://www.school.example"},
		{"forwarded host with a port", "abc.execute-api.example", "www.school.example:1234", "https", "https://www.school.example"},
		{"forwarded host, case and dot", "abc.execute-api.example", "WWW.School.Example.:99", "https", "https://www.school.example"},
		{"two forwarded hosts", "abc.execute-api.example", "www.school.example:1, evil.example", "https", "https://www.school.example"},
		{"port only", ":8080", "", "", ""},
		{"a path in the host", "www.school.example/evil", "", "", ""},
		{"userinfo in the host", "evil.example@www.school.example", "", "", ""},
		{"local website keeps its port", "acme.localhost:8080", "", "", "http://acme.localhost:8080"},
		{"local panel keeps its port", "127.0.0.1:8080", "", "", "http://127.0.0.1:8080"},
		{"local name with a bad port", "acme.localhost:8080x", "", "", "http://acme.localhost"},
		{"local name with a port out of range", "acme.localhost:70000", "", "", "http://acme.localhost"},
		{"a name that only ends like localhost", "evil-localhost:8080", "", "", "http://evil-localhost"},
		{"a domain under localhost's name", "acme.localhost.evil.example:8080", "", "", "http://acme.localhost.evil.example"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Host = c.host
			if c.siteHost != "" {
				r.Header.Set("X-Site-Host", c.siteHost)
			}
			if c.proto != "" {
				r.Header.Set("X-Forwarded-Proto", c.proto)
			}
			if got := pub.RequestOrigin(r); got != c.want {
				t.Fatalf("RequestOrigin = %q, want %q", got, c.want)
			}
		})
	}
}

// TestSitemapAndRobotsIgnoreTheHostsPort: through the real handlers, by header and by domain.
func TestSitemapAndRobotsIgnoreTheHostsPort(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	putPage(t, tn, "about", true, true, false)
	locs := validSitemap(t, public(t, req{path: "/sitemap.xml", tenant: tn.ID, host: "example.com:6666"}).raw)
	if len(locs) != 1 || locs[0] != "http://example.com/about" {
		t.Fatalf("locs %v", locs)
	}
	robots := string(public(t, req{path: "/robots.txt", tenant: tn.ID, host: "example.com:6666"}).raw)
	if !strings.Contains(robots, "Sitemap: http://example.com/api/v1/public/sitemap.xml\n") {
		t.Fatalf("robots.txt:\n%s", robots)
	}
	domain := "www." + tn.ID + ".example"
	testkit.SetDomains(t, tn.ID, domain)
	for _, h := range []map[string]string{{"X-Site-Host": domain + ":6666", "X-Forwarded-Proto": "https"}, {"X-Site-Host": domain + ":443", "X-Forwarded-Proto": "https"}} {
		res := public(t, req{path: "/robots.txt", host: "abc.execute-api.example", header: h})
		expect(t, res, 200)
		if got := string(res.raw); !strings.Contains(got, "Sitemap: https://"+domain+"/api/v1/public/sitemap.xml\n") {
			t.Fatalf("robots.txt with %v:\n%s", h, got)
		}
	}
}
