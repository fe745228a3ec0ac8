package testkit

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/maildev"
	"github.com/campuscms/panel/shared/store"
)

// mailbox is the test binary's MailDev, started by the first test that asks for it.
var mailbox struct {
	once   sync.Once
	server *maildev.Server
	err    error
}

// LocalMailbox is the local mailbox of a test binary: mail sent over SMTP to it is read back
// through its REST API.
type LocalMailbox struct {
	// URL is its web inbox and API; SMTPAddr where mail is sent (127.0.0.1:port).
	URL      string
	SMTPAddr string
}

// Mailbox returns the test binary's local mailbox (MailDev from tools/mailbox), started on free
// ports on first use and stopped when the tests end, as the emulator is. Tests share it: each
// reads only the mail sent to its own addresses (give them the test's tenant id).
func Mailbox(t testing.TB) LocalMailbox {
	t.Helper()
	mailbox.once.Do(func() {
		mailbox.server, mailbox.err = maildev.Start(context.Background(), maildev.Options{})
	})
	if mailbox.err != nil {
		t.Fatal(mailbox.err)
	}
	return LocalMailbox{URL: mailbox.server.URL, SMTPAddr: fmt.Sprintf("127.0.0.1:%d", mailbox.server.SMTPPort)}
}

// stopMailbox ends the test binary's mailbox, if a test started it.
func stopMailbox() {
	if mailbox.server != nil {
		mailbox.server.Stop()
	}
}

// Sender is an SMTP sender to the mailbox, as the dev server's worker sends.
func (m LocalMailbox) Sender() mail.Sender { return mail.NewSMTP(m.SMTPAddr, mail.DefaultDomain) }

// Config is the mail configuration of a local run sending to the mailbox.
func (m LocalMailbox) Config() mail.Config {
	return mail.Config{Domain: mail.DefaultDomain, Transport: mail.TransportSMTP, SMTPAddr: m.SMTPAddr}
}

// Messages lists the mail sent to address so far, oldest first.
func (m LocalMailbox) Messages(t testing.TB, address string) []maildev.Mail {
	t.Helper()
	all, err := maildev.Messages(context.Background(), m.URL)
	if err != nil {
		t.Fatal(err)
	}
	var out []maildev.Mail
	for _, msg := range all {
		if msg.SentTo(address) {
			out = append(out, msg)
		}
	}
	return out
}

// WaitFor waits (up to 20 seconds) until n mails have reached address and returns them, oldest
// first; it fails the test otherwise.
func (m LocalMailbox) WaitFor(t testing.TB, address string, n int) []maildev.Mail {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := m.Messages(t, address)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			subjects := make([]string, len(got))
			for i, g := range got {
				subjects[i] = g.Subject
			}
			t.Fatalf("mailbox: %d mails to %s after 20 s, want %d (have: %s)", len(got), address, n, strings.Join(subjects, "; "))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// DeliverMail runs a mail worker once over the tenant's due mail, sending to the mailbox as the
// dev server's worker does, and returns what it did. It reads the tenant's own outbox (not the
// due index every tenant shares, where other tests' mail may fill a run's page), so parallel
// tests never send or wait for each other's mail. A feature's test calls it after the write that
// enqueued mail, then reads the mailbox (WaitFor).
func DeliverMail(t testing.TB, tenant string) mail.Result {
	t.Helper()
	mb := Mailbox(t)
	pending := Outbox(t, tenant)
	scope, _ := store.NewScope(tenant)
	keys := make([]store.Key, len(pending))
	for i, e := range pending {
		keys[i] = store.Key{PK: mail.OutboxPartition(scope), SK: e.ID}
	}
	w := mail.NewWorker(Deps(t).Store, mb.Sender(), mb.Config(), Deps(t).Log)
	res, err := w.DeliverKeys(context.Background(), time.Now().Add(time.Second), keys...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Outbox lists the tenant's mail waiting to be sent (at most 100).
func Outbox(t testing.TB, tenant string) []mail.Entry {
	t.Helper()
	scope, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	out, err := mail.Pending(context.Background(), Deps(t).Store, scope, mail.MaxList)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
