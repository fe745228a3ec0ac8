// Package mail is the one path every mail of the panel takes: password resets, form
// notifications and auto-replies, newsletter confirmations and newsletters.
//
// What causes a mail writes it as an outbox item in its own transaction (Enqueue: the item is
// a Put for store.WriteTx or collections Write.Also), so the mail exists exactly when what caused
// it does, and a failed send can never undo or delay it. A Worker sends what is due outside the
// request, through one Sender: SES v2 in AWS (package awsmail, with the SQS nudger and the mail
// function's handler, so that code that only writes mail links no SDK client), SMTP to the local
// mailbox (MailDev) in make dev and the tests. It claims an item with a lease before sending (two workers rarely send one
// mail twice), removes it once sent, backs off after a failure (1 minute doubling to an hour)
// and after MaxAttempts moves it to the tenant's failed partition (Failed lists it, Retry puts it
// back). Bulk mail (newsletters) skips addresses on the tenant's suppression list (Suppressed),
// which SES's bounce and complaint events fill (HandleSESEvent); other mail (a password reset)
// ignores it.
//
// Messages are checked before they are written (Validate): one recipient, addresses parsed by
// net/mail, no CR, LF or other control character in the subject, names or header values (no
// header injection), a text part always, List-Unsubscribe on bulk mail, bodies rendered from the
// package's own template files (Render: text/template for the text part, html/template for the
// HTML part) and no tracking of any kind.
package mail

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"
)

// ErrInvalid is wrapped by every error about a message that cannot be sent as it is (a bad
// address, a control character in the subject, no text part): the caller's input, never a fault.
var ErrInvalid = errors.New("mail: invalid message")

// Limits of a message. MaxBodyBytes bounds the text and HTML parts together, well under
// DynamoDB's 400 KB item (the outbox item holds both, once more in the due index's copy).
const (
	MaxSubjectLength = 250
	MaxNameLength    = 120
	MaxAddressLength = 254
	MaxBodyBytes     = 150_000
	maxHeaderValue   = 900
	maxKindLength    = 40
)

// Kinds of mail, for the logs, the failed list and SES's tags. A feature may use its own
// (letters, digits, '-' and '_'; SES tag values allow no more).
const (
	KindPasswordReset      = "password-reset"
	KindFormNotification   = "form-notification"
	KindFormAutoReply      = "form-auto-reply"
	KindNewsletterConfirm  = "newsletter-confirm"
	KindNewsletter         = "newsletter"
	KindNewsletterTestSend = "newsletter-test"
)

// Header names a message may set (Message.Headers). Everything else that makes up a mail
// (From, To, Reply-To, Subject, Date, Message-ID, the MIME headers) is written by the sender
// from the message's own fields; no caller can add or repeat one.
const (
	HeaderListUnsubscribe     = "List-Unsubscribe"
	HeaderListUnsubscribePost = "List-Unsubscribe-Post"
	HeaderListID              = "List-Id"
	HeaderAutoSubmitted       = "Auto-Submitted"
	HeaderAutoResponse        = "X-Auto-Response-Suppress"
)

var allowedHeaders = map[string]bool{
	HeaderListUnsubscribe: true, HeaderListUnsubscribePost: true, HeaderListID: true,
	HeaderAutoSubmitted: true, HeaderAutoResponse: true,
}

// OneClick is the List-Unsubscribe-Post value of RFC 8058: a POST to the List-Unsubscribe
// https address unsubscribes at once.
const OneClick = "List-Unsubscribe=One-Click"

// Message is one mail to one person. The sender's address is the deployment's
// (no-reply@{mail domain}, Config.From); FromName is shown as its display name (the
// institution's name).
type Message struct {
	// To is the one recipient: a bare address (someone@example.org). A mail to several people
	// is several messages, so nobody sees another's address and a bounce suppresses only its own.
	To string `dynamo:"to" json:"to"`
	// FromName is the display name of the sender: the institution's name.
	FromName string `dynamo:"fromName" json:"fromName"`
	// ReplyTo, when set, is where replies go: the footer's contact email, or the submitter of a
	// form for its notification.
	ReplyTo string `dynamo:"replyTo,omitempty" json:"replyTo,omitempty"`
	Subject string `dynamo:"subject" json:"subject"`
	// Text is the plain-text part (required); HTML the optional HTML part. Render fills both
	// from the package's templates.
	Text string `dynamo:"text" json:"text"`
	HTML string `dynamo:"html,omitempty" json:"html,omitempty"`
	// Headers are extra header fields, from the allowed set (List-Unsubscribe and its Post,
	// List-Id, Auto-Submitted, X-Auto-Response-Suppress).
	Headers map[string]string `dynamo:"headers,omitempty" json:"headers,omitempty"`
	// Kind says what the mail is (KindPasswordReset, ...): logs, the failed list, SES's tags.
	Kind string `dynamo:"kind" json:"kind"`
	// Bulk marks mail a person signed up for (newsletters): it must carry List-Unsubscribe, and
	// it is not sent to an address on the tenant's suppression list. Mail a person asked for
	// (a password reset) is not bulk and is sent regardless.
	Bulk bool `dynamo:"bulk,omitempty" json:"bulk,omitempty"`
	// Campaign names the bulk send the mail is one of (a newsletter's id): SES tags the mail with
	// it (TagCampaign), so its bounce or complaint is counted on that send (Events.Count).
	// Letters, digits, '-' and '_' (what an SES tag value allows); empty for other mail.
	Campaign string `dynamo:"campaign,omitempty" json:"campaign,omitempty"`
}

// Validate checks a message before it is written or sent: every problem wraps ErrInvalid.
func (m Message) Validate() error {
	if _, err := ParseAddress(m.To); err != nil {
		return fmt.Errorf("%w: to: %w", ErrInvalid, err)
	}
	if m.ReplyTo != "" {
		if _, err := ParseAddress(m.ReplyTo); err != nil {
			return fmt.Errorf("%w: reply-to: %w", ErrInvalid, err)
		}
	}
	if err := checkLine("from name", m.FromName, MaxNameLength); err != nil {
		return err
	}
	if strings.TrimSpace(m.Subject) == "" {
		return fmt.Errorf("%w: the subject is empty", ErrInvalid)
	}
	if err := checkLine("subject", m.Subject, MaxSubjectLength); err != nil {
		return err
	}
	if strings.TrimSpace(m.Text) == "" {
		return fmt.Errorf("%w: a mail needs a text part", ErrInvalid)
	}
	if !utf8.ValidString(m.Text) || !utf8.ValidString(m.HTML) {
		return fmt.Errorf("%w: the body is not UTF-8", ErrInvalid)
	}
	if n := len(m.Text) + len(m.HTML); n > MaxBodyBytes {
		return fmt.Errorf("%w: the body is %d bytes, at most %d", ErrInvalid, n, MaxBodyBytes)
	}
	if !validKind(m.Kind) {
		return fmt.Errorf("%w: kind %q: 1 to %d letters, digits, '-' or '_'", ErrInvalid, m.Kind, maxKindLength)
	}
	if m.Campaign != "" && !ValidCampaign(m.Campaign) {
		return fmt.Errorf("%w: campaign %q: 1 to %d letters, digits, '-' or '_'", ErrInvalid, m.Campaign, maxKindLength)
	}
	for name, value := range m.Headers {
		if !allowedHeaders[name] {
			return fmt.Errorf("%w: header %q may not be set by a message", ErrInvalid, name)
		}
		if len(value) == 0 || len(value) > maxHeaderValue {
			return fmt.Errorf("%w: header %s: 1 to %d characters", ErrInvalid, name, maxHeaderValue)
		}
		for i := 0; i < len(value); i++ {
			if c := value[i]; c < 0x20 || c > 0x7e {
				return fmt.Errorf("%w: header %s: printable ASCII only (no CR, LF or other control characters)", ErrInvalid, name)
			}
		}
	}
	if m.Bulk {
		if !unsubscribeValue(m.Headers[HeaderListUnsubscribe]) {
			return fmt.Errorf("%w: bulk mail needs List-Unsubscribe, as <https://...> (and <mailto:...>)", ErrInvalid)
		}
	}
	if v, ok := m.Headers[HeaderListUnsubscribePost]; ok && v != OneClick {
		return fmt.Errorf("%w: List-Unsubscribe-Post must be %q (RFC 8058)", ErrInvalid, OneClick)
	}
	return nil
}

// ParseAddress checks that s is one bare email address, as net/mail reads it (no display name,
// no group, no comment), of ASCII and at most 254 bytes, and returns it.
func ParseAddress(s string) (string, error) {
	if s == "" {
		return "", errors.New("no address")
	}
	if len(s) > MaxAddressLength {
		return "", fmt.Errorf("longer than %d bytes", MaxAddressLength)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c >= 0x7f {
			return "", errors.New("spaces, control and non-ASCII characters are not allowed")
		}
	}
	a, err := mail.ParseAddress(s)
	if err != nil {
		return "", err
	}
	domain := a.Address[strings.LastIndexByte(a.Address, '@')+1:]
	if a.Name != "" || a.Address != s || !strings.Contains(domain, ".") || strings.HasPrefix(domain, "[") {
		return "", fmt.Errorf("%q is not a bare address such as someone@example.org", s)
	}
	return a.Address, nil
}

// ValidAddress reports whether s is an address a message may be sent to (ParseAddress): for
// checking what staff type (a form's notification addresses) before anything is written.
func ValidAddress(s string) bool {
	_, err := ParseAddress(s)
	return err == nil
}

// CheckFrom checks a From header value (Config.From) as every header line is checked.
func CheckFrom(from string) error { return checkLine("from", from, 400) }

// checkLine refuses what would break out of a header: CR, LF or any other control character,
// and an overlong value. Non-ASCII is fine (it is encoded as RFC 2047 words when sent).
func checkLine(what, s string, max int) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not UTF-8", ErrInvalid, what)
	}
	if utf8.RuneCountInString(s) > max {
		return fmt.Errorf("%w: %s is longer than %d characters", ErrInvalid, what, max)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("%w: %s contains a line break or control character", ErrInvalid, what)
		}
	}
	return nil
}

// ValidCampaign reports whether c can name a campaign (Message.Campaign): an SES tag value of 1
// to 40 letters, digits, '-' or '_'.
func ValidCampaign(c string) bool { return validKind(c) }

func validKind(k string) bool {
	if k == "" || len(k) > maxKindLength {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// unsubscribeValue reports whether v is a List-Unsubscribe value (RFC 2369): one or more
// <URI> separated by commas, at least one of them http(s).
func unsubscribeValue(v string) bool {
	web := false
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if len(part) < 3 || part[0] != '<' || part[len(part)-1] != '>' || strings.ContainsAny(part[1:len(part)-1], "<> ") {
			return false
		}
		uri := part[1 : len(part)-1]
		switch {
		case strings.HasPrefix(uri, "https://"), strings.HasPrefix(uri, "http://"):
			web = true
		case strings.HasPrefix(uri, "mailto:"):
		default:
			return false
		}
	}
	return web
}

// UnsubscribeHeaders are the headers of a bulk mail whose unsubscribe address is url: one-click
// (RFC 8058), so a mail client's "Unsubscribe" button POSTs to it and is done.
func UnsubscribeHeaders(url string) map[string]string {
	return map[string]string{HeaderListUnsubscribe: "<" + url + ">", HeaderListUnsubscribePost: OneClick}
}
