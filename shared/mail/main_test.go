package mail_test

import (
	"context"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// senderFunc is a Sender made of a function (a failing provider, a counting one).
type senderFunc func(ctx context.Context, e mail.Envelope) (string, error)

func (f senderFunc) Send(ctx context.Context, e mail.Envelope) (string, error) { return f(ctx, e) }

// recorder is a Sender that keeps what it was asked to send.
type recorder struct {
	mu   sync.Mutex
	sent []mail.Envelope
}

func (r *recorder) Send(_ context.Context, e mail.Envelope) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, e)
	return "id-" + e.ID, nil
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sent)
}

func scopeOf(t *testing.T, tenant string) store.Scope {
	t.Helper()
	s, err := store.NewScope(tenant)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// localConfig is the mail configuration of the tests: the local domain.
func localConfig() mail.Config {
	return mail.Config{Domain: mail.DefaultDomain, Transport: mail.TransportSMTP, SMTPAddr: "127.0.0.1:1"}
}

// enqueue writes msg into the tenant's outbox in a transaction of its own and returns its key.
func enqueue(t *testing.T, scope store.Scope, msg mail.Message) store.Key {
	t.Helper()
	st := testkit.Deps(t).Store
	out, err := mail.Enqueue(st, scope, msg)
	if err != nil {
		t.Fatal(err)
	}
	tx := st.WriteTx()
	store.AddToTx(tx, out.Put)
	if err := tx.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.Key
}

// reset is a valid non-bulk message to address.
func reset(to string) mail.Message {
	m := mail.Message{To: to, FromName: "St. Mary's College", ReplyTo: "office@st-marys.example.org",
		Subject: "Reset your password", Kind: mail.KindPasswordReset}
	if err := m.Render(mail.TemplateMessage, mail.Notice{Body: "Someone asked to reset your password.\n\nIf it was not you, ignore this mail.",
		LinkLabel: "Choose a new password", LinkURL: "https://panel.example.org/reset-password?token=abc"}); err != nil {
		panic(err)
	}
	return m
}
