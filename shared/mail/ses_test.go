package mail_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/testkit"
)

// sesConfig is the configuration of a deployment sending with SES.
func sesConfig() mail.Config {
	return mail.Config{Domain: "mail.example.org", Transport: mail.TransportSES, ConfigurationSet: "campuscms-mail"}
}

// TestSESRequestShape: a mail written to the outbox and sent by the worker reaches SES as one
// SendEmail through the configuration set, from the institution's name at the deployment's
// no-reply address, replying to the footer's contact, with the text and HTML parts, the
// one-click unsubscribe headers of a bulk mail as Simple content's headers, and tags naming the
// tenant (its bounces and complaints come back with it), the kind and the outbox id. The outbox
// is empty afterwards.
func TestSESRequestShape(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	ses := testkit.SES(t)
	msg := reset("reader+" + tn.ID + "@example.org")
	msg.Kind, msg.Bulk = mail.KindNewsletter, true
	msg.Subject = "Autumn news: Café opening"
	msg.Headers = mail.UnsubscribeHeaders("https://www.st-marys.example.org/newsletter/unsubscribe?token=tok")
	key := enqueue(t, scope, msg)

	w := mail.NewWorker(testkit.Deps(t).Store, ses.Sender(t, "campuscms-mail"), sesConfig(), testkit.Deps(t).Log).Only(tn.ID)
	res, err := w.Deliver(context.Background(), time.Now().Add(time.Second))
	if err != nil || res.Sent != 1 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	reqs := ses.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	b := r.Body
	if r.Method != "POST" || r.Path != "/v2/email/outbound-emails" {
		t.Errorf("%s %s", r.Method, r.Path)
	}
	if auth := r.Header.Get("Authorization"); auth == "" {
		t.Error("request not signed")
	}
	checks := []struct{ what, got, want string }{
		{"configuration set", b.ConfigurationSetName, "campuscms-mail"},
		{"from", b.FromEmailAddress, `"St. Mary's College" <no-reply@mail.example.org>`},
		{"to", fmt.Sprint(b.Destination.ToAddresses), "[" + msg.To + "]"},
		{"cc+bcc", fmt.Sprint(b.Destination.CcAddresses, b.Destination.BccAddresses), "[] []"},
		{"reply-to", fmt.Sprint(b.ReplyToAddresses), "[office@st-marys.example.org]"},
		{"List-Unsubscribe", r.MessageHeader("List-Unsubscribe"), "<https://www.st-marys.example.org/newsletter/unsubscribe?token=tok>"},
		{"List-Unsubscribe-Post", r.MessageHeader("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click"},
		{"Auto-Submitted", r.MessageHeader("Auto-Submitted"), "auto-generated"},
		{"tenant tag", r.Tag("tenant"), tn.ID},
		{"kind tag", r.Tag("kind"), "newsletter"},
		{"outbox tag", r.Tag("outbox"), key.SK},
	}
	if b.Content.Simple == nil {
		t.Fatalf("no Simple content: %s", r.Raw)
	}
	s := b.Content.Simple
	checks = append(checks,
		struct{ what, got, want string }{"subject", s.Subject.Data, "Autumn news: Café opening"},
		struct{ what, got, want string }{"subject charset", s.Subject.Charset, "UTF-8"},
		struct{ what, got, want string }{"text", s.Body.Text.Data, msg.Text},
		struct{ what, got, want string }{"html", s.Body.Html.Data, msg.HTML},
	)
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.what, c.got, c.want)
		}
	}
	if left := testkit.Outbox(t, tn.ID); len(left) != 0 {
		t.Errorf("outbox after sending: %+v", left)
	}
}

// TestSESRefusalsAndThrottling: SES refusing the message itself (MessageRejected) gives the
// mail up at once, listed as failed with SES's reason; throttling (429) is tried again later.
func TestSESRefusalsAndThrottling(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	ses := testkit.SES(t)
	w := mail.NewWorker(testkit.Deps(t).Store, ses.Sender(t, "campuscms-mail"), sesConfig(), slog.New(slog.DiscardHandler)).Only(tn.ID)
	ctx := context.Background()

	ses.Fail(http.StatusTooManyRequests, "TooManyRequestsException")
	throttled := enqueue(t, scope, reset("slow+"+tn.ID+"@example.org"))
	res, err := w.DeliverKeys(ctx, time.Now().Add(time.Second), throttled)
	if err != nil || res.Deferred != 1 {
		t.Fatalf("throttled: %+v %v", res, err)
	}
	ses.Fail(http.StatusBadRequest, "MessageRejected")
	rejected := enqueue(t, scope, reset("rejected+"+tn.ID+"@example.org"))
	res, err = w.DeliverKeys(ctx, time.Now().Add(time.Second), rejected)
	if err != nil || res.Failed != 1 {
		t.Fatalf("rejected: %+v %v", res, err)
	}
	failed, err := mail.Failed(ctx, testkit.Deps(t).Store, scope, 10)
	if err != nil || len(failed) != 1 || failed[0].ID != rejected.SK || failed[0].Attempts != 1 {
		t.Fatalf("failed %+v %v", failed, err)
	}
	if !strings.Contains(failed[0].LastError, "MessageRejected") {
		t.Errorf("last error %q", failed[0].LastError)
	}
	pending := testkit.Outbox(t, tn.ID)
	if len(pending) != 1 || pending[0].ID != throttled.SK || pending[0].Attempts != 1 || !strings.Contains(pending[0].LastError, "TooManyRequests") {
		t.Fatalf("pending %+v", pending)
	}
	// Once SES takes mail again, the throttled one goes at its retry time, not before.
	ses.Fail(0, "")
	if res, _ := w.DeliverKeys(ctx, time.Now().Add(time.Second), throttled); res.Sent != 0 {
		t.Fatalf("sent before its backoff: %+v", res)
	}
	if res, err := w.DeliverKeys(ctx, time.Now().Add(mail.Backoff(1)+time.Second), throttled); err != nil || res.Sent != 1 {
		t.Fatalf("after the backoff: %+v %v", res, err)
	}
}

// sesEvent is an SES event as EventBridge delivers it from the configuration set.
func sesEvent(t *testing.T, eventType, tenant string, detail map[string]any) []byte {
	t.Helper()
	tags := map[string][]string{"ses:configuration-set": {"campuscms-mail"}}
	if tenant != "" {
		tags["tenant"] = []string{tenant}
	}
	d := map[string]any{"eventType": eventType, "mail": map[string]any{"messageId": "0100abc", "tags": tags}}
	for k, v := range detail {
		d[k] = v
	}
	raw, err := json.Marshal(map[string]any{"version": "0", "source": "aws.ses", "detail-type": "Email Bounced", "detail": d})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
