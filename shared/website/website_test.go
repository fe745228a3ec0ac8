package website_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/themes"
	"github.com/campuscms/panel/shared/website"
)

func TestMain(m *testing.M) { testkit.Main(m) }

var server struct {
	once sync.Once
	h    http.Handler
	err  error
}

// site is the website handler as the local server mounts it (T.localhost serves tenant T).
func site(t *testing.T) http.Handler {
	t.Helper()
	server.once.Do(func() { server.h, server.err = website.Build(testkit.Deps(t), website.Options{LocalHosts: true}) })
	if server.err != nil {
		t.Fatal(server.err)
	}
	return server.h
}

type page struct {
	status int
	header http.Header
	body   string
	calls  int64
}

// visit requests path on host through the website handler, counting DynamoDB calls.
func visit(t *testing.T, method, host, path string, form url.Values) page {
	t.Helper()
	ctx, calls := awsclient.WithCallCounter(context.Background())
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequestWithContext(ctx, method, path, body)
	r.Host = host
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	w := httptest.NewRecorder()
	site(t).ServeHTTP(w, r)
	return page{status: w.Code, header: w.Header(), body: w.Body.String(), calls: calls.Load()}
}

func get(t *testing.T, tn testkit.Tenant, path string) page {
	t.Helper()
	return visit(t, "GET", tn.ID+".localhost:8080", path, nil)
}

func must(t *testing.T, p page, status int, contains ...string) {
	t.Helper()
	if p.status != status {
		t.Fatalf("status %d, want %d: %.600s", p.status, status, p.body)
	}
	for _, c := range contains {
		if !strings.Contains(p.body, c) {
			t.Fatalf("page lacks %q: %.3000s", c, p.body)
		}
	}
}

func staff(t *testing.T, tn testkit.Tenant, method, path string, body any) testkit.Response {
	t.Helper()
	res := testkit.Call(t, testkit.Request{Method: method, Path: path, Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	if res.Status >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Raw)
	}
	return res
}

// newPage creates a page with one section of every type and returns its id and slug.
func newPage(t *testing.T, tn testkit.Tenant, title string, extra map[string]any) (string, string) {
	t.Helper()
	form := staff(t, tn, "POST", "/custom-forms", map[string]any{"name": "Contact us", "image": "01ARZ3NDEKTSV4RRFFQ69G5FAV/cover.png",
		"fields": `[{"id":"NEW_1","label":"Your name","fieldType":"text","required":true},{"id":"NEW_2","label":"Topic","fieldType":"select","required":false,"options":[{"id":"NEW_o1","name":"Admissions"},{"id":"NEW_o2","name":"Other"}]}]`}).Get("result.id").(string)
	res := staff(t, tn, "POST", "/pages", map[string]any{"title": title, "description": "About the page"})
	id, slug := res.Get("result.id").(string), res.Get("result.slug").(string)
	item := func(fields string) string {
		return `[{"id":"i1","title":"Item title","subTitle":"Sub","description":"Text","ctaText":"Go","ctaUrl":"/about"` + fields + `}]`
	}
	body := map[string]any{"content": "<p>Hello <strong>world</strong></p>", "pageSections": []map[string]any{
		{"pageSectionTypeId": "1", "title": "Slides here", "config": item("")},
		{"pageSectionTypeId": "2", "title": "Cards here", "config": item("")},
		{"pageSectionTypeId": "3", "title": "Banner here", "config": item("")},
		{"pageSectionTypeId": "4", "title": "Text and image", "config": item(`,"textPosition":"RIGHT"`)},
		{"pageSectionTypeId": "5", "title": "Video here", "config": item(`,"embedUrl":"https://www.youtube.com/watch?v=abc123","embedType":"YOUTUBE"`)},
		{"pageSectionTypeId": "6", "title": "Form here", "config": item(`,"formId":"` + form + `"`)},
	}}
	for k, v := range extra {
		body[k] = v
	}
	staff(t, tn, "PATCH", "/pages/"+id, body)
	return id, slug
}

func TestPageWithEverySectionType(t *testing.T) {
	tn := testkit.NewTenant(t)
	_, slug := newPage(t, tn, "All sections", map[string]any{"metaTitle": "Meta title here", "noFollow": true})
	p := get(t, tn, "/"+slug)
	must(t, p, 200, "<h1>All sections</h1>", "Hello <strong>world</strong>", "Slides here", "Cards here", "Banner here",
		"text-right", "https://www.youtube-nocookie.com/embed/abc123", `action="/forms/`, "Your name", "Admissions",
		"<title>Meta title here | ", `<meta name="robots" content="nofollow">`, `"@type":"EducationalOrganization"`)
	// The embed is a link the visitor follows (or site.js turns into the player): nothing is
	// fetched from the third party before they ask, and Lighthouse's phone sees no cross-origin
	// frame on the path to the first paint.
	must(t, p, 200, `<a class="embed-load" href="https://www.youtube-nocookie.com/embed/abc123" data-embed-title="`,
		`>Show the embedded content <small>from www.youtube-nocookie.com</small></a>`)
	if strings.Contains(p.body, "<iframe") {
		t.Error("the page has an iframe before the visitor asked for the embed")
	}
	// The visit's reads, then one BatchGetItem for the media records of the images it shows.
	if p.calls > 5 {
		t.Errorf("a page with a form section took %d DynamoDB calls, want at most 5", p.calls)
	}
	if cc := p.header.Get("Cache-Control"); !strings.Contains(cc, "stale-while-revalidate") || p.header.Get("ETag") == "" {
		t.Errorf("cache headers: %q, ETag %q", cc, p.header.Get("ETag"))
	}
}

func TestListsDetailsAndNotFound(t *testing.T) {
	tn := testkit.NewTenant(t)
	soon := time.Now().AddDate(0, 0, 5).Format(time.DateOnly)
	past := time.Now().AddDate(0, 0, -30).Format(time.DateOnly)
	up := staff(t, tn, "POST", "/events", map[string]any{"title": "Open day", "startDate": soon, "location": "Main hall"}).Get("result.id").(string)
	staff(t, tn, "POST", "/events", map[string]any{"title": "Old fair", "startDate": past})
	staff(t, tn, "POST", "/events", map[string]any{"title": "Hidden event", "startDate": soon, "status": false})
	n := staff(t, tn, "POST", "/notices", map[string]any{"title": "Term starts", "message": "Monday.\n\nBring books."}).Get("result.id").(string)
	staff(t, tn, "POST", "/faqs", map[string]any{"question": "When?", "answer": "Now.", "position": 1})
	p := get(t, tn, "/events")
	must(t, p, 200, "Upcoming", "Open day", "Past events", "Old fair", `"@type":"Event"`)
	if strings.Contains(p.body, "Hidden event") {
		t.Error("an inactive event is on the website")
	}
	if p.calls > 3 {
		t.Errorf("the events list took %d DynamoDB calls, want at most 3", p.calls)
	}
	must(t, get(t, tn, "/events/"+up), 200, "Open day", "Main hall")
	must(t, get(t, tn, "/notices/"+n), 200, "Term starts", "<p>Bring books.</p>")
	must(t, get(t, tn, "/faqs"), 200, "<summary>When?</summary>")
	must(t, get(t, tn, "/"), 200, "Welcome to", "Open day", "Term starts")
	if p := get(t, tn, "/api/v1/tenant/nothing"); p.status != 404 || !strings.Contains(p.body, `"message":"Not found."`) {
		t.Errorf("an unrouted API path on the website: %d %s", p.status, p.body)
	}
	for _, path := range []string{"/no-such-page", "/events/01ARZ3NDEKTSV4RRFFQ69G5FAV", "/events/x", "/a/b/c"} {
		must(t, get(t, tn, path), 404, "Page not found")
	}
	// Other methods: the 404 page too (no 405 for a website's visitor), HEAD like GET.
	for _, m := range []string{"PUT", "DELETE", "POST"} {
		must(t, visit(t, m, tn.ID+".localhost:8080", "/events", nil), 404, "Page not found")
	}
	if p := visit(t, "HEAD", tn.ID+".localhost:8080", "/events", nil); p.status != 200 || p.body != "" {
		t.Errorf("HEAD /events: %d with %d bytes of body", p.status, len(p.body))
	}
	must(t, get(t, tn, "/sitemap.xml"), 200, "<loc>http://"+tn.ID+".localhost:8080/events</loc>")
	must(t, get(t, tn, "/robots.txt"), 200, "Sitemap: http://"+tn.ID+".localhost:8080/sitemap.xml")
}

func TestHostsAreIsolated(t *testing.T) {
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	_, slug := newPage(t, a, "Only in A", nil)
	must(t, get(t, a, "/"+slug), 200, "Only in A")
	must(t, get(t, b, "/"+slug), 404)
	// Every record route of A's on B's host: nothing of A's shows, and nothing is written.
	event := staff(t, a, "POST", "/events", map[string]any{"title": "A's event", "startDate": "2030-01-01"}).Get("result.id").(string)
	notice := staff(t, a, "POST", "/notices", map[string]any{"title": "A's notice", "message": "x"}).Get("result.id").(string)
	album := staff(t, a, "POST", "/albums", map[string]any{"title": "A's album"}).Get("result.id").(string)
	form := staff(t, a, "GET", "/custom-forms?limit=5", nil).Get("result.0.id").(string)
	for _, path := range []string{"/events/" + event, "/notices/" + notice, "/albums/" + album, "/forms/" + form} {
		must(t, get(t, a, path), 200)
		if p := get(t, b, path); p.status != 404 || strings.Contains(p.body, "A's") {
			t.Errorf("%s on B's host: %d", path, p.status)
		}
	}
	if p := visit(t, "POST", b.ID+".localhost", "/forms/"+form, url.Values{"f_x": {"y"}}); p.status != 404 {
		t.Errorf("a post of A's form on B's host: %d", p.status)
	}
	if subs := staff(t, a, "GET", "/custom-form-submissions?formId="+form, nil); subs.Get("totalCount") != float64(0) {
		t.Errorf("A's form took a submission from B's host: %s", subs.Raw)
	}
	for _, host := range []string{"nobody-here.localhost", "example.org", "evil.com:8080", a.ID + ".localhost.evil.com"} {
		if p := visit(t, "GET", host, "/"+slug, nil); p.status != 404 || strings.Contains(p.body, "Only in A") {
			t.Errorf("host %s: %d %.200s", host, p.status, p.body)
		}
	}
}

func TestHostileContentStaysInert(t *testing.T) {
	tn := testkit.NewTenant(t)
	staff(t, tn, "PATCH", "/theme-settings", map[string]any{"customCss": "body{color:red}</style><script>alert(1)</script><style>"})
	staff(t, tn, "PATCH", "/header", map[string]any{"title": `"><script>alert(2)</script>`})
	_, slug := newPage(t, tn, "XSS <img src=x onerror=alert(3)>", map[string]any{
		"content":     `<p>ok</p><script>alert(4)</script><img src=x onerror="alert(5)"><a href="javascript:alert(6)">x</a>`,
		"description": `</title><script>alert(7)</script>`,
	})
	p := get(t, tn, "/"+slug)
	must(t, p, 200, `body{color:red}<\/style><script>alert(1)<\/script><style>`)
	// Parsed as a browser would: the only scripts are the site's own file and its JSON-LD, no
	// element has an event handler, no link runs script.
	doc, err := html.Parse(strings.NewReader(p.body))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attrs := map[string]string{}
			for _, a := range n.Attr {
				attrs[a.Key] = a.Val
				if strings.HasPrefix(a.Key, "on") || strings.HasPrefix(strings.TrimSpace(strings.ToLower(a.Val)), "javascript:") {
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				}
			}
			if n.Data == "script" && attrs["type"] != "application/ld+json" && !strings.HasPrefix(attrs["src"], "/assets/site.") {
				t.Errorf("a script element runs: %v", attrs)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

func TestPreview(t *testing.T) {
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id, slug := newPage(t, tn, "Draft page", map[string]any{"isPublished": false})
	must(t, get(t, tn, "/"+slug), 404)
	res := staff(t, tn, "POST", "/pages/"+id+"/preview", nil)
	path := res.Get("result.path").(string)
	p := get(t, tn, path)
	must(t, p, 200, "Draft page", "Preview:", `content="noindex, nofollow"`)
	if cc := p.header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("preview Cache-Control %q", cc)
	}
	must(t, get(t, other, path), 404)
	must(t, get(t, tn, "/_preview/forged-token-forged-token-forged"), 404)
	viewer := testkit.NewUser(t, tn)
	noRight := testkit.Call(t, testkit.Request{Method: "POST", Path: "/pages/" + id + "/preview", Tenant: tn.ID, Token: viewer})
	testkit.Expect(t, noRight, 403, "")
	cross := testkit.Call(t, testkit.Request{Method: "POST", Path: "/pages/" + id + "/preview", Tenant: other.ID, Token: other.AdminToken})
	testkit.Expect(t, cross, 404, "")
}

func TestFormPostsWithoutScript(t *testing.T) {
	tn := testkit.NewTenant(t)
	_, slug := newPage(t, tn, "Contact", nil)
	p := get(t, tn, "/"+slug)
	i := strings.Index(p.body, `action="/forms/`)
	formID := p.body[i+len(`action="/forms/`) : i+len(`action="/forms/`)+26]
	form := get(t, tn, "/forms/"+formID)
	must(t, form, 200, "Your name")
	nameField := between(form.body, `<label for="`+formID+`-`, `">Your name`)
	topicField := between(form.body, `<label for="`+formID+`-`, `">Topic`)
	host := tn.ID + ".localhost:8080"
	bad := visit(t, "POST", host, "/forms/"+formID, url.Values{"f_" + topicField: {"Other"}})
	must(t, bad, 400, "Your name is required!", `<option selected>Other</option>`)
	ok := visit(t, "POST", host, "/forms/"+formID, url.Values{"f_" + nameField: {"Ada"}, "f_" + topicField: {"Admissions"}})
	if ok.status != 303 || ok.header.Get("Location") != "/forms/"+formID+"?sent=1" {
		t.Fatalf("post: %d %s", ok.status, ok.header.Get("Location"))
	}
	subs := staff(t, tn, "GET", "/custom-form-submissions?formId="+formID, nil)
	if subs.Get("totalCount") != float64(1) || !strings.Contains(string(subs.Raw), "Ada") {
		t.Fatalf("submissions: %s", subs.Raw)
	}
	trapped := visit(t, "POST", host, "/forms/"+formID, url.Values{"f_" + nameField: {"Bot"}, "_gotcha": {"x"}})
	if trapped.status != 303 {
		t.Fatalf("honeypot: %d", trapped.status)
	}
	if subs := staff(t, tn, "GET", "/custom-form-submissions?formId="+formID, nil); subs.Get("totalCount") != float64(1) {
		t.Fatalf("the honeypot stored a submission: %s", subs.Raw)
	}
	news := visit(t, "POST", host, "/newsletter", url.Values{"email": {"reader@example.org"}})
	must(t, news, 200, "Thanks for subscribing!")
	must(t, visit(t, "POST", host, "/newsletter", url.Values{"email": {"nope"}}), 400)
}

func between(s, start, end string) string {
	i := strings.Index(s, end)
	if i < 0 {
		return ""
	}
	j := strings.LastIndex(s[:i], start)
	if j < 0 {
		return ""
	}
	return s[j+len(start) : i]
}

func TestEveryThemeRendersEveryPageType(t *testing.T) {
	tn := testkit.NewTenant(t)
	_, slug := newPage(t, tn, "Themed page", nil)
	staff(t, tn, "POST", "/events", map[string]any{"title": "Sports day", "startDate": time.Now().AddDate(0, 0, 3).Format(time.DateOnly)})
	album := staff(t, tn, "POST", "/albums", map[string]any{"title": "Campus life", "description": "<p>Photos</p>"}).Get("result.id").(string)
	paths := []string{"/", "/" + slug, "/events", "/notices", "/albums", "/albums/" + album, "/staff", "/departments", "/faqs", "/resources", "/testimonials"}
	inEveryTheme(t, tn, func(th themes.Theme) {
		for _, path := range paths {
			p := get(t, tn, path)
			must(t, p, 200, `class="theme-`+th.ID+`"`)
			themeCSS(t, p.body, th.ID)
		}
		must(t, get(t, tn, "/missing-page"), 404, `class="theme-`+th.ID+`"`)
	})
}

// TestAssetsServedByTheirHashedNames: the files a page names are served, immutable, with their
// declared type; a name whose hash is not the file's, or no file's, is a 404.
func TestAssetsServedByTheirHashedNames(t *testing.T) {
	tn := testkit.NewTenant(t)
	home := get(t, tn, "/")
	named := regexp.MustCompile(`/assets/[a-z0-9./-]+\.(?:js|css|woff2)`).FindAllString(home.body, -1)
	if len(named) < 3 {
		t.Fatalf("the home page names %v: want its script, stylesheet and font", named)
	}
	for _, src := range named {
		p := get(t, tn, src)
		if p.status != 200 || p.body == "" || !strings.Contains(p.header.Get("Cache-Control"), "immutable") {
			t.Fatalf("%s: %d %v", src, p.status, p.header)
		}
		want := map[string]string{".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2"}[src[strings.LastIndex(src, "."):]]
		if !strings.HasPrefix(p.header.Get("Content-Type"), want) {
			t.Errorf("%s: Content-Type %q", src, p.header.Get("Content-Type"))
		}
	}
	for _, bad := range []string{"/assets/site.00000000.js", "/assets/site.js", "/assets/nothing.12345678.js", "/assets/fonts/arimo-400.00000000.woff2"} {
		if p := get(t, tn, bad); p.status != 404 {
			t.Errorf("%s: %d, want 404", bad, p.status)
		}
	}
}
