package newsletter_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/testkit"
)

// TestSignupIsPendingWithConfirmationMail: a website signup is stored pending with its
// confirmation mail in the outbox (a link to the website's confirmation page); the dashboard
// counts confirmed signups only; a second signup within the hour sends nothing more and answers
// the same.
func TestSignupIsPendingWithConfirmationMail(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	addr := "reader@" + tn.ID + ".example.org"
	subscribe(t, tn.ID, addr)
	if got := signupsBy(t, tn)[addr]; got != newsletter.Pending {
		t.Fatalf("subscription %q, want pending", got)
	}
	mails := mailsTo(t, tn.ID, addr, mail.KindNewsletterConfirm)
	if len(mails) != 1 {
		t.Fatalf("%d confirmation mails, want 1", len(mails))
	}
	link := linkIn(t, mails[0].Text)
	if !strings.HasPrefix(link, "http://"+tn.ID+".localhost:8080/newsletter/confirm?token=") {
		t.Fatalf("confirmation link %q is not on the website", link)
	}
	if n := dashboardCount(t, tn); n != 0 {
		t.Fatalf("dashboard counts %v signups, want 0 (none confirmed)", n)
	}
	subscribe(t, tn.ID, strings.ToUpper(addr))
	if n := len(mailsTo(t, tn.ID, addr, mail.KindNewsletterConfirm)); n != 1 {
		t.Fatalf("a repeat signup within the hour queued another confirmation (%d)", n)
	}
}

// TestConfirmOnlyByPost: opening the link (GET, as a mail scanner does) shows the button and
// confirms nothing; the button's POST confirms; the token then is used up.
func TestConfirmOnlyByPost(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	addr := "confirm@" + tn.ID + ".example.org"
	subscribe(t, tn.ID, addr)
	link := linkIn(t, mailsTo(t, tn.ID, addr, mail.KindNewsletterConfirm)[0].Text)
	must(t, visit(t, "GET", tn.ID, link, nil), http.StatusOK, "Confirm your subscription", `<button type="submit">Confirm</button>`, "mail programs open links")
	must(t, visit(t, "GET", tn.ID, link, nil), http.StatusOK)
	if got := signupsBy(t, tn)[addr]; got != newsletter.Pending {
		t.Fatalf("after GETs: %q, want pending", got)
	}
	form := url.Values{"token": {tokenOf(t, link)}}
	must(t, visit(t, "POST", tn.ID, newsletter.ConfirmPath, form), http.StatusOK, "Your subscription is confirmed. Thank you!")
	if got := signupsBy(t, tn)[addr]; got != newsletter.Confirmed {
		t.Fatalf("after POST: %q, want confirmed", got)
	}
	if n := dashboardCount(t, tn); n != 1 {
		t.Fatalf("dashboard counts %v, want 1 confirmed", n)
	}
	// Used up: the page and a second POST refuse it.
	must(t, visit(t, "GET", tn.ID, link, nil), http.StatusBadRequest, "This link is invalid or has expired.")
	must(t, visit(t, "POST", tn.ID, newsletter.ConfirmPath, form), http.StatusBadRequest, "This link is invalid or has expired.")
	// A confirmed address signing up again changes nothing and hears the same.
	subscribe(t, tn.ID, addr)
	if got := signupsBy(t, tn)[addr]; got != newsletter.Confirmed {
		t.Fatalf("after a repeat signup: %q", got)
	}
}

// TestTokenOfAnotherTenantOrExpiredIsRefused.
func TestTokenOfAnotherTenantOrExpiredIsRefused(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	addr := "expiry@" + tn.ID + ".example.org"
	subscribe(t, tn.ID, addr)
	token := tokenOf(t, linkIn(t, mailsTo(t, tn.ID, addr, mail.KindNewsletterConfirm)[0].Text))
	form := url.Values{"token": {token}}
	must(t, visit(t, "POST", other.ID, newsletter.ConfirmPath, form), http.StatusBadRequest, "This link is invalid or has expired.")
	must(t, visit(t, "GET", other.ID, newsletter.ConfirmPath+"?token="+token, nil), http.StatusBadRequest)
	// Expired: its expiry moved to the past (DynamoDB's TTL would remove it some time later).
	st := testkit.Deps(t).Store
	k := newsletter.TokenKey(scopeOf(t, tn.ID), token)
	if err := st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("expiresAt", time.Now().Add(-time.Minute).Unix()).If("attribute_exists(PK)").Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	must(t, visit(t, "POST", tn.ID, newsletter.ConfirmPath, form), http.StatusBadRequest, "This link is invalid or has expired.")
	if got := signupsBy(t, tn)[addr]; got != newsletter.Pending {
		t.Fatalf("%q, want pending", got)
	}
}

// TestSendGoesToConfirmedUnsuppressedOnly: a newsletter goes to the confirmed signups, not the
// pending, unsubscribed or suppressed ones; each mail carries one-click List-Unsubscribe, whose
// POST unsubscribes at once; the newsletter ends sent with its counts.
func TestSendGoesToConfirmedUnsuppressedOnly(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	d := "@" + tn.ID + ".example.org"
	addConfirmed(t, tn.ID, "yes"+d, "bounced"+d, "gone"+d)
	subscribe(t, tn.ID, "pending"+d)
	if err := mail.Suppress(context.Background(), testkit.Deps(t).Store, scopeOf(t, tn.ID), "bounced"+d, mail.ReasonBounce, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	// "gone" unsubscribes through a token of its own (as a former newsletter's link would).
	id0 := newNewsletter(t, tn, "First")
	testkit.Expect(t, send(t, tn, id0), http.StatusAccepted, "")
	if errs := runJobs(t, tn.ID, 10); errs != 0 {
		t.Fatalf("%d failed runs", errs)
	}
	gone := mailsTo(t, tn.ID, "gone"+d, mail.KindNewsletter)
	if len(gone) != 1 {
		t.Fatalf("%d first newsletters to gone", len(gone))
	}
	unsub := gone[0].Headers[mail.HeaderListUnsubscribe]
	oneClick := strings.Trim(unsub, "<>")
	if gone[0].Headers[mail.HeaderListUnsubscribePost] != mail.OneClick || !strings.HasPrefix(oneClick, "https://"+tn.ID+".example.org/newsletter/unsubscribe?token=") {
		t.Fatalf("headers %v", gone[0].Headers)
	}
	// The GET page unsubscribes nobody; the one-click POST does, at once.
	must(t, visit(t, "GET", tn.ID, oneClick, nil), http.StatusOK, `<button type="submit">Unsubscribe</button>`)
	if got := signupsBy(t, tn)["gone"+d]; got != newsletter.Confirmed {
		t.Fatalf("GET unsubscribed: %q", got)
	}
	must(t, visit(t, "POST", tn.ID, oneClick, url.Values{"List-Unsubscribe": {"One-Click"}}), http.StatusOK, "You have been unsubscribed.")
	if got := signupsBy(t, tn)["gone"+d]; got != newsletter.Unsubscribed {
		t.Fatalf("after one-click: %q", got)
	}
	first := newsletterRecord(t, tn, id0)
	if first.Get("result.state") != newsletter.StateSent || first.Get("result.sentCount") != 2.0 || first.Get("result.suppressedCount") != 1.0 {
		t.Fatalf("first newsletter: %s", first.Raw)
	}

	id := newNewsletter(t, tn, "Second")
	testkit.Expect(t, send(t, tn, id), http.StatusAccepted, "")
	testkit.Expect(t, send(t, tn, id), http.StatusConflict, "This newsletter has already been sent.")
	if errs := runJobs(t, tn.ID, 10); errs != 0 {
		t.Fatalf("%d failed runs", errs)
	}
	for who, want := range map[string]int{"yes": 2, "bounced": 0, "gone": 1, "pending": 0} {
		if n := len(mailsTo(t, tn.ID, who+d, mail.KindNewsletter)); n != want {
			t.Errorf("%s got %d newsletters, want %d", who, n, want)
		}
	}
	got := newsletterRecord(t, tn, id)
	if got.Get("result.state") != newsletter.StateSent || got.Get("result.sentCount") != 1.0 {
		t.Fatalf("second newsletter: %s", got.Raw)
	}
	m := mailsTo(t, tn.ID, "yes"+d, mail.KindNewsletter)[1]
	if strings.Contains(m.HTML, "<script") || !strings.Contains(m.HTML, "<strong>readers</strong>") || !strings.Contains(m.Text, "Hello readers!") {
		t.Fatalf("mail body: %q / %q", m.HTML, m.Text)
	}
	// Sent: no more edits.
	edit := testkit.Call(t, testkit.Request{Method: "PATCH", Path: "/newsletters/" + id, Tenant: tn.ID, Token: tn.AdminToken, Body: map[string]any{"subject": "Changed"}})
	testkit.Expect(t, edit, http.StatusConflict, "This newsletter has been sent and can no longer be changed.")
	// The mail reaches the mailbox with its headers.
	testkit.DeliverMail(t, tn.ID)
	got2 := testkit.Mailbox(t).WaitFor(t, "yes"+d, 2)
	if got2[0].Header("list-unsubscribe") == "" || got2[0].Header("list-unsubscribe-post") != mail.OneClick {
		t.Fatalf("mailbox headers: %v", got2[0].Headers)
	}
}

// TestInterruptedSendSendsNobodyTwice: a step that fails (a fault in its transaction) writes
// nothing and is taken up again; a step whose answer was lost (it committed) is not repeated;
// the send ends with each recipient mailed exactly once.
func TestInterruptedSendSendsNobodyTwice(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	const n = newsletter.BatchSize + 7
	var emails []string
	for i := range n {
		emails = append(emails, strings.Repeat("r", 1+i%3)+string(rune('a'+i%26))+"-"+time.Now().Format("150405")+"-"+itoa(i)+"@"+tn.ID+".example.org")
	}
	addConfirmed(t, tn.ID, emails...)
	id := newNewsletter(t, tn, "Resumed")
	testkit.Expect(t, send(t, tn, id), http.StatusAccepted, "")
	faults := testkit.Faults(t)
	remove := faults.Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Status: 500, Code: "InternalServerError"}) // every try of the step's transaction
	if _, err := step(t, tn.ID, id); err == nil {
		t.Fatal("the faulty step did not fail")
	}
	remove()
	if got := len(testkit.Outbox(t, tn.ID)); got != 0 {
		t.Fatalf("a failed step left %d mails", got)
	}
	// The next step commits but its first answer is lost (the SDK's retry, with the same
	// idempotency token, gets the outcome): the step after it goes on from its cursor.
	remove = faults.Inject(awsclient.Fault{Service: "dynamodb", Op: "TransactWriteItems", Match: tn.ID, Times: 1, LoseResponse: true})
	_, _ = step(t, tn.ID, id)
	remove()
	for i := 0; ; i++ {
		more, err := step(t, tn.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		if i > 10 {
			t.Fatal("the send never ends")
		}
	}
	seen := map[string]int{}
	for _, e := range testkit.Outbox(t, tn.ID) {
		if e.Kind == mail.KindNewsletter {
			seen[strings.ToLower(e.To)]++
		}
	}
	for _, e := range emails {
		if seen[strings.ToLower(e)] != 1 {
			t.Errorf("%s got %d mails", e, seen[strings.ToLower(e)])
		}
	}
	got := newsletterRecord(t, tn, id)
	if got.Get("result.state") != newsletter.StateSent || got.Get("result.sentCount") != float64(n) {
		t.Fatalf("newsletter: %s", got.Raw)
	}
}

// TestAllowanceRefusedWithMessage: a send past the plan's monthly allowance is refused before
// anything is written, saying why.
func TestAllowanceRefusedWithMessage(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id := newNewsletter(t, tn, "Too many")
	testkit.SetPlan(t, tn.ID, "starter")
	addConfirmed(t, tn.ID, "a@"+tn.ID+".example.org", "b@"+tn.ID+".example.org")
	st := testkit.Deps(t).Store
	month := time.Now().UTC().Format("2006-01")
	tx := st.WriteTx()
	tx.Update(st.AddToCounter(scopeOf(t, tn.ID), "emails#"+month, 999))
	if err := tx.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := send(t, tn, id)
	testkit.Expect(t, res, http.StatusForbidden,
		"Your plan (Starter) allows 1000 emails a month and 1 are left this month, but this newsletter would go to 2 subscribers. Upgrade your plan or wait until next month to send it.")
	if got := newsletterRecord(t, tn, id); got.Get("result.state") != newsletter.StateDraft {
		t.Fatalf("refused send changed the newsletter: %s", got.Raw)
	}
	// Nobody confirmed: nothing to send.
	empty := testkit.NewTenant(t)
	testkit.Expect(t, send(t, empty, newNewsletter(t, empty, "Nobody")), http.StatusBadRequest, "")
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// TestOneRunSendsALargeList: a run of the schedule job takes step after step for its budget, so
// a list of several batches is written to the outbox in one run, not one batch a minute.
func TestOneRunSendsALargeList(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	const n = 3*newsletter.BatchSize + 1
	var emails []string
	for i := range n {
		emails = append(emails, "big"+itoa(i)+"@"+tn.ID+".example.org")
	}
	addConfirmed(t, tn.ID, emails...)
	id := newNewsletter(t, tn, "Everyone")
	testkit.Expect(t, send(t, tn, id), http.StatusAccepted, "")
	svc := service(t)
	var d collections.DueItem
	if err := svc.Store().Get(context.Background(), collections.JobDueKey(scopeOf(t, tn.ID), newsletter.NewslettersKind, id), &d); err != nil {
		t.Fatal(err)
	}
	more, err := svc.RunJob(context.Background(), d, time.Now())
	if err != nil || more {
		t.Fatalf("one run: more %v, err %v", more, err)
	}
	if got := newsletterRecord(t, tn, id); got.Get("result.state") != newsletter.StateSent || got.Get("result.sentCount") != float64(n) {
		t.Fatalf("after one run: %s", got.Raw)
	}
}
