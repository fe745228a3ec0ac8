package mail_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/testkit"
)

// TestValidateRefusesHeaderInjection: whatever a caller passes (a visitor's address for an
// auto-reply, an institution's name, a subject typed by staff), nothing can start a header line
// of its own or add a recipient: CR, LF and other control characters are refused in every value
// that becomes a header, addresses must be one bare address (net/mail), and only the allowed
// extra headers may be set. Every refusal wraps ErrInvalid and Enqueue writes nothing.
func TestValidateRefusesHeaderInjection(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(m *mail.Message)
	}{
		{"CRLF in the subject", func(m *mail.Message) { m.Subject = "Hello\r\nBcc: victim@example.org" }},
		{"LF in the subject", func(m *mail.Message) { m.Subject = "Hello\nBcc: victim@example.org" }},
		{"CR alone in the subject", func(m *mail.Message) { m.Subject = "Hello\rX: y" }},
		{"NEL in the subject", func(m *mail.Message) { m.Subject = "Hello\u0085Bcc: x@example.org" }},
		{"line separator in the subject", func(m *mail.Message) { m.Subject = "Hello\u2028Bcc: x@example.org" }},
		{"LF in the institution's name", func(m *mail.Message) { m.FromName = "College\nBcc: victim@example.org" }},
		{"CRLF after the address", func(m *mail.Message) { m.To = "someone@example.org\r\nBcc: victim@example.org" }},
		{"two recipients", func(m *mail.Message) { m.To = "a@example.org, b@example.org" }},
		{"a display name", func(m *mail.Message) { m.To = "Someone <someone@example.org>" }},
		{"a reply-to with a header", func(m *mail.Message) { m.ReplyTo = "visitor@example.org\nBcc: x@example.org" }},
		{"a reply-to that is not an address", func(m *mail.Message) { m.ReplyTo = "not an address" }},
		{"no domain dot", func(m *mail.Message) { m.To = "someone@localhost" }},
		{"an address too long", func(m *mail.Message) { m.To = strings.Repeat("a", 250) + "@example.org" }},
		{"a non-ASCII address", func(m *mail.Message) { m.To = "jösé@example.org" }},
		{"a Bcc header", func(m *mail.Message) { m.Headers = map[string]string{"Bcc": "victim@example.org"} }},
		{"a From header", func(m *mail.Message) { m.Headers = map[string]string{"From": "ceo@example.org"} }},
		{"CRLF in an allowed header", func(m *mail.Message) {
			m.Headers = map[string]string{mail.HeaderListID: "list\r\nBcc: victim@example.org"}
		}},
		{"no text part", func(m *mail.Message) { m.Text = " \n" }},
		{"an empty subject", func(m *mail.Message) { m.Subject = "" }},
		{"a subject too long", func(m *mail.Message) { m.Subject = strings.Repeat("s", mail.MaxSubjectLength+1) }},
		{"a body too large", func(m *mail.Message) { m.HTML = strings.Repeat("x", mail.MaxBodyBytes) }},
		{"no kind", func(m *mail.Message) { m.Kind = "" }},
		{"a kind SES cannot tag", func(m *mail.Message) { m.Kind = "password reset" }},
		{"bulk without List-Unsubscribe", func(m *mail.Message) { m.Bulk = true }},
		{"bulk with a javascript unsubscribe", func(m *mail.Message) {
			m.Bulk, m.Headers = true, map[string]string{mail.HeaderListUnsubscribe: "<javascript:alert(1)>"}
		}},
		{"a one-click value of its own", func(m *mail.Message) {
			m.Headers = map[string]string{mail.HeaderListUnsubscribe: "<https://x.example.org/u>", mail.HeaderListUnsubscribePost: "yes"}
		}},
	}
	scope := scopeOf(t, testkit.NewTenant(t).ID)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := reset("someone@example.org")
			c.edit(&m)
			if err := m.Validate(); !errors.Is(err, mail.ErrInvalid) {
				t.Fatalf("Validate: %v, want ErrInvalid", err)
			}
			out, err := mail.Enqueue(testkit.Deps(t).Store, scope, m)
			if !errors.Is(err, mail.ErrInvalid) || out.Put != nil {
				t.Fatalf("Enqueue: %v, put %v", err, out.Put)
			}
			env := mail.Envelope{Message: m, From: localConfig().From(m.FromName), Tenant: scope.Tenant(), ID: "01ARZ3NDEKTSV4RRFFQ69G5FAV"}
			if _, err := mail.Compose(env, mail.DefaultDomain, time.Now()); !errors.Is(err, mail.ErrInvalid) {
				t.Fatalf("Compose: %v, want ErrInvalid", err)
			}
		})
	}
}

// TestComposeEncodesNamesAndSubject: what is not ASCII (or needs quoting) in the institution's
// name and the subject reaches the mail as RFC 2047 words or a quoted string, never raw; the
// mail has exactly the header lines the sender writes, and its parts are quoted-printable.
func TestComposeEncodesNamesAndSubject(t *testing.T) {
	t.Parallel()
	m := reset("someone@example.org")
	m.FromName = `Université "Ste-Marie", Québec`
	m.Subject = "Réinitialiser: votre mot de passe"
	m.Headers = mail.UnsubscribeHeaders("https://site.example.org/newsletter/unsubscribe?token=t")
	m.Bulk = true
	env := mail.Envelope{Message: m, From: localConfig().From(m.FromName), Tenant: "acme", ID: "01ARZ3NDEKTSV4RRFFQ69G5FAV"}
	raw, err := mail.Compose(env, mail.DefaultDomain, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	lines := strings.Split(head, "\r\n")
	var names []string
	for _, l := range lines {
		name, value, ok := strings.Cut(l, ": ")
		if !ok {
			t.Fatalf("header line %q", l)
		}
		for _, r := range value {
			if r > 0x7e {
				t.Fatalf("raw non-ASCII in %s: %q", name, value)
			}
		}
		names = append(names, name)
	}
	want := "From To Reply-To Subject Date Message-ID MIME-Version Auto-Submitted List-Unsubscribe List-Unsubscribe-Post Content-Type"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("headers %s\nwant %s", got, want)
	}
	for _, w := range []string{
		"From: =?utf-8?b?VW5pdmVyc2l0w6kgIlN0ZS1NYXJpZSIsIFF1w6liZWM=?= <no-reply@campuscms.localhost>",
		"Subject: =?utf-8?q?R=C3=A9initialiser:_votre_mot_de_passe?=",
		"Message-ID: <01ARZ3NDEKTSV4RRFFQ69G5FAV@campuscms.localhost>",
		"List-Unsubscribe-Post: List-Unsubscribe=One-Click",
		"Auto-Submitted: auto-generated",
	} {
		if !strings.Contains(head, w) {
			t.Errorf("no %q in\n%s", w, head)
		}
	}
	if got := (mail.Config{Domain: "mail.example.org"}).From(`Ste "Marie"`); got != `"Ste \"Marie\"" <no-reply@mail.example.org>` {
		t.Errorf("From %s", got)
	}
}
