package forms

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/mailapp"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// The mail of a submission. Each address of the form's notifyEmails gets a notification (every
// submitted field with its value, and a link to the form's submissions in the panel), with
// Reply-To the submitter's address; the submitter gets the form's auto-reply. The submitter's
// address is the value of the form's first email field, used only when mail can be sent to it
// (mail.ValidAddress: one bare address, no line break or other header trick); otherwise there is
// no Reply-To and no auto-reply, and the submission is stored all the same.
//
// The auto-reply holds only what staff wrote (its subject and message), never the visitor's
// values: anyone can type someone else's address into a form, and the auto-reply must not carry
// their text to that person.
const (
	// TemplateNotification and TemplateAutoReply are the mail templates (shared/mail/templates).
	TemplateNotification = "form-notification"
	TemplateAutoReply    = "form-auto-reply"
	// MaxSubmitMail is the most mail items one submission adds to its transaction: one per
	// notification address and the auto-reply. With the submission, the form's check, two
	// counters, its words (words.MaxWords) and audit entry, a submission's transaction holds at
	// most MaxSubmitItems, far below DynamoDB's 100 (store.MaxTransactionItems).
	MaxSubmitMail  = collections.MaxEmails + 1
	MaxSubmitItems = 4 + words.MaxWords + 1 + MaxSubmitMail
	// shortValue is how much of each value a notification shows when the whole submission would
	// not fit in one mail (mail.MaxBodyBytes): the panel has it all.
	shortValue = 200
)

// Submitter stores submissions and the mail they cause.
type Submitter struct {
	Store *store.Store
	// PanelURL is the panel's address (config.Config.PanelURL): a notification links to
	// {PanelURL}/custom-forms/{formId}/submissions. Empty leaves the link out.
	PanelURL string
	// Nudger is told of the mail once the submission has committed, so the worker sends it now
	// rather than at its next sweep; nil sends it at the sweep.
	Nudger mail.Nudger
	// Log records a mail that could not be built (the submission is stored regardless).
	Log *slog.Logger
}

// NewSubmitter is the Submitter of a process: its table, its panel address and its mail nudger
// (mailapp.Nudger), for the panel's, the public API's and the website's submissions alike.
func NewSubmitter(d *app.Deps) (Submitter, error) {
	n, err := mailapp.Nudger(d)
	if err != nil {
		return Submitter{}, err
	}
	return Submitter{Store: d.Store, PanelURL: d.Config.PanelURL, Nudger: n, Log: d.Log}, nil
}

// notifiedField is one answered field as a notification lists it.
type notifiedField struct {
	Label string
	Value string
}

// notificationData is what the form-notification templates see (as .Data).
type notificationData struct {
	FormName  string
	Fields    []notifiedField
	Link      string
	Shortened bool // values were cut to fit one mail
	Omitted   bool // values were left out to fit one mail
}

// autoReplyData is what the form-auto-reply templates see (as .Data).
type autoReplyData struct {
	FormName string
	Body     string
}

// mailFor builds the outbox items of a submission it of form (none when the form mails nobody):
// the notifications and the auto-reply. The institution's name (the sender's display name) and
// the footer's contact email (Reply-To of the auto-reply) are read in one batch, only when there
// is mail to send. A mail that cannot be built is logged and left out, never an error of the
// submission.
func (s Submitter) mailFor(ctx context.Context, scope store.Scope, form Form, it item) ([]mail.Outgoing, error) {
	submitter := submitterAddress(form, it.Values)
	autoReply := strings.TrimSpace(form.AutoReplyMessage) != "" && submitter != ""
	if len(form.NotifyEmails) == 0 && !autoReply {
		return nil, nil
	}
	institution, contact, err := s.sender(ctx, scope)
	if err != nil {
		return nil, err
	}
	var out []mail.Outgoing
	add := func(msg mail.Message) {
		o, err := mail.Enqueue(s.Store, scope, msg)
		if err != nil {
			s.logFailure(msg.Kind, form.ID, err)
			return
		}
		out = append(out, o)
	}
	if len(form.NotifyEmails) > 0 {
		note, err := s.notification(form, it, institution, submitter)
		if err != nil {
			s.logFailure(mail.KindFormNotification, form.ID, err)
		} else {
			for _, to := range form.NotifyEmails[:min(len(form.NotifyEmails), collections.MaxEmails)] {
				if !mail.ValidAddress(to) {
					continue
				}
				msg := note
				msg.To = to
				add(msg)
			}
		}
	}
	if autoReply {
		subject := oneLine(form.AutoReplySubject, mail.MaxSubjectLength)
		if subject == "" {
			subject = oneLine("Thank you for your message: "+form.Name, mail.MaxSubjectLength)
		}
		msg := mail.Message{To: submitter, FromName: institution, Subject: subject, Kind: mail.KindFormAutoReply,
			Headers: map[string]string{mail.HeaderAutoSubmitted: "auto-replied", mail.HeaderAutoResponse: "All"}}
		if mail.ValidAddress(contact) {
			msg.ReplyTo = contact
		}
		if err := msg.Render(TemplateAutoReply, autoReplyData{FormName: form.Name, Body: form.AutoReplyMessage}); err != nil {
			s.logFailure(msg.Kind, form.ID, err)
		} else {
			add(msg)
		}
	}
	return out, nil
}

// notification renders the mail every notification address gets (To left for the caller): every
// answered field in the form's order, whole when that fits in one mail, else each value cut short,
// else none (the link leads to them all).
func (s Submitter) notification(form Form, it item, institution, submitter string) (mail.Message, error) {
	msg := mail.Message{FromName: institution, ReplyTo: submitter, Kind: mail.KindFormNotification,
		Subject: oneLine("New submission: "+form.Name, mail.MaxSubjectLength),
		Headers: map[string]string{mail.HeaderAutoSubmitted: "auto-generated"}}
	data := notificationData{FormName: form.Name, Link: s.submissionLink(form.ID, it.ID)}
	for _, f := range form.Fields {
		if v := shownValue(it.Values[f.Label]); v != "" {
			data.Fields = append(data.Fields, notifiedField{Label: f.Label, Value: v})
		}
	}
	all := data.Fields
	for step := 0; ; step++ {
		if err := msg.Render(TemplateNotification, data); err != nil {
			return mail.Message{}, err
		}
		if len(msg.Text)+len(msg.HTML) <= mail.MaxBodyBytes || step == 2 {
			return msg, nil
		}
		if step == 0 {
			data.Shortened, data.Fields = true, make([]notifiedField, len(all))
			for i, f := range all {
				data.Fields[i] = notifiedField{Label: formats.Shorten(f.Label, shortValue), Value: formats.Shorten(f.Value, shortValue)}
			}
		} else {
			data.Shortened, data.Omitted, data.Fields = false, true, nil
		}
	}
}

// submissionLink is the panel's screen of the form's submissions, the new one named (""
// without a panel address).
func (s Submitter) submissionLink(formID, id string) string {
	if s.PanelURL == "" {
		return ""
	}
	return s.PanelURL + "/custom-forms/" + url.PathEscape(formID) + "/submissions?submission=" + url.QueryEscape(id)
}

// sender reads the institution's name and the footer's contact email in one batch.
func (s Submitter) sender(ctx context.Context, scope store.Scope) (name, contact string, err error) {
	tk, fk := store.Key{PK: scope.Root(), SK: store.SKTenant}, store.Key{PK: scope.Root(), SK: "FOOTER"}
	found, err := s.Store.GetMany(ctx, tk, fk)
	if err != nil {
		return "", "", store.Wrap("submit form: mail sender", err)
	}
	var t store.Tenant
	if _, err := store.Decode(found, tk, &t); err != nil {
		return "", "", err
	}
	var footer struct {
		ContactEmail string `dynamo:"contactEmail"`
	}
	if _, err := store.Decode(found, fk, &footer); err != nil {
		return "", "", err
	}
	return oneLine(t.Name, mail.MaxNameLength), strings.TrimSpace(footer.ContactEmail), nil
}

func (s Submitter) logFailure(kind, formID string, err error) {
	if s.Log != nil {
		s.Log.Error("forms: a submission's mail left out", "kind", kind, "form", formID, "err", err)
	}
}

// submitterAddress is the value of the form's first email field when mail can be sent to it.
func submitterAddress(form Form, values map[string]any) string {
	for _, f := range form.Fields {
		if f.FieldType != TypeEmail {
			continue
		}
		v, _ := values[f.Label].(string)
		if v = strings.TrimSpace(v); mail.ValidAddress(v) {
			return v
		}
		return ""
	}
	return ""
}

// shownValue is a stored value as text: a checkbox's options joined by commas.
func shownValue(v any) string {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(strings.ReplaceAll(x, "\r\n", "\n"), "\r", "\n")
	case []string:
		return strings.Join(x, ", ")
	case []any:
		parts := make([]string, 0, len(x))
		for _, p := range x {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	}
	return ""
}

// oneLine makes staff's text a header value: line breaks and other control characters become
// spaces, runs of spaces one, at most max characters (a form's name may hold a line break; a
// subject may not).
func oneLine(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return formats.Shorten(s, max)
}

// errBadSubject is the save's answer to an auto-reply subject that is not one line.
var errBadSubject = api.FieldError(http.StatusBadRequest, "autoReplySubject",
	"Auto-reply Subject must be one line of text (no line breaks or control characters).")

// checkMailSettings checks what a form's write sets of its mail: an auto-reply subject is a
// mail's subject, one line (the engine checked the addresses and lengths).
func checkMailSettings(values map[string]any) error {
	if v, ok := values["autoReplySubject"].(string); ok && strings.ContainsFunc(v, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}) {
		return errBadSubject
	}
	return nil
}
