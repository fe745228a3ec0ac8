package redirects_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/redirects"
	"github.com/campuscms/panel/shared/store"
)

func TestNormalize(t *testing.T) {
	cases := []struct {
		name, in, want, msg string
	}{
		{"a path", "/about-us", "/about-us", ""},
		{"trailing slash removed", "/about-us/", "/about-us", ""},
		{"case kept", "/About/Us", "/About/Us", ""},
		{"spaces around trimmed", "  /about  ", "/about", ""},
		{"nested path", "/2019/05/hello-world/", "/2019/05/hello-world", ""},
		{"escape of a plain character decoded", "/%61bout", "/about", ""},
		{"escape in lower case upper-cased", "/%c3%bcber-uns/", "/%C3%BCber-uns", ""},
		{"raw non-ASCII escaped", "/über-uns", "/%C3%BCber-uns", ""},
		{"raw space escaped", "/my page", "/my%20page", ""},
		{"escaped slash stays escaped", "/a%2fb", "/a%2Fb", ""},
		{"sub-delims kept", "/a(b)!c", "/a(b)!c", ""},
		{"escaped sub-delim decoded", "/a%28b%29", "/a(b)", ""},
		{"backslash escaped", `/a\b`, "/a%5Cb", ""},
		{"WordPress post id", "/?p=123", "/?p=123", ""},
		{"WordPress page id", "/?page_id=7", "/?page_id=7", ""},
		{"category", "/?cat=3", "/?cat=3", ""},
		{"tag value escaped", "/?tag=caf%c3%a9", "/?tag=caf%C3%A9", ""},
		{"attachment", "/?attachment_id=9", "/?attachment_id=9", ""},
		{"query on a path, slash trimmed", "/blog/?p=5", "/blog?p=5", ""},
		{"empty query dropped", "/about?", "/about", ""},
		{"empty", "  ", "", "From Path is required!"},
		{"no leading slash", "about-us", "", "From Path must be a path on this website starting with /"},
		{"full address", "https://old.example.org/about", "", "From Path must be a path on this website starting with /"},
		{"scheme-relative", "//old.example.org/about", "", "From Path must be a path on this website starting with /"},
		{"backslash host", `/\old.example.org`, "", "From Path must be a path on this website starting with /"},
		{"javascript", "javascript:alert(1)", "", "From Path must be a path on this website starting with /"},
		{"fragment", "/about#team", "", "From Path can't contain a #fragment"},
		{"home", "/", "", "The home page can't be redirected."},
		{"home with slashes", "/?", "", "The home page can't be redirected."},
		{"empty segment", "/a//b", "", "From Path can't contain empty, . or .. segments"},
		{"dot segment", "/a/./b", "", "From Path can't contain empty, . or .. segments"},
		{"dot-dot segment", "/a/../b", "", "From Path can't contain empty, . or .. segments"},
		{"escaped dot-dot", "/a/%2e%2e/b", "", "From Path can't contain empty, . or .. segments"},
		{"bad escape", "/a%zz", "", "From Path has a % that is not followed by two hex digits."},
		{"cut escape", "/a%2", "", "From Path has a % that is not followed by two hex digits."},
		{"other query", "/?utm_source=x", "", "From Path can carry only one WordPress query"},
		{"two queries", "/?p=1&page_id=2", "", "From Path can carry only one WordPress query"},
		{"query without value", "/?p=", "", "From Path can carry only one WordPress query"},
		{"query without =", "/?p", "", "From Path can carry only one WordPress query"},
		{"oversize", "/" + strings.Repeat("a", 500), "", "From Path must be at most 500 characters."},
		{"oversize once escaped", "/" + strings.Repeat("é", 100), "", "From Path must be at most 500 characters."},
		{"at the limit", "/" + strings.Repeat("a", 499), "/" + strings.Repeat("a", 499), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := redirects.Normalize(c.in)
			if c.msg == "" {
				if err != nil || got != c.want {
					t.Fatalf("Normalize(%q) = %q, %v; want %q", c.in, got, err, c.want)
				}
				// Normalising is idempotent: a stored path saves again unchanged.
				if again, err := redirects.Normalize(got); err != nil || again != got {
					t.Fatalf("Normalize(%q) again = %q, %v", got, again, err)
				}
				return
			}
			e := api.AsError(err)
			if err == nil || e.Status != http.StatusBadRequest || !strings.HasPrefix(e.Fields["fromPath"], c.msg) {
				t.Fatalf("Normalize(%q) = %q, %v; want a 400 on fromPath starting %q", c.in, got, err, c.msg)
			}
		})
	}
}

func TestNormalizeTo(t *testing.T) {
	cases := []struct {
		name, in, want, msg string
	}{
		{"a path", "/new-page", "/new-page", ""},
		{"path with query and fragment", "/search?q=a b#top", "/search?q=a%20b#top", ""},
		{"escapes kept, upper-cased", "/caf%c3%a9", "/caf%C3%A9", ""},
		{"backslash escaped", `/a\b`, "/a%5Cb", ""},
		{"https address", "https://www.example.org/new?x=1", "https://www.example.org/new?x=1", ""},
		{"scheme in capitals", "HTTPS://www.example.org/", "https://www.example.org/", ""},
		{"empty", "", "", "Redirect To is required!"},
		{"http", "http://www.example.org/", "", "Redirect To must start with https://"},
		{"javascript", "javascript:alert(1)", "", "Redirect To must be a path on this website starting with /"},
		{"javascript in capitals", "JaVaScRiPt:alert(1)", "", "Redirect To must be a path on this website starting with /"},
		{"data", "data:text/html,<script>alert(1)</script>", "", "Redirect To must be a path on this website starting with /"},
		{"scheme-relative", "//evil.example/", "", "Redirect To must be a path on this website starting with /"},
		{"backslash host", `/\evil.example/`, "", "Redirect To must be a path on this website starting with /"},
		{"relative", "new-page", "", "Redirect To must be a path on this website starting with /"},
		{"no host", "https:///path", "", "Redirect To must be a path on this website starting with /"},
		{"user info", "https://user:pw@evil.example/", "", "Redirect To can't carry a user name or password."},
		{"tab", "/a\tb", "", "Redirect To can't contain spaces or control characters."},
		{"newline", "/a\r\nSet-Cookie: x=1", "", "Redirect To can't contain spaces or control characters."},
		{"space in an address", "https://www.example.org/a b", "", "Redirect To can't contain spaces or control characters."},
		{"bad escape", "/a%z", "", "Redirect To has a % that is not followed by two hex digits."},
		{"oversize", "/" + strings.Repeat("a", 2000), "", "Redirect To must be at most 2000 characters."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := redirects.NormalizeTo(c.in)
			if c.msg == "" {
				if err != nil || got != c.want {
					t.Fatalf("NormalizeTo(%q) = %q, %v; want %q", c.in, got, err, c.want)
				}
				if again, err := redirects.NormalizeTo(got); err != nil || again != got {
					t.Fatalf("NormalizeTo(%q) again = %q, %v", got, again, err)
				}
				return
			}
			e := api.AsError(err)
			if err == nil || e.Status != http.StatusBadRequest || !strings.HasPrefix(e.Fields["to"], c.msg) {
				t.Fatalf("NormalizeTo(%q) = %q, %v; want a 400 on to starting %q", c.in, got, err, c.msg)
			}
		})
	}
}

// A request finds the redirect stored from its address however it spells it.
func TestRequestKey(t *testing.T) {
	cases := []struct {
		name, path, query, want string
		ok                      bool
	}{
		{"a path", "/about", "", "/about", true},
		{"trailing slash", "/about/", "", "/about", true},
		{"other parameters ignored", "/about", "utm_source=x&utm_medium=y", "/about", true},
		{"a post id", "/", "p=123", "/?p=123", true},
		{"a post id among others", "/", "utm_source=x&p=123", "/?p=123", true},
		{"escaped key and value", "/", "page%5Fid=7", "/?page_id=7", true},
		{"plus as space in a tag", "/", "tag=a+b", "/?tag=a%20b", true},
		{"two WordPress parameters: the path alone", "/blog", "p=1&page_id=2", "/blog", true},
		{"escapes as the browser sends them", "/%C3%BCber-uns", "", "/%C3%BCber-uns", true},
		{"lower-case escapes", "/%c3%bcber-uns", "", "/%C3%BCber-uns", true},
		{"home alone", "/", "", "", false},
		{"home with other parameters", "/", "utm_source=x", "", false},
		{"bad escape", "/a%zz", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := redirects.RequestKey(c.path, c.query)
			if got != c.want || ok != c.ok {
				t.Fatalf("RequestKey(%q, %q) = %q, %v; want %q, %v", c.path, c.query, got, ok, c.want, c.ok)
			}
		})
	}
	// What Normalize stores, the request that spells it differently finds.
	for in, req := range map[string][2]string{"/über-uns/": {"/%c3%bcber-uns", ""}, "/?p=123": {"/", "p=123&preview=true"},
		"/a%28b%29": {"/a(b)", ""}, "/Old/Page": {"/Old/Page/", ""}} {
		stored, err := redirects.Normalize(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := redirects.RequestKey(req[0], req[1]); !ok || got != stored {
			t.Errorf("stored %q from %q, request %v finds %q", stored, in, req, got)
		}
	}
}

func TestRecordID(t *testing.T) {
	a, _ := store.NewScope("t-one")
	b, _ := store.NewScope("t-two")
	id := redirects.RecordID(a, "/about")
	switch {
	case id != redirects.RecordID(a, "/about"):
		t.Error("RecordID is not stable")
	case id == redirects.RecordID(a, "/About"), id == redirects.RecordID(b, "/about"):
		t.Error("RecordID does not depend on the path and the tenant")
	case len(id) != 26:
		t.Errorf("RecordID %q is not a ULID", id)
	}
}
