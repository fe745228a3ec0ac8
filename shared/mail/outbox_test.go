package mail_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/awsmail"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// TestMailInTheTransactionReachesTheMailbox: a mail enqueued in the transaction of what causes
// it (here a record of the tenant's, written with it) is sent by the worker over SMTP to the
// local mailbox, with its text and HTML parts, the institution's name as the sender's, the
// reply-to, the unsubscribe headers of a bulk mail, and leaves the outbox.
func TestMailInTheTransactionReachesTheMailbox(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	st := testkit.Deps(t).Store
	mb := testkit.Mailbox(t)
	to := "visitor+" + tn.ID + "@example.org"

	msg := reset(to)
	msg.FromName = "Université Sainte-Marie"
	msg.Subject = "Merci — we got your message"
	msg.Kind, msg.Bulk, msg.Headers = mail.KindNewsletter, true, mail.UnsubscribeHeaders("https://www.example.org/newsletter/unsubscribe?token=tok")
	out, err := mail.Enqueue(st, scope, msg)
	if err != nil {
		t.Fatal(err)
	}
	cause := map[string]any{"PK": scope.Partition("PROBE"), "SK": "submission", "n": 1}
	tx := st.WriteTx()
	store.AddToTx(tx, st.Table.Put(cause), out.Put)
	if err := tx.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if pending := testkit.Outbox(t, tn.ID); len(pending) != 1 || pending[0].ID != out.Key.SK || pending[0].Subject != msg.Subject {
		t.Fatalf("outbox %+v", pending)
	}

	w := mail.NewWorker(st, mb.Sender(), mb.Config(), testkit.Deps(t).Log).Only(tn.ID)
	res, err := w.Deliver(context.Background(), time.Now().Add(time.Second))
	if err != nil || res.Sent != 1 {
		t.Fatalf("deliver %+v %v", res, err)
	}
	got := mb.WaitFor(t, to, 1)[0]
	if got.Subject != msg.Subject {
		t.Errorf("subject %q", got.Subject)
	}
	if len(got.From) != 1 || got.From[0].Name != "Université Sainte-Marie" || got.From[0].Address != "no-reply@campuscms.localhost" {
		t.Errorf("from %+v", got.From)
	}
	if !strings.Contains(got.Text, "Someone asked to reset your password.") || !strings.Contains(got.Text, "https://panel.example.org/reset-password?token=abc") {
		t.Errorf("text part %q", got.Text)
	}
	if !strings.Contains(got.HTML, `<a href="https://panel.example.org/reset-password?token=abc"`) || !strings.Contains(got.HTML, "<p") {
		t.Errorf("HTML part %q", got.HTML)
	}
	for name, want := range map[string]string{
		"reply-to":              "office@st-marys.example.org",
		"list-unsubscribe":      "<https://www.example.org/newsletter/unsubscribe?token=tok>",
		"list-unsubscribe-post": "List-Unsubscribe=One-Click",
		"auto-submitted":        "auto-generated",
	} {
		if v := got.Header(name); v != want {
			t.Errorf("header %s: %q, want %q", name, v, want)
		}
	}
	if !strings.HasPrefix(got.Header("content-type"), "multipart/alternative") {
		t.Errorf("content-type %q", got.Header("content-type"))
	}
	if left := testkit.Outbox(t, tn.ID); len(left) != 0 {
		t.Errorf("outbox after sending %+v", left)
	}
	// A second run sends nothing again.
	if res, err := w.Deliver(context.Background(), time.Now().Add(time.Second)); err != nil || res.Sent != 0 {
		t.Fatalf("second run %+v %v", res, err)
	}
	if n := len(mb.Messages(t, to)); n != 1 {
		t.Fatalf("%d mails after a second run", n)
	}
}

// TestRefusedTransactionLeavesNoMail: when the transaction that carries a mail is refused (its
// cause's condition fails), no mail is left in the outbox to be sent for something that did not
// happen.
func TestRefusedTransactionLeavesNoMail(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	st := testkit.Deps(t).Store
	out, err := mail.Enqueue(st, scope, reset("nobody+"+tn.ID+"@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	tx := st.WriteTx()
	store.AddToTx(tx, out.Put, st.Table.Put(map[string]any{"PK": scope.Partition("PROBE"), "SK": "x"}).If("attribute_exists(PK)"))
	if err := tx.Run(context.Background()); !store.CondFailedAt(err, 1) {
		t.Fatalf("transaction %v, want its second item's condition to fail", err)
	}
	if pending := testkit.Outbox(t, tn.ID); len(pending) != 0 {
		t.Fatalf("a refused transaction left mail: %+v", pending)
	}
	var it map[string]any
	if err := st.Get(context.Background(), out.Key, &it); !store.IsNotFound(err) {
		t.Fatalf("outbox item: %v %v", it, err)
	}
}

// TestFailingSenderBacksOffThenGivesUp: a mail whose send keeps failing is tried again after 1,
// 2, 4 ... minutes (never before its time), then after MaxAttempts it leaves the outbox for the
// tenant's failed list (logged at error level), where it stays until Retry puts it back; the
// cause of it (here nothing else) is untouched throughout.
func TestFailingSenderBacksOffThenGivesUp(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	st := testkit.Deps(t).Store
	ctx := context.Background()
	var logs bytes.Buffer
	var logMu sync.Mutex
	log := slog.New(slog.NewJSONHandler(lockedWriter{&logs, &logMu}, nil))
	var down atomic.Bool
	down.Store(true)
	rec := &recorder{}
	sender := senderFunc(func(ctx context.Context, e mail.Envelope) (string, error) {
		if down.Load() {
			return "", errors.New("connection refused")
		}
		return rec.Send(ctx, e)
	})
	key := enqueue(t, scope, reset("patient+"+tn.ID+"@example.org"))
	w := mail.NewWorker(st, sender, localConfig(), log).Only(tn.ID)

	clock := time.Now().Add(time.Second)
	for n := 1; n <= mail.MaxAttempts; n++ {
		res, err := w.Deliver(ctx, clock)
		if err != nil || res.Due != 1 {
			t.Fatalf("attempt %d: %+v %v", n, res, err)
		}
		if n < mail.MaxAttempts {
			if res.Deferred != 1 {
				t.Fatalf("attempt %d: %+v", n, res)
			}
			pending := testkit.Outbox(t, tn.ID)
			if len(pending) != 1 || pending[0].Attempts != n || pending[0].LastError == "" {
				t.Fatalf("attempt %d: outbox %+v", n, pending)
			}
			// Not due again before its backoff.
			if res, _ := w.Deliver(ctx, clock.Add(mail.Backoff(n)-time.Second)); res.Due != 0 {
				t.Fatalf("attempt %d: due again before its backoff %v: %+v", n, mail.Backoff(n), res)
			}
			clock = clock.Add(mail.Backoff(n))
			continue
		}
		if res.Failed != 1 {
			t.Fatalf("last attempt: %+v", res)
		}
	}
	if pending := testkit.Outbox(t, tn.ID); len(pending) != 0 {
		t.Fatalf("outbox after giving up %+v", pending)
	}
	if res, err := w.Deliver(ctx, clock.Add(24*time.Hour)); err != nil || res.Due != 0 {
		t.Fatalf("a given-up mail is due again: %+v %v", res, err)
	}
	failed, err := mail.Failed(ctx, st, scope, 10)
	if err != nil || len(failed) != 1 {
		t.Fatalf("failed %+v %v", failed, err)
	}
	f := failed[0]
	if f.ID != key.SK || f.Attempts != mail.MaxAttempts || f.LastError != "connection refused" || f.FailedAt == "" || f.To != "patient+"+tn.ID+"@example.org" || f.Kind != mail.KindPasswordReset {
		t.Fatalf("failure %+v", f)
	}
	logMu.Lock()
	gaveUp := strings.Contains(logs.String(), `"level":"ERROR","msg":"mail: given up"`)
	logMu.Unlock()
	if !gaveUp {
		t.Fatalf("no error-level log line:\n%s", logs.String())
	}
	// Another tenant sees nothing of it.
	if theirs, _ := mail.Failed(ctx, st, scopeOf(t, testkit.NewTenant(t).ID), 10); len(theirs) != 0 {
		t.Fatalf("another tenant's failed list %+v", theirs)
	}

	// Retry puts it back, due now; once the provider is back it is sent.
	down.Store(false)
	if err := mail.Retry(ctx, st, scope, key.SK, clock); err != nil {
		t.Fatal(err)
	}
	if err := mail.Retry(ctx, st, scope, key.SK, clock); !store.IsNotFound(err) {
		t.Fatalf("second retry: %v", err)
	}
	if res, err := w.Deliver(ctx, clock.Add(time.Second)); err != nil || res.Sent != 1 || rec.count() != 1 {
		t.Fatalf("after retry %+v %v", res, err)
	}
	if failed, _ := mail.Failed(ctx, st, scope, 10); len(failed) != 0 {
		t.Fatalf("failed after retry %+v", failed)
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestConcurrentWorkersSendOnce: workers running at once (the sweep and a nudge, two Lambda
// invocations) each claim a mail before sending it, so every mail is sent exactly once.
func TestConcurrentWorkersSendOnce(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	st := testkit.Deps(t).Store
	var keys []store.Key
	for i := range 6 {
		keys = append(keys, enqueue(t, scope, reset("many"+string(rune('a'+i))+"+"+tn.ID+"@example.org")))
	}
	rec := &recorder{}
	slow := senderFunc(func(ctx context.Context, e mail.Envelope) (string, error) {
		time.Sleep(20 * time.Millisecond)
		return rec.Send(ctx, e)
	})
	var wg sync.WaitGroup
	var total atomic.Int64
	now := time.Now().Add(time.Second)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := mail.NewWorker(st, slow, localConfig(), slog.New(slog.DiscardHandler)).Only(tn.ID)
			var res mail.Result
			var err error
			if i%2 == 0 {
				res, err = w.Deliver(context.Background(), now)
			} else {
				res, err = w.DeliverKeys(context.Background(), now, keys...)
			}
			if err != nil {
				t.Error(err)
			}
			total.Add(int64(res.Sent))
		}()
	}
	wg.Wait()
	if rec.count() != len(keys) || total.Load() != int64(len(keys)) {
		t.Fatalf("%d sends (%d counted) for %d mails", rec.count(), total.Load(), len(keys))
	}
	seen := map[string]bool{}
	for _, e := range rec.sent {
		if seen[e.ID] {
			t.Fatalf("mail %s sent twice", e.ID)
		}
		seen[e.ID] = true
	}
}

// TestNudgedWorkerSendsAtOnce: the dev server's worker (Run) sends a mail as soon as it is
// nudged after the commit, without waiting for its next tick; keys that are no outbox item (of
// another tenant's partition, malformed) are ignored.
func TestNudgedWorkerSendsAtOnce(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	rec := &recorder{}
	w := mail.NewWorker(testkit.Deps(t).Store, rec, localConfig(), slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx, time.Hour)
	key := enqueue(t, scope, reset("now+"+tn.ID+"@example.org"))
	w.Nudge(ctx, store.Key{PK: scope.Partition("users"), SK: key.SK}, store.Key{PK: "nonsense", SK: "x"}, key)
	deadline := time.Now().Add(10 * time.Second)
	for rec.count() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the nudged mail was not sent")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if rec.sent[0].ID != key.SK || rec.sent[0].Tenant != tn.ID || rec.sent[0].From != `"St. Mary's College" <no-reply@campuscms.localhost>` {
		t.Fatalf("sent %+v", rec.sent[0])
	}
}

// TestLambdaEvents: the mail function's handler delivers the outbox keys of a batch of queue
// messages (reporting none failed), drops a message that is no key, and sweeps the due index on
// any other event (the one-minute schedule).
func TestLambdaEvents(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope := scopeOf(t, tn.ID)
	rec := &recorder{}
	w := mail.NewWorker(testkit.Deps(t).Store, rec, localConfig(), slog.New(slog.DiscardHandler)).Only(tn.ID)
	first := enqueue(t, scope, reset("queued+"+tn.ID+"@example.org"))
	body, _ := json.Marshal(map[string]string{"pk": first.PK, "sk": first.SK})
	batch, _ := json.Marshal(events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "m1", EventSource: "aws:sqs", Body: string(body)},
		{MessageId: "m2", EventSource: "aws:sqs", Body: "not json"},
	}})
	out, err := awsmail.HandleEvent(context.Background(), w, slog.New(slog.DiscardHandler), batch)
	if err != nil {
		t.Fatal(err)
	}
	if resp, ok := out.(events.SQSEventResponse); !ok || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("response %#v", out)
	}
	if rec.count() != 1 {
		t.Fatalf("%d sent", rec.count())
	}
	enqueue(t, scope, reset("swept+"+tn.ID+"@example.org"))
	scheduled := []byte(`{"version":"0","id":"e1","detail-type":"Scheduled Event","source":"aws.events","detail":{}}`)
	out, err = awsmail.HandleEvent(context.Background(), w, slog.New(slog.DiscardHandler), scheduled)
	if res, ok := out.(mail.Result); err != nil || !ok || res.Sent != 1 {
		t.Fatalf("sweep %#v %v", out, err)
	}
}
