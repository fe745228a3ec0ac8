package newsletter

import (
	"context"
	"errors"
	"fmt"
	"html"
	htmltemplate "html/template"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
)

// NewslettersHooks is the name collections.json gives the newsletters' hooks.
const NewslettersHooks = "newsletters"

// NewslettersKind is the newsletters' collection.
const NewslettersKind = "newsletters"

// States of a newsletter.
const (
	StateDraft   = "draft"
	StateSending = "sending"
	StateSent    = "sent"
)

// Answers of the newsletters' rules.
var (
	errNotDraft     = api.Errorf(http.StatusConflict, "This newsletter has been sent and can no longer be changed.")
	errSending      = api.Errorf(http.StatusConflict, "This newsletter is being sent; it can be deleted once it is sent.")
	errAlreadySent  = api.Errorf(http.StatusConflict, "This newsletter has already been sent.")
	errNoRecipients = api.Errorf(http.StatusBadRequest, "Nobody has confirmed a subscription yet: there is no one to send this newsletter to.")
	errNoWebsite    = api.Errorf(http.StatusConflict, "Your website has no address yet, so a newsletter could not link to its unsubscribe page. Add a domain first.")
	errNoOwnEmail   = api.Errorf(http.StatusBadRequest, "Your account has no valid email address. Add one in your profile to send yourself a test.")
)

// newsletterHooks are the newsletters' rules: a newsletter is written as a draft, changed only
// while it is one, deleted unless it is being sent; its state and counts are the server's
// (derived fields, set here from what the send and its job say); the routes below test and send.
type newsletterHooks struct {
	site func(store.Tenant) string
}

// stateChange is what a send (or its job's last step) makes of the newsletter, for its hooks.
type stateChange struct {
	state  string
	sentAt string
	// recipients, on a send, is how many it goes to: the confirmed signups when it starts.
	recipients int64
	// job is the due item the send puts (sending) or the last step removes (sent).
	job *collections.DueItem
}

type stateKey struct{}

func (h newsletterHooks) BeforeWrite(ctx context.Context, s *collections.Service, w *collections.Write) error {
	if ch, ok := ctx.Value(stateKey{}).(stateChange); ok && w.Old != nil {
		w.Rec["state"] = ch.state
		if ch.sentAt != "" {
			w.Rec["sentAt"] = ch.sentAt
		}
		if ch.state == StateSending {
			w.Rec["recipientCount"] = ch.recipients
		}
		if ch.job != nil {
			if ch.state == StateSending {
				w.Also(s.Store().Table.Put(*ch.job).If("attribute_not_exists(PK)"), errAlreadySent)
			} else {
				w.Also(s.Store().Table.Delete("PK", ch.job.PK).Range("SK", ch.job.SK), nil)
			}
		}
		return nil
	}
	if w.Old != nil {
		if st := toString(w.Old["state"]); st != "" && st != StateDraft {
			return errNotDraft
		}
	} else {
		w.Rec["state"] = StateDraft
		for _, f := range countFields {
			w.Rec[f] = 0
		}
	}
	return checkSubject(toString(w.Rec["subject"]))
}

// countFields are a newsletter's counts, 0 when it is written. Sending sets recipientCount (the
// confirmed signups then) and adds to sentCount, failedCount and suppressedCount at each step; SES's
// events add to bouncedCount and complainedCount (CountMailEvent), an unsubscribe through its
// mail's link to unsubscribedCount.
var countFields = []string{"sentCount", "failedCount", "suppressedCount", "bouncedCount", "unsubscribedCount", "complainedCount"}

// checkSubject: the subject is a mail header, one line, as long as a mail's subject may be.
func checkSubject(subject string) error {
	if strings.IndexFunc(subject, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return api.FieldError(http.StatusBadRequest, "subject", "Subject cannot contain line breaks or control characters.")
	}
	if n := len([]rune(subject)); n > mail.MaxSubjectLength {
		return api.FieldError(http.StatusBadRequest, "subject", fmt.Sprintf("Subject can be at most %d characters long.", mail.MaxSubjectLength))
	}
	return nil
}

func (newsletterHooks) BeforeDelete(_ context.Context, _ *collections.Service, w *collections.Write) error {
	if toString(w.Old["state"]) == StateSending {
		return errSending
	}
	return nil
}

// Routes adds POST {path}/{id}/test (the newsletter to the caller's own address), POST
// {path}/{id}/send (to every confirmed, unsuppressed signup, by the schedule job), GET
// {path}/{id}/preview (the mail a subscriber gets) and POST {path}/preview (the same of unsaved
// input, stored nowhere).
func (h newsletterHooks) Routes(s *collections.Service, mux api.Mux, path string, c *collections.Collection) {
	mux.Handle("GET "+path+"/{id}/preview", s.Guard().Require(c.Permission("VIEW"), func(w http.ResponseWriter, r *http.Request) error {
		return h.preview(w, r, s, c)
	}))
	mux.Handle("POST "+path+"/preview", s.Guard().Require("", func(w http.ResponseWriter, r *http.Request) error {
		return h.previewDraft(w, r, s, c)
	}))
	mux.Handle("POST "+path+"/{id}/test", s.Guard().Require(c.Permission("EDIT"), func(w http.ResponseWriter, r *http.Request) error {
		return h.test(w, r, s, c)
	}))
	mux.Handle("POST "+path+"/{id}/send", s.Guard().Require(c.Permission("EDIT"), func(w http.ResponseWriter, r *http.Request) error {
		return h.send(w, r, s, c)
	}))
}

// test queues the newsletter to the caller's own email, marked as a test, without counting it.
func (h newsletterHooks) test(w http.ResponseWriter, r *http.Request, s *collections.Service, c *collections.Collection) error {
	if err := api.DecodeOptional(r, &struct{}{}); err != nil { // no body, or an empty object
		return err
	}
	ctx, caller := r.Context(), auth.CallerFrom(r.Context())
	rec, err := s.Load(ctx, caller.Scope, c, r.PathValue("id"))
	if err != nil {
		return err
	}
	to := ""
	if caller.User != nil {
		to = strings.TrimSpace(caller.User.Email)
	}
	if !mail.ValidAddress(to) {
		return errNoOwnEmail
	}
	from, err := senderOf(ctx, s.Store(), caller.Scope, h.site)
	if err != nil {
		return err
	}
	msg, err := newsletterMail(rec, from, to, strings.TrimRight(from.site, "/")+UnsubscribePath)
	if err != nil {
		return err
	}
	msg.Subject, msg.Kind, msg.Bulk, msg.Headers = "[Test] "+msg.Subject, mail.KindNewsletterTestSend, false, nil
	out, err := mail.Enqueue(s.Store(), caller.Scope, msg)
	if err != nil {
		return mailError(err)
	}
	tx := s.Store().WriteTx()
	store.AddToTx(tx, out.Put)
	if err := tx.Run(ctx); err != nil {
		return store.Wrap("newsletter: test", err)
	}
	return api.JSON(w, http.StatusAccepted, api.Envelope{Result: map[string]string{"to": to}, Message: "A test has been sent to " + to + "."})
}

// send starts sending: the newsletter becomes "sending" and its job's due item is put, in one
// write (the engine's update, naming the version read, so two sends at once start one job),
// after the plan's monthly allowance was checked against the confirmed signups.
func (h newsletterHooks) send(w http.ResponseWriter, r *http.Request, s *collections.Service, c *collections.Collection) error {
	if err := api.DecodeOptional(r, &struct{}{}); err != nil { // no body, or an empty object
		return err
	}
	ctx, caller := r.Context(), auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	rec, err := s.Load(ctx, caller.Scope, c, id)
	if err != nil {
		return err
	}
	if st := toString(rec["state"]); st != "" && st != StateDraft {
		return errAlreadySent
	}
	recipients, err := CheckAllowance(ctx, s.Store(), caller.Scope, time.Now())
	if err != nil {
		return err
	}
	// Every mail links to the website's unsubscribe page: a website with no address yet (no
	// domain in AWS) cannot be sent from.
	if from, err := senderOf(ctx, s.Store(), caller.Scope, h.site); err != nil {
		return err
	} else if !strings.HasPrefix(from.site, "http://") && !strings.HasPrefix(from.site, "https://") {
		return errNoWebsite
	}
	job := collections.JobDueItem(caller.Scope, c.Key, id, time.Now())
	ctx = context.WithValue(ctx, stateKey{}, stateChange{state: StateSending, job: &job, recipients: recipients})
	out, err := s.UpdateViewed(ctx, caller, c, id, map[string]any{"version": rec["version"]})
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusAccepted, api.Envelope{Result: out, Message: "The newsletter is being sent."})
}

// CheckAllowance refuses a send whose recipients (the tenant's confirmed signups) would pass
// its plan's monthly email allowance, with the plan's message, and returns how many they are
// (a counter: no signup is read; suppressed addresses among them are skipped as the send goes).
func CheckAllowance(ctx context.Context, st *store.Store, scope store.Scope, now time.Time) (recipients int64, err error) {
	t, err := st.GetTenant(ctx, scope)
	if err != nil {
		return 0, err
	}
	p, err := plans.Of(t.PlanID)
	if err != nil {
		return 0, err
	}
	n, err := st.CountMany(ctx, scope, ConfirmedCounter, plans.CountEmails(now.UTC().Format("2006-01")))
	if err != nil {
		return 0, err
	}
	recipients, used := n[0], n[1]
	if recipients <= 0 {
		return 0, errNoRecipients
	}
	if left := p.Limits.MonthlyEmails - used; recipients > left {
		return 0, p.EmailRefusal(recipients, left)
	}
	return recipients, nil
}

// Mail is a newsletter's content as one mail renders it: the sanitised HTML (the engine's
// rich-text sanitiser ran on save), its text, and the recipient's unsubscribe link.
type Mail struct {
	HTML           htmltemplate.HTML
	Text           string
	UnsubscribeURL string
}

// newsletterMail is newsletter rec to one recipient, bulk, with its one-click unsubscribe link.
func newsletterMail(rec collections.Record, from sender, to, unsubscribe string) (mail.Message, error) {
	content := toString(rec["content"])
	msg := mail.Message{To: to, FromName: from.name, ReplyTo: from.replyTo, Subject: toString(rec["subject"]),
		Kind: mail.KindNewsletter, Bulk: true, Headers: mail.UnsubscribeHeaders(unsubscribe)}
	// The content was sanitised when it was saved (a richtext field): it is shown as HTML.
	if err := msg.Render("newsletter", Mail{HTML: htmltemplate.HTML(content), Text: TextOf(content), UnsubscribeURL: unsubscribe}); err != nil {
		return mail.Message{}, err
	}
	return msg, nil
}

var (
	blockEnd = regexp.MustCompile(`(?i)</(p|div|h[1-6]|li|ul|ol|blockquote|tr|table)>|<br\s*/?>`)
	anyTag   = regexp.MustCompile(`<[^>]*>`)
	manyNL   = regexp.MustCompile(`\n{3,}`)
)

// TextOf is the plain text of sanitised rich text: blocks and line breaks as new lines, tags
// dropped, entities decoded.
func TextOf(fragment string) string {
	s := blockEnd.ReplaceAllString(fragment, "\n\n")
	s = html.UnescapeString(anyTag.ReplaceAllString(s, ""))
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(manyNL.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// mailError is a message that cannot be written as mail: the newsletter's subject (a control
// character) is the caller's to mend.
func mailError(err error) error {
	if api.AsError(err).Status < 500 {
		return err
	}
	if errors.Is(err, mail.ErrInvalid) {
		return api.FieldError(http.StatusBadRequest, "subject", "The subject cannot be sent as it is: remove line breaks and control characters.")
	}
	return err
}
