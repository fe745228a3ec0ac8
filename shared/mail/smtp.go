package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"slices"
	"strings"
	"time"
)

// SMTP sends to an SMTP server without authentication or TLS: the local mailbox (MailDev) on
// 127.0.0.1, in make dev and the tests. It writes the MIME message itself (Compose).
type SMTP struct {
	addr   string
	domain string
}

// NewSMTP returns a sender to the SMTP server at addr (host:port); domain names the
// Message-IDs it makes.
func NewSMTP(addr, domain string) *SMTP { return &SMTP{addr: addr, domain: domain} }

// smtpTimeout bounds one mail's SMTP conversation when ctx has no sooner deadline.
const smtpTimeout = 30 * time.Second

// Send delivers one mail over one connection. A 5xx answer wraps ErrPermanent.
func (s *SMTP) Send(ctx context.Context, e Envelope) (string, error) {
	raw, err := Compose(e, s.domain, time.Now())
	if err != nil {
		return "", err
	}
	from, err := mail.ParseAddress(e.From)
	if err != nil {
		return "", fmt.Errorf("%w: from: %w", ErrInvalid, err)
	}
	deadline := time.Now().Add(smtpTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return "", fmt.Errorf("mail: smtp %s: %w", s.addr, err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(deadline)
	host, _, _ := net.SplitHostPort(s.addr)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		return "", smtpError(err)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return "", smtpError(err)
	}
	if err := c.Mail(from.Address); err != nil {
		return "", smtpError(err)
	}
	if err := c.Rcpt(e.To); err != nil {
		return "", smtpError(err)
	}
	w, err := c.Data()
	if err != nil {
		return "", smtpError(err)
	}
	if _, err := w.Write(raw); err != nil {
		return "", smtpError(err)
	}
	if err := w.Close(); err != nil {
		return "", smtpError(err)
	}
	_ = c.Quit()
	return messageID(e, s.domain), nil
}

func smtpError(err error) error {
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 {
		return fmt.Errorf("%w: smtp: %w", ErrPermanent, err)
	}
	return fmt.Errorf("mail: smtp: %w", err)
}

func messageID(e Envelope, domain string) string { return "<" + e.ID + "@" + domain + ">" }

// Compose writes a mail as RFC 5322 / MIME: the headers (subject and names encoded as RFC 2047
// words where they are not ASCII), then the text part alone, or the text and HTML parts as
// multipart/alternative, each quoted-printable UTF-8 (so no line is longer than 76 characters).
// It checks the message first (Validate), so nothing it writes can carry a header of its own.
func Compose(e Envelope, domain string, now time.Time) ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if err := CheckFrom(e.From); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	header := func(name, value string) { b.WriteString(name + ": " + value + "\r\n") }
	header("From", e.From)
	header("To", e.To)
	if e.ReplyTo != "" {
		header("Reply-To", e.ReplyTo)
	}
	header("Subject", mime.QEncoding.Encode("utf-8", e.Subject))
	header("Date", now.UTC().Format(time.RFC1123Z))
	header("Message-ID", messageID(e, domain))
	header("MIME-Version", "1.0")
	for _, name := range HeaderNames(e.Message) {
		header(name, HeaderValue(e.Message, name))
	}
	if e.HTML == "" {
		header("Content-Type", "text/plain; charset=utf-8")
		header("Content-Transfer-Encoding", "quoted-printable")
		b.WriteString("\r\n")
		if err := writeQP(&b, e.Text); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	boundary := randomBoundary()
	header("Content-Type", `multipart/alternative; boundary="`+boundary+`"`)
	b.WriteString("\r\n")
	for _, part := range []struct{ typ, body string }{{"text/plain", e.Text}, {"text/html", e.HTML}} {
		b.WriteString("--" + boundary + "\r\n")
		b.WriteString("Content-Type: " + part.typ + "; charset=utf-8\r\n")
		b.WriteString("Content-Transfer-Encoding: quoted-printable\r\n\r\n")
		if err := writeQP(&b, part.body); err != nil {
			return nil, err
		}
		b.WriteString("\r\n")
	}
	b.WriteString("--" + boundary + "--\r\n")
	return b.Bytes(), nil
}

// HeaderNames are the extra headers a mail carries, sorted: the message's own, and
// Auto-Submitted: auto-generated (RFC 3834) unless the message says otherwise (an auto-reply
// says auto-replied), so vacation responders do not answer it.
func HeaderNames(m Message) []string {
	names := make([]string, 0, len(m.Headers)+1)
	for name := range m.Headers {
		names = append(names, name)
	}
	if _, ok := m.Headers[HeaderAutoSubmitted]; !ok {
		names = append(names, HeaderAutoSubmitted)
	}
	slices.Sort(names)
	return names
}

// HeaderValue is the value of one of HeaderNames(m).
func HeaderValue(m Message, name string) string {
	if v, ok := m.Headers[name]; ok {
		return v
	}
	if name == HeaderAutoSubmitted {
		return "auto-generated"
	}
	return ""
}

func writeQP(b *bytes.Buffer, s string) error {
	w := quotedprintable.NewWriter(b)
	if _, err := w.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n"))); err != nil {
		return err
	}
	return w.Close()
}

func randomBoundary() string {
	var r [12]byte
	_, _ = rand.Read(r[:])
	return "campuscms-" + hex.EncodeToString(r[:])
}
