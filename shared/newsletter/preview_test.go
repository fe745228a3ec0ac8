package newsletter_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/testkit"
)

const (
	hostileSubject = `Autumn </title><script>alert("s")</script> news`
	hostileContent = `<p>Hello <strong>readers</strong>!</p><script>alert(1)</script><img src="x" onerror="alert(2)">` +
		`<a href="javascript:alert(3)">click</a><p>Tom &amp; Jerry</p>`
)

func preview(t *testing.T, tn testkit.Tenant, token, id string) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletters/" + id + "/preview", Tenant: tn.ID, Token: token})
}

func previewDraft(t *testing.T, tn testkit.Tenant, token string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, testkit.Request{Method: "POST", Path: "/newsletters/preview", Tenant: tn.ID, Token: token, Body: body})
}

// harmless fails the test when html holds what could run or break out of its place: script, an
// event handler, a javascript: link, the hostile subject unescaped.
func harmless(t *testing.T, html string) {
	t.Helper()
	for _, bad := range []string{"<script", "onerror", "javascript:", "</title><"} {
		if strings.Contains(strings.ToLower(html), strings.ToLower(bad)) {
			t.Fatalf("preview holds %q: %s", bad, html)
		}
	}
}

// TestPreviewIsTheMailSubscribersGet: the preview of a saved newsletter is its mail as the send
// writes it (the same HTML and text parts, from the same templates), but for the sample
// unsubscribe link; a hostile subject is escaped in the HTML part and the content is the
// sanitised one.
func TestPreviewIsTheMailSubscribersGet(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	testkit.SetDomains(t, tn.ID, tn.ID+".example.org")
	res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"subject": hostileSubject, "content": hostileContent}})
	testkit.Expect(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)

	p := preview(t, tn, tn.AdminToken, id)
	testkit.Expect(t, p, http.StatusOK, "")
	html, text := p.Get("result.html").(string), p.Get("result.text").(string)
	harmless(t, html)
	sample := p.Get("result.unsubscribeUrl").(string)
	if sample != "https://"+tn.ID+".example.org"+newsletter.UnsubscribePath+"?token="+newsletter.PreviewToken {
		t.Fatalf("sample unsubscribe link %q", sample)
	}
	for _, want := range []string{"<title>Autumn &lt;/title&gt;&lt;script&gt;alert(&#34;s&#34;)&lt;/script&gt; news</title>",
		"<strong>readers</strong>", "Tom &amp; Jerry", sample, "Test " + tn.ID} {
		if !strings.Contains(html, want) {
			t.Fatalf("preview HTML lacks %q: %s", want, html)
		}
	}
	if !strings.Contains(text, "Hello readers!") || !strings.Contains(text, "Tom & Jerry") || !strings.Contains(text, "Unsubscribe: "+sample) {
		t.Fatalf("preview text: %q", text)
	}
	if p.Get("result.subject") != hostileSubject || p.Get("result.fromName") != "Test "+tn.ID {
		t.Fatalf("preview: %s", p.Raw)
	}

	// The send writes the same parts, with each recipient's own link.
	addConfirmed(t, tn.ID, "reader@"+tn.ID+".example.org")
	testkit.Expect(t, send(t, tn, id), http.StatusAccepted, "")
	if errs := runJobs(t, tn.ID, 10); errs != 0 {
		t.Fatalf("%d failed runs", errs)
	}
	sent := mailsTo(t, tn.ID, "reader@"+tn.ID+".example.org", mail.KindNewsletter)
	if len(sent) != 1 {
		t.Fatalf("%d mails", len(sent))
	}
	own := strings.Trim(sent[0].Headers[mail.HeaderListUnsubscribe], "<>")
	if own == "" || own == sample {
		t.Fatalf("the mail's link %q", own)
	}
	if got := strings.ReplaceAll(sent[0].HTML, own, sample); got != html {
		t.Fatalf("the sent HTML differs from the preview:\n sent    %s\n preview %s", got, html)
	}
	if got := strings.ReplaceAll(sent[0].Text, own, sample); got != text {
		t.Fatalf("the sent text differs from the preview:\n sent    %q\n preview %q", got, text)
	}
	if sent[0].Subject != hostileSubject {
		t.Fatalf("sent subject %q", sent[0].Subject)
	}
	// A sent newsletter still previews (what was sent).
	testkit.Expect(t, preview(t, tn, tn.AdminToken, id), http.StatusOK, "")
}

// TestPreviewDraft: POST /newsletters/preview renders what the form holds, without storing it,
// through the same checks and sanitiser as a save; bad input is the save's 400.
func TestPreviewDraft(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	p := previewDraft(t, tn, tn.AdminToken, map[string]any{"subject": hostileSubject, "content": hostileContent, "state": "sent", "sentCount": 3})
	testkit.Expect(t, p, http.StatusOK, "")
	html := p.Get("result.html").(string)
	harmless(t, html)
	if !strings.Contains(html, "<strong>readers</strong>") || !strings.Contains(p.Get("result.text").(string), "Hello readers!") {
		t.Fatalf("draft preview: %s", p.Raw)
	}
	// Without a website address the sample link is the website's path.
	if u := p.Get("result.unsubscribeUrl").(string); !strings.HasSuffix(u, newsletter.UnsubscribePath+"?token="+newsletter.PreviewToken) {
		t.Fatalf("sample link %q", u)
	}
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken})
	if list.Get("totalCount") != 0.0 {
		t.Fatalf("a preview stored something: %s", list.Raw)
	}
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"no subject", map[string]any{"content": "<p>x</p>"}, http.StatusBadRequest, "subject"},
		{"no content", map[string]any{"subject": "x"}, http.StatusBadRequest, "content"},
		{"a line break in the subject", map[string]any{"subject": "A\r\nBcc: x@evil.example", "content": "<p>x</p>"}, http.StatusBadRequest, "subject"},
		{"too long a subject", map[string]any{"subject": strings.Repeat("s", mail.MaxSubjectLength+1), "content": "<p>x</p>"}, http.StatusBadRequest, "subject"},
		{"an unknown field", map[string]any{"subject": "x", "content": "<p>x</p>", "bcc": "x@evil.example"}, http.StatusBadRequest, "bcc"},
		{"not JSON", "{", http.StatusBadRequest, ""},
	}
	for _, c := range cases {
		res := previewDraft(t, tn, tn.AdminToken, c.body)
		if res.Status != c.status || (c.field != "" && res.Get("errors."+c.field) == nil) {
			t.Errorf("%s: %d %s", c.name, res.Status, res.Raw)
		}
	}
	big := previewDraft(t, tn, tn.AdminToken, map[string]any{"subject": "Big", "content": "<p>" + strings.Repeat("a", 70_000) + "</p>"})
	if big.Status < 400 || big.Status >= 500 {
		t.Fatalf("oversized content: %d %s", big.Status, big.Raw)
	}
}

// TestPreviewRightsAndTenancy: a preview needs the right to view newsletters (a draft's, to
// write one); another tenant's newsletter is not found; no sign-in is 401.
func TestPreviewRightsAndTenancy(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	id := newNewsletter(t, tn, "Ours")
	viewer := testkit.NewUser(t, tn, "CMS_VIEW_NEWSLETTER")
	writer := testkit.NewUser(t, tn, "CMS_VIEW_NEWSLETTER", "CMS_CREATE_NEWSLETTER")
	editor := testkit.NewUser(t, tn, "CMS_VIEW_NEWSLETTER", "CMS_EDIT_NEWSLETTER")
	nobody := testkit.NewUser(t, tn)
	draft := map[string]any{"subject": "Draft", "content": "<p>x</p>"}

	testkit.Expect(t, preview(t, tn, viewer, id), http.StatusOK, "")
	testkit.Expect(t, preview(t, tn, nobody, id), http.StatusForbidden, "")
	testkit.Expect(t, preview(t, tn, "", id), http.StatusUnauthorized, "")
	testkit.Expect(t, preview(t, other, other.AdminToken, id), http.StatusNotFound, "")
	testkit.Expect(t, preview(t, tn, tn.AdminToken, "01ARZ3NDEKTSV4RRFFQ69G5FAV"), http.StatusNotFound, "")
	testkit.Expect(t, preview(t, tn, tn.AdminToken, "not-an-id"), http.StatusNotFound, "")
	// A token of the tenant under another tenant's header is nobody there.
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletters/" + id + "/preview", Tenant: other.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, http.StatusUnauthorized, "")

	testkit.Expect(t, previewDraft(t, tn, writer, draft), http.StatusOK, "")
	testkit.Expect(t, previewDraft(t, tn, editor, draft), http.StatusOK, "")
	testkit.Expect(t, previewDraft(t, tn, viewer, draft), http.StatusForbidden, "")
	testkit.Expect(t, previewDraft(t, tn, nobody, draft), http.StatusForbidden, "")
	testkit.Expect(t, previewDraft(t, tn, "", draft), http.StatusUnauthorized, "")
}

// unsubscribeLinkOf is the one-click link of the newsletter mail to address.
func unsubscribeLinkOf(t *testing.T, tenant, address string) string {
	t.Helper()
	m := mailsTo(t, tenant, address, mail.KindNewsletter)
	if len(m) == 0 {
		t.Fatalf("no newsletter to %s", address)
	}
	return strings.Trim(m[len(m)-1].Headers[mail.HeaderListUnsubscribe], "<>")
}

var oneClick = url.Values{"List-Unsubscribe": {"One-Click"}}
