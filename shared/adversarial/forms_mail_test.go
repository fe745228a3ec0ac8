package adversarial_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

// A form's mail (issue 33), attacked: header injection through what staff and visitors type (the
// form's name, the auto-reply's subject, the notification addresses, a visitor's values and email
// address), too many notification addresses, and oversized auto-replies. Nothing reaches a header
// unchecked, nothing is refused with a 5xx, and a visitor's bad address never costs the
// submission.

const mailFormCover = "01ARZ3NDEKTSV4RRFFQ69G5FAV/cover.png"

const mailFormFields = `[{"id":"NEW_1","label":"Name","fieldType":"text","required":true},` +
	`{"id":"NEW_2","label":"Email","fieldType":"email"},{"id":"NEW_3","label":"Message","fieldType":"textarea"}]`

func newMailForm(t *testing.T, tn testkit.Tenant, extra map[string]any) (testkit.Response, map[string]any) {
	t.Helper()
	body := map[string]any{"name": "Contact", "image": mailFormCover, "fields": mailFormFields}
	for k, v := range extra {
		body[k] = v
	}
	return send(t, call{Method: "POST", Path: "/custom-forms", Tenant: tn.ID, Token: tn.AdminToken, Body: body}), body
}

func TestFormMailHeaderInjection(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	office := "office-" + tn.ID + "@example.org"
	evil := "evil-" + tn.ID + "@example.org"

	// Staff's side: refused with the field named, nothing stored.
	for name, extra := range map[string]map[string]any{
		"subject with CRLF":      {"autoReplySubject": "Thanks\r\nBcc: " + evil},
		"subject with LF":        {"autoReplySubject": "Thanks\nBcc: " + evil},
		"subject with NUL":       {"autoReplySubject": "Thanks\x00"},
		"subject with U+2028":    {"autoReplySubject": "Thanks\u2028Bcc: " + evil},
		"address with CRLF":      {"notifyEmails": []string{office + "\r\nBcc: " + evil}},
		"address with a name":    {"notifyEmails": []string{"Office <" + office + ">"}},
		"two addresses in one":   {"notifyEmails": []string{office + ", " + evil}},
		"address list in a text": {"notifyEmails": office + "\r\nBcc: " + evil},
	} {
		res, _ := newMailForm(t, tn, extra)
		refused(t, name, res, http.StatusBadRequest)
		if errs, _ := res.Body["errors"].(map[string]any); len(errs) == 0 {
			t.Errorf("%s: no field error: %s", name, res.Raw)
		}
	}

	// A form's name becomes the notification's subject: one line, whatever it holds.
	res, _ := newMailForm(t, tn, map[string]any{"name": "Contact\r\nBcc: " + evil, "notifyEmails": []string{office}, "autoReplyMessage": "Thanks"})
	if res.Status != http.StatusCreated {
		t.Fatalf("form: %d %s", res.Status, res.Raw)
	}
	formID := res.Get("result.id").(string)

	// A visitor's side: values and addresses with header tricks are stored; they reach the body
	// only, and a bad address means no Reply-To and no auto-reply.
	visitors := []map[string]any{
		{"Name": "A\r\nBcc: " + evil, "Email": "visitor-" + tn.ID + "@example.org\r\nBcc: " + evil, "Message": "Hi\r\n\r\n.\r\nRCPT TO:<" + evil + ">"},
		{"Name": "B", "Email": "visitor-" + tn.ID + "@example.org\nReply-To: " + evil},
		{"Name": "C", "Email": "\"Visitor\" <" + evil + ">"},
		{"Name": "D", "Email": evil + "," + evil},
	}
	for i, v := range visitors {
		panel := map[string]any{"formId": formID}
		for k, x := range v {
			panel[k] = x
		}
		if i%2 == 0 {
			res = send(t, call{Method: "POST", Path: "/custom-form-submissions", Tenant: tn.ID, Token: tn.AdminToken, Body: panel})
		} else {
			res = send(t, call{Method: "POST", Path: "/api/v1/public/forms/" + formID + "/submissions", Tenant: tn.ID, Body: v})
		}
		if res.Status != http.StatusCreated {
			t.Errorf("visitor %d: %d %s (a bad address must not cost the submission)", i, res.Status, res.Raw)
		}
	}
	waiting := testkit.Outbox(t, tn.ID)
	if len(waiting) != len(visitors) {
		t.Fatalf("%d mails waiting, want one notification per submission and no auto-reply", len(waiting))
	}
	for _, e := range waiting {
		if e.To != office || e.ReplyTo != "" || strings.ContainsAny(e.Subject, "\r\n") || e.Subject != "New submission: Contact Bcc: "+evil {
			t.Errorf("mail to %q reply-to %q subject %q", e.To, e.ReplyTo, e.Subject)
		}
	}
	testkit.DeliverMail(t, tn.ID)
	mb := testkit.Mailbox(t)
	for _, m := range mb.WaitFor(t, office, len(visitors)) {
		if m.Header("bcc") != "" || m.Header("reply-to") != "" || len(m.To) != 1 || m.HeaderCount("subject") != 1 {
			t.Errorf("a typed value reached a header: %v", m.Headers)
		}
	}
	if got := mb.Messages(t, evil); len(got) != 0 {
		t.Errorf("%d mails reached the injected address", len(got))
	}
}

func TestFormMailTooManyNotifyAddresses(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	list := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("staff%d-%s@example.org", i, tn.ID)
		}
		return out
	}
	res, _ := newMailForm(t, tn, map[string]any{"notifyEmails": list(collections.MaxEmails + 1)})
	refused(t, "eleven addresses", res, http.StatusBadRequest)
	res, _ = newMailForm(t, tn, map[string]any{"notifyEmails": list(5000)})
	refused(t, "five thousand addresses", res, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
	res, _ = newMailForm(t, tn, map[string]any{"notifyEmails": strings.Join(list(200), ";")})
	refused(t, "two hundred addresses in a text", res, http.StatusBadRequest)
	res, _ = newMailForm(t, tn, map[string]any{"notifyEmails": list(collections.MaxEmails)})
	if res.Status != http.StatusCreated {
		t.Fatalf("ten addresses: %d %s", res.Status, res.Raw)
	}
	id, version := res.Get("result.id").(string), res.Get("result.version")
	refused(t, "eleven addresses by patch", send(t, call{Method: "PATCH", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"version": version, "notifyEmails": list(collections.MaxEmails + 1)}}), http.StatusBadRequest)
	// Repeats (in any case) count once.
	twice := append(list(collections.MaxEmails), strings.ToUpper(list(1)[0]))
	res = send(t, call{Method: "PATCH", Path: "/custom-forms/" + id, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"version": version, "notifyEmails": twice}})
	if res.Status != http.StatusOK || len(res.Get("result.notifyEmails").([]any)) != collections.MaxEmails {
		t.Errorf("ten addresses and a repeat: %d %s", res.Status, res.Raw)
	}
}

func TestFormMailOversizedAutoReply(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for name, c := range map[string]struct {
		extra map[string]any
		want  []int
	}{
		"message past 5000":  {map[string]any{"autoReplyMessage": strings.Repeat("m", 5001)}, []int{http.StatusBadRequest}},
		"message of 2 MB":    {map[string]any{"autoReplyMessage": strings.Repeat("m", 2<<20)}, []int{http.StatusRequestEntityTooLarge}},
		"subject past 200":   {map[string]any{"autoReplySubject": strings.Repeat("s", 201)}, []int{http.StatusBadRequest}},
		"message not text":   {map[string]any{"autoReplyMessage": map[string]any{"a": 1}}, []int{http.StatusBadRequest}},
		"addresses not text": {map[string]any{"notifyEmails": 42}, []int{http.StatusBadRequest}},
	} {
		res, _ := newMailForm(t, tn, c.extra)
		refused(t, name, res, c.want...)
	}
	// The largest accepted auto-reply goes out whole.
	res, _ := newMailForm(t, tn, map[string]any{"autoReplyMessage": strings.Repeat("<e> ", 1250)})
	if res.Status != http.StatusCreated {
		t.Fatalf("5000 characters: %d %s", res.Status, res.Raw)
	}
	visitor := "visitor-" + tn.ID + "@example.org"
	res = send(t, call{Method: "POST", Path: "/custom-form-submissions", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"formId": res.Get("result.id"), "Name": "A", "Email": visitor}})
	if res.Status != http.StatusCreated {
		t.Fatalf("submission: %d %s", res.Status, res.Raw)
	}
	waiting := testkit.Outbox(t, tn.ID)
	if len(waiting) != 1 || waiting[0].To != visitor || !strings.Contains(waiting[0].HTML, "&lt;e&gt;") {
		t.Fatalf("auto-reply: %d mails", len(waiting))
	}
}
