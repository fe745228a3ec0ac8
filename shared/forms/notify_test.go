package forms_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/website"
)

// testPanel is the panel's address in this test binary (PANEL_URL, set by TestMain).
const testPanel = "https://panel.example.org"

// contactFields are a contact form's fields: the email field is the submitter's address.
var contactFields = []map[string]any{
	{"id": "NEW_1", "label": "Name", "fieldType": "text", "required": true},
	{"id": "NEW_2", "label": "Email", "fieldType": "email"},
	{"id": "NEW_3", "label": "Message", "fieldType": "textarea", "required": true},
	{"id": "NEW_4", "label": "Reply by", "fieldType": "checkbox", "options": []map[string]any{{"id": "NEW_5", "name": "Email"}, {"id": "NEW_6", "name": "Phone"}}},
}

// addr is an address of the test's own tenant, so parallel tests never read each other's mail.
func addr(tn testkit.Tenant, who string) string { return who + "-" + tn.ID + "@example.org" }

// mailForm creates an active form with the given mail settings and returns its id.
func mailForm(t *testing.T, tn testkit.Tenant, fields any, settings map[string]any) string {
	t.Helper()
	body := map[string]any{"name": "Contact us", "image": cover, "fields": fieldsText(t, fields)}
	for k, v := range settings {
		body[k] = v
	}
	res := testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
	testkit.Expect(t, res, http.StatusCreated, "")
	return res.Get("result.id").(string)
}

// outboxTo is the tenant's waiting mail by recipient.
func outboxTo(t *testing.T, tn testkit.Tenant) map[string]mail.Entry {
	t.Helper()
	out := map[string]mail.Entry{}
	for _, e := range testkit.Outbox(t, tn.ID) {
		if _, dup := out[e.To]; dup {
			t.Errorf("two mails to %s", e.To)
		}
		out[e.To] = e
	}
	return out
}

func recipients(m map[string]mail.Entry) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestSubmissionMailsEachNotifyAddressAndTheAutoReply(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	office, head := addr(tn, "office"), addr(tn, "head")
	visitor, contact := addr(tn, "visitor"), addr(tn, "contact")
	footer := testkit.Call(t, call{Method: "PATCH", Path: "/footer", Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"contactEmail": contact}})
	testkit.Expect(t, footer, 200, "")
	formID := mailForm(t, tn, contactFields, map[string]any{
		"notifyEmails":     []string{office, strings.ToUpper(head), office},
		"autoReplySubject": "We got your message",
		"autoReplyMessage": "Thank you for writing to us.\n\nWe answer within two working days.",
	})
	form := testkit.Call(t, call{Method: "GET", Path: "/custom-forms/" + formID, Tenant: tn.ID, Token: tn.AdminToken})
	if got := fmt.Sprint(form.Get("result.notifyEmails")); got != fmt.Sprint([]string{office, head}) {
		t.Fatalf("notifyEmails stored as %s, want lower-cased without repeats", got)
	}

	message := "Hello <b>staff</b> & co,\r\n<script>alert(1)</script>\nSecond line"
	res := submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "Ada <Lovelace>", "Email": visitor,
		"Message": message, "Reply by": []string{"Phone", "Email"}})
	testkit.Expect(t, res, http.StatusCreated, "")
	subID := res.Get("result.id").(string)

	waiting := outboxTo(t, tn)
	if got := recipients(waiting); len(got) != 3 {
		t.Fatalf("outbox to %v, want the two notify addresses and the visitor", got)
	}
	link := testPanel + "/custom-forms/" + formID + "/submissions?submission=" + subID
	for _, to := range []string{office, head} {
		e, ok := waiting[to]
		switch {
		case !ok:
			t.Fatalf("no notification to %s", to)
		case e.Kind != mail.KindFormNotification || e.Subject != "New submission: Contact us" || e.ReplyTo != visitor:
			t.Errorf("notification to %s: kind %q subject %q reply-to %q", to, e.Kind, e.Subject, e.ReplyTo)
		}
		for _, want := range []string{"Name:\nAda <Lovelace>", "Email:\n" + visitor, "Message:\nHello <b>staff</b> & co,\n<script>alert(1)</script>\nSecond line",
			"Reply by:\nEmail, Phone", link} {
			if !strings.Contains(e.Text, want) {
				t.Errorf("notification text lacks %q:\n%s", want, e.Text)
			}
		}
		for _, want := range []string{"Ada &lt;Lovelace&gt;", "Hello &lt;b&gt;staff&lt;/b&gt; &amp; co,<br>&lt;script&gt;alert(1)&lt;/script&gt;<br>Second line",
			`href="` + strings.ReplaceAll(link, "&", "&amp;") + `"`} {
			if !strings.Contains(e.HTML, want) {
				t.Errorf("notification HTML lacks %q:\n%s", want, e.HTML)
			}
		}
		if strings.Contains(e.HTML, "<script>") || strings.Contains(e.HTML, "<b>staff") {
			t.Errorf("a visitor's markup reached the HTML part unescaped:\n%s", e.HTML)
		}
	}
	reply := waiting[visitor]
	if reply.Kind != mail.KindFormAutoReply || reply.Subject != "We got your message" || reply.ReplyTo != contact {
		t.Errorf("auto-reply: kind %q subject %q reply-to %q", reply.Kind, reply.Subject, reply.ReplyTo)
	}
	if !strings.Contains(reply.Text, "Thank you for writing to us.\n\nWe answer within two working days.") || strings.Contains(reply.Text, "alert(1)") {
		t.Errorf("auto-reply text (staff's words only):\n%s", reply.Text)
	}

	// Sent through the local mailbox: what people receive.
	if res := testkit.DeliverMail(t, tn.ID); res.Sent != 3 {
		t.Fatalf("delivered %+v, want 3 sent", res)
	}
	mb := testkit.Mailbox(t)
	got := mb.WaitFor(t, office, 1)[0]
	if got.Subject != "New submission: Contact us" || !strings.Contains(got.Header("reply-to"), visitor) || !strings.Contains(got.Text, link) {
		t.Errorf("received notification: subject %q reply-to %q text:\n%s", got.Subject, got.Header("reply-to"), got.Text)
	}
	if !strings.Contains(got.HTML, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("received notification HTML:\n%s", got.HTML)
	}
	ack := mb.WaitFor(t, visitor, 1)[0]
	if ack.Subject != "We got your message" || !strings.Contains(ack.Header("reply-to"), contact) || ack.Header("auto-submitted") != "auto-replied" {
		t.Errorf("received auto-reply: subject %q reply-to %q auto-submitted %q", ack.Subject, ack.Header("reply-to"), ack.Header("auto-submitted"))
	}
}

// siteServer is the website as the local server mounts it (T.localhost serves tenant T).
var siteServer struct {
	once sync.Once
	h    http.Handler
	err  error
}

func TestPublicAPIAndWebsitePostMailToo(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	office, visitor := addr(tn, "office"), addr(tn, "visitor")
	formID := mailForm(t, tn, contactFields, map[string]any{"notifyEmails": office, "autoReplyMessage": "Thanks!"})

	// The public API, as a website's script posts.
	res := testkit.Call(t, call{Method: "POST", Path: "/api/v1/public/forms/" + formID + "/submissions", Tenant: tn.ID,
		Body: map[string]any{"Name": "Grace", "Email": visitor, "Message": "From the API"}})
	testkit.Expect(t, res, http.StatusCreated, "")
	waiting := outboxTo(t, tn)
	if len(waiting) != 2 || !strings.Contains(waiting[office].Text, "From the API") || waiting[visitor].Subject != "Thank you for your message: Contact us" {
		t.Fatalf("after the public API: %v", recipients(waiting))
	}
	testkit.DeliverMail(t, tn.ID)

	// The website's HTML form, posted without JavaScript.
	siteServer.once.Do(func() {
		siteServer.h, siteServer.err = website.Build(testkit.Deps(t), website.Options{LocalHosts: true})
	})
	if siteServer.err != nil {
		t.Fatal(siteServer.err)
	}
	// The website names each input f_{field id}.
	var saved []map[string]any
	text := testkit.Call(t, call{Method: "GET", Path: "/custom-forms/" + formID, Tenant: tn.ID, Token: tn.AdminToken}).Get("result.fields").(string)
	if err := json.Unmarshal([]byte(text), &saved); err != nil {
		t.Fatal(err)
	}
	posted := map[string]string{"Name": "Grace", "Email": visitor, "Message": "From the website"}
	form := url.Values{}
	for _, f := range saved {
		if v, ok := posted[f["label"].(string)]; ok {
			form.Set("f_"+f["id"].(string), v)
		}
	}
	r := httptest.NewRequest("POST", "/forms/"+formID, strings.NewReader(form.Encode()))
	r.Host = tn.ID + ".localhost:8080"
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	siteServer.h.ServeHTTP(w, r)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("website post: %d %.500s", w.Code, w.Body.String())
	}
	waiting = outboxTo(t, tn)
	if len(waiting) != 2 || !strings.Contains(waiting[office].Text, "From the website") || waiting[visitor].Kind != mail.KindFormAutoReply {
		t.Fatalf("after the website's post: %v", recipients(waiting))
	}
}

func TestRefusedSubmissionLeavesNoMail(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	formID := mailForm(t, tn, contactFields, map[string]any{"notifyEmails": []string{addr(tn, "office")}, "autoReplyMessage": "Thanks!"})
	cases := []struct {
		name   string
		body   map[string]any
		status int
	}{
		{"required field missing", map[string]any{"formId": formID, "Email": addr(tn, "v"), "Message": "Hi"}, 400},
		{"unknown field", map[string]any{"formId": formID, "Name": "A", "Email": addr(tn, "v"), "Message": "Hi", "Bcc": "x@example.org"}, 400},
		{"email too long", map[string]any{"formId": formID, "Name": "A", "Email": strings.Repeat("a", 250) + "@example.org", "Message": "Hi"}, 400},
		{"unknown form", map[string]any{"formId": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "Name": "A", "Message": "Hi"}, 404},
	}
	for _, c := range cases {
		testkit.Expect(t, submit(t, tn, tn.AdminToken, c.body), c.status, "")
	}
	// A closed form refuses too.
	patch := testkit.Call(t, call{Method: "PATCH", Path: "/custom-forms/" + formID, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"status": false}})
	testkit.Expect(t, patch, 200, "")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "A", "Email": addr(tn, "v"), "Message": "Hi"}), 404, "")
	if got := testkit.Outbox(t, tn.ID); len(got) != 0 {
		t.Fatalf("refused submissions left %d mails", len(got))
	}
}

func TestFormWithoutNotifyEmailsSendsNothing(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	plain := mailForm(t, tn, contactFields, nil)
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": plain, "Name": "A", "Email": addr(tn, "v"), "Message": "Hi"}), 201, "")
	// An auto-reply on a form without an email field has nobody to go to.
	noEmail := mailForm(t, tn, everyType, map[string]any{"autoReplyMessage": "Thanks!"})
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": noEmail, "Name": "A"}), 201, "")
	// Notify addresses cleared: nothing either.
	cleared := mailForm(t, tn, contactFields, map[string]any{"notifyEmails": []string{addr(tn, "office")}})
	v := testkit.Call(t, call{Method: "GET", Path: "/custom-forms/" + cleared, Tenant: tn.ID, Token: tn.AdminToken}).Get("result.version")
	testkit.Expect(t, testkit.Call(t, call{Method: "PATCH", Path: "/custom-forms/" + cleared, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": v, "notifyEmails": []string{}}}), 200, "")
	testkit.Expect(t, submit(t, tn, tn.AdminToken, map[string]any{"formId": cleared, "Name": "A", "Email": addr(tn, "v"), "Message": "Hi"}), 201, "")
	if got := testkit.Outbox(t, tn.ID); len(got) != 0 {
		t.Fatalf("forms that mail nobody left %d mails: %v", len(got), got[0].To)
	}
}

func TestBadSubmitterAddressMeansNoReplyToAndNoAutoReply(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	office := addr(tn, "office")
	formID := mailForm(t, tn, contactFields, map[string]any{"notifyEmails": []string{office}, "autoReplyMessage": "Thanks!"})
	for _, bad := range []string{
		addr(tn, "v") + "\r\nBcc: " + addr(tn, "evil"),
		"Visitor <" + addr(tn, "v") + ">",
		addr(tn, "v") + ", " + addr(tn, "evil"),
		"not an address",
	} {
		res := submit(t, tn, tn.AdminToken, map[string]any{"formId": formID, "Name": "A", "Email": bad, "Message": "Hi"})
		testkit.Expect(t, res, http.StatusCreated, "")
		waiting := testkit.Outbox(t, tn.ID)
		if len(waiting) != 1 || waiting[0].To != office || waiting[0].ReplyTo != "" {
			t.Fatalf("email %q: outbox %+v, want the notification alone without Reply-To", bad, waiting)
		}
		testkit.DeliverMail(t, tn.ID)
	}
	mb := testkit.Mailbox(t)
	for _, m := range mb.WaitFor(t, office, 4) {
		if m.Header("bcc") != "" || m.Header("reply-to") != "" || len(m.To) != 1 {
			t.Errorf("a visitor's value reached a header: %+v", m.Headers)
		}
	}
	if got := mb.Messages(t, addr(tn, "evil")); len(got) != 0 {
		t.Errorf("%d mails reached the injected address", len(got))
	}
}

func TestNotifyEmailsAndAutoReplyAreValidated(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	eleven := make([]string, collections.MaxEmails+1)
	for i := range eleven {
		eleven[i] = fmt.Sprintf("staff%d@example.org", i)
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		field  string
	}{
		{"not an address", map[string]any{"notifyEmails": []string{"office@example.org", "nobody"}}, 400, "notifyEmails"},
		{"a name and address", map[string]any{"notifyEmails": []string{"Office <office@example.org>"}}, 400, "notifyEmails"},
		{"header injection", map[string]any{"notifyEmails": []string{"office@example.org\r\nBcc: x@example.org"}}, 400, "notifyEmails"},
		{"too many", map[string]any{"notifyEmails": eleven}, 400, "notifyEmails"},
		{"not a list", map[string]any{"notifyEmails": map[string]any{"a": 1}}, 400, "notifyEmails"},
		{"subject with a line break", map[string]any{"autoReplySubject": "Thanks\r\nBcc: x@example.org"}, 400, "autoReplySubject"},
		{"subject too long", map[string]any{"autoReplySubject": strings.Repeat("s", 201)}, 400, "autoReplySubject"},
		{"message too long", map[string]any{"autoReplyMessage": strings.Repeat("m", 5001)}, 400, "autoReplyMessage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := map[string]any{"name": "Contact", "image": cover, "fields": fieldsText(t, contactFields)}
			for k, v := range c.body {
				body[k] = v
			}
			res := testkit.Call(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken, Body: body})
			testkit.Expect(t, res, c.status, "")
			if errs, _ := res.Body["errors"].(map[string]any); errs[c.field] == nil {
				t.Errorf("errors %v, want one on %s", res.Body["errors"], c.field)
			}
		})
	}
	// A text of addresses (commas, semicolons, lines) is a list too.
	formID := mailForm(t, tn, contactFields, map[string]any{"notifyEmails": "a@example.org, b@example.org;\nc@example.org"})
	got := testkit.Call(t, call{Method: "GET", Path: "/custom-forms/" + formID, Tenant: tn.ID, Token: tn.AdminToken}).Get("result.notifyEmails")
	if fmt.Sprint(got) != "[a@example.org b@example.org c@example.org]" {
		t.Errorf("notifyEmails from text: %v", got)
	}
	if n := len(testkit.Outbox(t, tn.ID)); n != 0 {
		t.Errorf("saving forms mailed %d", n)
	}
}

func TestSubmissionMailStaysWithItsTenant(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	office := addr(a, "office")
	formID := mailForm(t, a, contactFields, map[string]any{"notifyEmails": []string{office}, "autoReplyMessage": "Thanks!"})
	// B's staff and B's website cannot submit A's form, so nobody is mailed.
	testkit.Expect(t, submit(t, b, b.AdminToken, map[string]any{"formId": formID, "Name": "A", "Email": addr(b, "v"), "Message": "Hi"}), 404, "")
	pub := testkit.Call(t, call{Method: "POST", Path: "/api/v1/public/forms/" + formID + "/submissions", Tenant: b.ID,
		Body: map[string]any{"Name": "A", "Email": addr(b, "v"), "Message": "Hi"}})
	testkit.Expect(t, pub, 404, "")
	if n := len(testkit.Outbox(t, a.ID)) + len(testkit.Outbox(t, b.ID)); n != 0 {
		t.Fatalf("refused cross-tenant submissions left %d mails", n)
	}
	// A's own submission is A's mail alone, sent from A's name.
	testkit.Expect(t, submit(t, a, a.AdminToken, map[string]any{"formId": formID, "Name": "A", "Email": addr(a, "v"), "Message": "Hi"}), 201, "")
	if got := len(testkit.Outbox(t, a.ID)); got != 2 {
		t.Fatalf("A's outbox holds %d mails, want 2", got)
	}
	if got := len(testkit.Outbox(t, b.ID)); got != 0 {
		t.Fatalf("B's outbox holds %d of A's mails", got)
	}
	for _, e := range testkit.Outbox(t, a.ID) {
		if e.FromName != testkit.TenantItem(t, a.ID).Name {
			t.Errorf("mail from %q, want A's name", e.FromName)
		}
	}
}

func TestLargestSubmissionStillMails(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	// The most mail a submission writes (every notify address and the auto-reply) with the most
	// words, in one transaction; and values too long for one mail are shortened, not dropped.
	fields := []map[string]any{{"id": "NEW_e", "label": "Email", "fieldType": "email"}}
	body := map[string]any{"Email": addr(tn, "v")}
	for i := 0; i < forms.MaxFields-1; i++ {
		label := fmt.Sprintf("Answer %d", i)
		fields = append(fields, map[string]any{"id": fmt.Sprintf("NEW_%d", i), "label": label, "fieldType": "textarea"})
		// '"' is two bytes in JSON and five in HTML (&#34;).
		body[label] = fmt.Sprintf("word%d other%d ", i, i) + strings.Repeat(`"`, 1900)
	}
	notify := make([]string, collections.MaxEmails)
	for i := range notify {
		notify[i] = addr(tn, fmt.Sprintf("staff%d", i))
	}
	formID := mailForm(t, tn, fields, map[string]any{"notifyEmails": notify, "autoReplyMessage": strings.Repeat("Thanks. ", 600)})
	body["formId"] = formID
	testkit.Expect(t, submit(t, tn, tn.AdminToken, body), http.StatusCreated, "")
	waiting := testkit.Outbox(t, tn.ID)
	if len(waiting) != forms.MaxSubmitMail {
		t.Fatalf("%d mails, want %d", len(waiting), forms.MaxSubmitMail)
	}
	for _, e := range waiting {
		if e.Kind == mail.KindFormNotification && (!strings.Contains(e.Text, "shortened") || !strings.Contains(e.Text, "Answer 98:\nword98")) {
			t.Errorf("notification of a long submission:\n%.600s", e.Text)
		}
		if len(e.Text)+len(e.HTML) > mail.MaxBodyBytes {
			t.Errorf("mail of %d bytes", len(e.Text)+len(e.HTML))
		}
	}
	if forms.MaxSubmitItems > 100 {
		t.Errorf("a submission's transaction may hold %d items, DynamoDB takes 100", forms.MaxSubmitItems)
	}
}
