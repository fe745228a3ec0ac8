package newsletter_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/testkit"
)

// TestProgressFieldsDuringSend: sending stores how many it goes to (the confirmed signups then),
// and each step's counts show on the newsletter, in GET one and the list, until it is sent.
func TestProgressFieldsDuringSend(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	const n = newsletter.BatchSize + 5
	var emails []string
	for i := range n {
		emails = append(emails, "p"+itoa(i)+"@"+tn.ID+".example.org")
	}
	addConfirmed(t, tn.ID, emails...)
	id := newNewsletter(t, tn, "Progress")
	draft := newsletterRecord(t, tn, id)
	for _, f := range []string{"sentCount", "failedCount", "suppressedCount", "bouncedCount", "unsubscribedCount", "complainedCount"} {
		if draft.Get("result."+f) != 0.0 {
			t.Fatalf("a draft's %s: %s", f, draft.Raw)
		}
	}
	if draft.Get("result.recipientCount") != nil {
		t.Fatalf("a draft has recipients: %s", draft.Raw)
	}
	started := send(t, tn, id)
	testkit.Expect(t, started, http.StatusAccepted, "")
	if started.Get("result.state") != newsletter.StateSending || started.Get("result.recipientCount") != float64(n) {
		t.Fatalf("started: %s", started.Raw)
	}
	if _, err := step(t, tn.ID, id); err != nil {
		t.Fatal(err)
	}
	mid := newsletterRecord(t, tn, id)
	if mid.Get("result.state") != newsletter.StateSending || mid.Get("result.sentCount") != float64(newsletter.BatchSize) || mid.Get("result.recipientCount") != float64(n) {
		t.Fatalf("after one step: %s", mid.Raw)
	}
	list := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletters", Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, list, http.StatusOK, "")
	if list.Get("result.0.sentCount") != float64(newsletter.BatchSize) || list.Get("result.0.recipientCount") != float64(n) || list.Get("result.0.bouncedCount") != 0.0 {
		t.Fatalf("the list: %s", list.Raw)
	}
	for more := true; more; {
		var err error
		if more, err = step(t, tn.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	done := newsletterRecord(t, tn, id)
	if done.Get("result.state") != newsletter.StateSent || done.Get("result.sentCount") != float64(n) || done.Get("result.recipientCount") != float64(n) {
		t.Fatalf("sent: %s", done.Raw)
	}
}

// sesEvent is SES's event of a permanent bounce (or a complaint) of the mail SES was asked to
// send in req, with the tags SES was given, but for the tenant's when tenant is set.
func sesEvent(t *testing.T, req testkit.SESRequest, eventType, tenant string) []byte {
	t.Helper()
	tags := map[string][]string{}
	for _, name := range []string{mail.TagTenant, mail.TagKind, mail.TagID, mail.TagCampaign} {
		if v := req.Tag(name); v != "" {
			tags[name] = []string{v}
		}
	}
	if tenant != "" {
		tags[mail.TagTenant] = []string{tenant}
	}
	to := req.Body.Destination.ToAddresses[0]
	d := map[string]any{"eventType": eventType, "mail": map[string]any{"messageId": "0100-ses-" + req.Tag(mail.TagID), "tags": tags}}
	if eventType == "Bounce" {
		d["bounce"] = map[string]any{"bounceType": "Permanent", "bounceSubType": "General", "bouncedRecipients": []map[string]any{{"emailAddress": to}}}
	} else {
		d["complaint"] = map[string]any{"complaintFeedbackType": "abuse", "complainedRecipients": []map[string]any{{"emailAddress": to}}}
	}
	raw, err := json.Marshal(map[string]any{"version": "0", "source": "aws.ses", "detail-type": "Email Bounced", "detail": d})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestBounceCountedOnceOnNewsletter: a newsletter's mail reaches SES tagged with the newsletter
// beside its tenant; SES's bounce event for it, delivered twice, suppresses the address and adds
// one to the newsletter's bouncedCount; a complaint adds one to complainedCount; another
// tenant's newsletter of the same id is never touched.
func TestBounceCountedOnceOnNewsletter(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	bounced, angry := "bounced@"+tn.ID+".example.org", "angry@"+tn.ID+".example.org"
	addConfirmed(t, tn.ID, bounced, angry)
	id := newNewsletter(t, tn, "Bouncing")
	testkit.Expect(t, send(t, tn, id), http.StatusAccepted, "")
	if errs := runJobs(t, tn.ID, 10); errs != 0 {
		t.Fatalf("%d failed runs", errs)
	}
	ses := testkit.SES(t)
	cfg := mail.Config{Domain: "mail.example.org", Transport: mail.TransportSES, ConfigurationSet: "campuscms-mail"}
	w := mail.NewWorker(testkit.Deps(t).Store, ses.Sender(t, "campuscms-mail"), cfg, testkit.Deps(t).Log).Only(tn.ID)
	if res, err := w.Deliver(context.Background(), time.Now().Add(2*time.Second)); err != nil || res.Sent != 2 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	byTo := map[string]testkit.SESRequest{}
	for _, r := range ses.Requests() {
		byTo[r.Body.Destination.ToAddresses[0]] = r
		if r.Tag(mail.TagCampaign) != id || r.Tag(mail.TagTenant) != tn.ID {
			t.Fatalf("tags of the mail to %v: campaign %q, tenant %q", r.Body.Destination.ToAddresses, r.Tag(mail.TagCampaign), r.Tag(mail.TagTenant))
		}
	}
	st := testkit.Deps(t).Store
	events := mail.Events{Store: st, Log: testkit.Deps(t).Log, Count: newsletter.CountMailEvent(st)}
	for range 2 { // SES (EventBridge) may deliver an event more than once
		if _, err := events.Handle(context.Background(), sesEvent(t, byTo[bounced], "Bounce", "")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := events.Handle(context.Background(), sesEvent(t, byTo[angry], "Complaint", "")); err != nil {
		t.Fatal(err)
	}
	got := newsletterRecord(t, tn, id)
	if got.Get("result.bouncedCount") != 1.0 || got.Get("result.complainedCount") != 1.0 || got.Get("result.sentCount") != 2.0 {
		t.Fatalf("counts: %s", got.Raw)
	}
	if sup, err := mail.Suppressed(context.Background(), st, scopeOf(t, tn.ID), bounced); err != nil || !sup {
		t.Fatalf("suppressed %v %v", sup, err)
	}
	// An event naming another tenant (a forged or mixed-up tag) counts nothing here.
	other := testkit.NewTenant(t)
	if res, err := events.Handle(context.Background(), sesEvent(t, byTo[bounced], "Bounce", other.ID)); err != nil || res.Counted != "" {
		t.Fatalf("another tenant's event: %+v %v", res, err)
	}
	if got := newsletterRecord(t, tn, id); got.Get("result.bouncedCount") != 1.0 {
		t.Fatalf("counted through another tenant: %s", got.Raw)
	}
}

// TestUnsubscribeCountedOnce: an unsubscribe through a newsletter's link adds one to that
// newsletter's unsubscribedCount, however often the link is used (one-click again, the page's
// button, after subscribing again); a newsletter deleted since does not stop the unsubscribe.
func TestUnsubscribeCountedOnce(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	d := "@" + tn.ID + ".example.org"
	addConfirmed(t, tn.ID, "leaver"+d, "stayer"+d, "late"+d)
	id := newNewsletter(t, tn, "Counting")
	testkit.Expect(t, send(t, tn, id), http.StatusAccepted, "")
	if errs := runJobs(t, tn.ID, 10); errs != 0 {
		t.Fatalf("%d failed runs", errs)
	}
	link := unsubscribeLinkOf(t, tn.ID, "leaver"+d)
	for range 2 {
		must(t, visit(t, "POST", tn.ID, link, oneClick), http.StatusOK, "You have been unsubscribed.")
	}
	must(t, visit(t, "POST", tn.ID, link, nil), http.StatusOK, "You have been unsubscribed.")
	if got := newsletterRecord(t, tn, id); got.Get("result.unsubscribedCount") != 1.0 {
		t.Fatalf("after three uses: %s", got.Raw)
	}
	// Subscribed again (staff confirm the address), then the old link once more: unsubscribed,
	// not counted again.
	signups := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletter-signups?search=leaver", Tenant: tn.ID, Token: tn.AdminToken})
	sid, ver := signups.Get("result.0.id").(string), signups.Get("result.0.version")
	testkit.Expect(t, testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/newsletter-signups/" + sid, Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"subscription": newsletter.Confirmed, "version": ver}}), http.StatusOK, "")
	must(t, visit(t, "POST", tn.ID, link, oneClick), http.StatusOK, "You have been unsubscribed.")
	if got := signupsBy(t, tn)["leaver"+d]; got != newsletter.Unsubscribed {
		t.Fatalf("leaver: %q", got)
	}
	if got := newsletterRecord(t, tn, id); got.Get("result.unsubscribedCount") != 1.0 {
		t.Fatalf("after subscribing again: %s", got.Raw)
	}

	// The newsletter deleted: its mail's link still unsubscribes (and makes no record).
	late := unsubscribeLinkOf(t, tn.ID, "late"+d)
	del := testkit.Call(t, testkit.Request{Method: "DELETE", Path: "/newsletters/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, del, http.StatusOK, "")
	must(t, visit(t, "POST", tn.ID, late, oneClick), http.StatusOK, "You have been unsubscribed.")
	if got := signupsBy(t, tn)["late"+d]; got != newsletter.Unsubscribed {
		t.Fatalf("late: %q", got)
	}
	gone := testkit.Call(t, testkit.Request{Method: "GET", Path: "/newsletters/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, gone, http.StatusNotFound, "")
	if got := signupsBy(t, tn)["stayer"+d]; got != newsletter.Confirmed {
		t.Fatalf("stayer: %q", got)
	}
}
