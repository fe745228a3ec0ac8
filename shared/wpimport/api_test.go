package wpimport_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
)

// tinyExport is an export of two published pages (one a child), a post and a draft.
const tinyExport = `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Tiny School</title><link>https://tiny.example.org</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>https://tiny.example.org</wp:base_site_url><wp:base_blog_url>https://tiny.example.org</wp:base_blog_url>
<item><title>Welcome</title><link>https://tiny.example.org/welcome/</link><wp:post_id>1</wp:post_id><wp:post_type>page</wp:post_type><wp:status>publish</wp:status><wp:post_name>welcome</wp:post_name><wp:post_parent>0</wp:post_parent>
<content:encoded><![CDATA[Hello.

Read [foo-widget] <a href="https://tiny.example.org/welcome/team/">our team</a>.]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded></item>
<item><title>Team</title><link>https://tiny.example.org/welcome/team/</link><wp:post_id>2</wp:post_id><wp:post_type>page</wp:post_type><wp:status>publish</wp:status><wp:post_name>team</wp:post_name><wp:post_parent>1</wp:post_parent>
<content:encoded><![CDATA[<p>We are here.</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded></item>
<item><title>News</title><link>https://tiny.example.org/2024/01/01/news/</link><wp:post_id>3</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status><wp:post_name>news</wp:post_name><wp:post_date_gmt>2024-01-01 09:00:00</wp:post_date_gmt>
<content:encoded><![CDATA[Term starts.]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded></item>
<item><title>Draft</title><link>https://tiny.example.org/?page_id=4</link><wp:post_id>4</wp:post_id><wp:post_type>page</wp:post_type><wp:status>draft</wp:status><wp:post_name></wp:post_name>
<content:encoded><![CDATA[Not yet.]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded></item>
</channel></rss>`

// upload creates an import job and posts body with its presigned form, as the browser does.
func upload(t *testing.T, tn testkit.Tenant, body string) string {
	t.Helper()
	res := testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "tiny.xml", "size": len(body)}})
	testkit.Expect(t, res, 201, "")
	id := res.Get("result.id").(string)
	fields, _ := res.Get("result.upload.fields").(map[string]any)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v.(string))
	}
	fw, _ := mw.CreateFormFile("file", "tiny.xml")
	_, _ = io.WriteString(fw, body)
	_ = mw.Close()
	resp, err := http.Post(res.Get("result.upload.url").(string), mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("S3 POST: %d %s", resp.StatusCode, raw)
	}
	return id
}

// waitFor polls the job until it leaves state from, and answers it.
func waitFor(t *testing.T, tn testkit.Tenant, id, from string) testkit.Response {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		res := testkit.Call(t, call{Method: "GET", Path: "/wordpress-imports/" + id, Tenant: tn.ID, Token: tn.AdminToken})
		testkit.Expect(t, res, 200, "")
		if res.Get("result.state") != from {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job stayed %s: %s", from, res.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// The Import screen's way: upload, check (a dry run outside the request), import, the report as
// sections, the pages there; a second start while one is under way is refused.
func TestImportThroughTheAPI(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id := upload(t, tn, tinyExport)
	imp := call{Method: "POST", Path: "/wordpress-imports/" + id + "/import", Tenant: tn.ID, Token: tn.AdminToken}
	testkit.Expect(t, testkit.Call(t, imp), 409, "Check the file before importing it.")

	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports/" + id + "/check", Tenant: tn.ID, Token: tn.AdminToken}), 202, "")
	checked := waitFor(t, tn, id, "checking")
	if checked.Get("result.state") != "checked" || !strings.Contains(string(checked.Raw), "Would import") ||
		!strings.Contains(string(checked.Raw), "pages: 2 new") || !strings.Contains(string(checked.Raw), "[foo-widget]") {
		t.Fatalf("checked: %s", checked.Raw)
	}
	if n := len(list(t, tn, "/pages")); n != 0 {
		t.Fatalf("the check wrote %d pages", n)
	}

	testkit.Expect(t, testkit.Call(t, imp), 202, "")
	again := testkit.Call(t, imp)
	if again.Status != 202 && again.Status != 409 {
		t.Fatalf("a second start: %d %s", again.Status, again.Raw)
	}
	done := waitFor(t, tn, id, "importing")
	if done.Get("result.state") != "imported" || !strings.Contains(string(done.Raw), "Imported") || !strings.Contains(string(done.Raw), "1 draft page") {
		t.Fatalf("imported: %s", done.Raw)
	}
	pages := list(t, tn, "/pages")
	if byField(pages, "slug", "welcome-team") == nil || byField(pages, "slug", "welcome") == nil {
		t.Fatalf("pages: %v", pages)
	}
	recent := testkit.Call(t, call{Method: "GET", Path: "/wordpress-imports", Tenant: tn.ID, Token: tn.AdminToken})
	if testkit.Expect(t, recent, 200, ""); !strings.Contains(string(recent.Raw), id) {
		t.Fatalf("recent imports: %s", recent.Raw)
	}
}

// Refusals: not uploaded, not an export, too large; a staff member who is not an administrator;
// another tenant's token.
func TestImportRefusals(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	res := testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "x.xml", "size": 200 << 20}})
	testkit.Expect(t, res, 413, "The export is larger than 100 MB.")
	for _, bad := range []any{`{"name": "x.xml"`, map[string]any{"name": "x.xml", "size": "big"}, map[string]any{"name": "x.xml", "size": 10, "admin": true}} {
		if res := testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports", Tenant: tn.ID, Token: tn.AdminToken, Body: bad}); res.Status != 400 {
			t.Errorf("%v: %d %s", bad, res.Status, res.Raw)
		}
	}
	res = testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"name": "x.xml", "size": 10}})
	testkit.Expect(t, res, 201, "")
	pending := res.Get("result.id").(string)
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports/" + pending + "/check", Tenant: tn.ID, Token: tn.AdminToken}),
		400, "The file has not been uploaded yet.")

	html := upload(t, tn, "<!doctype html><html><body>Not an export</body></html>")
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports/" + html + "/check", Tenant: tn.ID, Token: tn.AdminToken}),
		400, "This file is not a WordPress export. In WordPress, use Tools → Export → All content, and upload the .xml file it downloads.")

	// XML that is not WXR gets through the first bytes' check; the run fails with why.
	rss := upload(t, tn, `<?xml version="1.0"?><html><body>hello</body></html>`)
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports/" + rss + "/check", Tenant: tn.ID, Token: tn.AdminToken}), 202, "")
	failed := waitFor(t, tn, rss, "checking")
	if failed.Get("result.state") != "failed" || !strings.Contains(string(failed.Raw), "not a WordPress export") {
		t.Errorf("not WXR: %s", failed.Raw)
	}

	editor := testkit.NewUser(t, tn, "CMS_VIEW_THEME", "CMS_EDIT_THEME")
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/wordpress-imports", Tenant: tn.ID, Token: editor}), 403, "Only an administrator can import a website.")
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports/" + html + "/check", Tenant: tn.ID, Token: editor}), 403, "Only an administrator can import a website.")

	// Another tenant's admin: its token is no use here, and this tenant's job is not its own.
	if res := testkit.Call(t, call{Method: "GET", Path: "/wordpress-imports/" + html, Tenant: tn.ID, Token: other.AdminToken}); res.Status != 401 && res.Status != 403 {
		t.Errorf("other tenant's token: %d", res.Status)
	}
	testkit.Expect(t, testkit.Call(t, call{Method: "GET", Path: "/wordpress-imports/" + html, Tenant: other.ID, Token: other.AdminToken}), 404, "This import was not found.")
	testkit.Expect(t, testkit.Call(t, call{Method: "POST", Path: "/wordpress-imports/" + html + "/check", Tenant: other.ID, Token: other.AdminToken}), 404, "This import was not found.")
}
