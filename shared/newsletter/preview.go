package newsletter

import (
	"context"
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
)

// PreviewToken stands for a recipient's own token in a preview's unsubscribe link: the link goes
// to the website's unsubscribe page, which finds no such token and changes nothing.
const PreviewToken = "preview"

// Preview is a newsletter as a subscriber gets it: the HTML and text parts the send writes
// (newsletterMail: the same templates and sanitised content), with PreviewToken in place of the
// recipient's unsubscribe token, and who it is from.
type Preview struct {
	Subject        string `json:"subject"`
	FromName       string `json:"fromName"`
	ReplyTo        string `json:"replyTo,omitempty"`
	HTML           string `json:"html"`
	Text           string `json:"text"`
	UnsubscribeURL string `json:"unsubscribeUrl"`
}

// errMayNotWrite answers a draft's preview by someone who can write no newsletter.
var errMayNotWrite = api.ErrForbidden

// preview answers GET {path}/{id}/preview: the stored newsletter as its mail (a sent one as it
// was sent).
func (h newsletterHooks) preview(w http.ResponseWriter, r *http.Request, s *collections.Service, c *collections.Collection) error {
	caller := auth.CallerFrom(r.Context())
	rec, err := s.Load(r.Context(), caller.Scope, c, r.PathValue("id"))
	if err != nil {
		return err
	}
	return h.answerPreview(r.Context(), w, s, caller.Scope, rec)
}

// previewDraft answers POST {path}/preview {subject, content}: unsaved input, checked and
// sanitised as a save would (collections.Service.Values and the subject's rule), rendered as its
// mail, stored nowhere. Writing a newsletter (create or edit) is the right it needs.
func (h newsletterHooks) previewDraft(w http.ResponseWriter, r *http.Request, s *collections.Service, c *collections.Collection) error {
	caller := auth.CallerFrom(r.Context())
	if !caller.User.Can(c.Permission("CREATE")) && !caller.User.Can(c.Permission("EDIT")) {
		return errMayNotWrite
	}
	values, err := s.Values(r, c)
	if err != nil {
		return err
	}
	if err := checkSubject(toString(values["subject"])); err != nil {
		return err
	}
	return h.answerPreview(r.Context(), w, s, caller.Scope, values)
}

func (h newsletterHooks) answerPreview(ctx context.Context, w http.ResponseWriter, s *collections.Service, scope store.Scope, rec collections.Record) error {
	from, err := senderOf(ctx, s.Store(), scope, h.site)
	if err != nil {
		return err
	}
	unsubscribe := link(ctx, from.site, UnsubscribePath, PreviewToken)
	msg, err := newsletterMail(rec, from, "", unsubscribe)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: Preview{Subject: msg.Subject, FromName: msg.FromName, ReplyTo: msg.ReplyTo,
		HTML: msg.HTML, Text: msg.Text, UnsubscribeURL: unsubscribe}})
}

// CountMailEvent counts SES's events of a newsletter's mail on the newsletter (mail.Events.Count;
// the mail's campaign is the newsletter's id): a bounce adds one to bouncedCount, a complaint to
// complainedCount. The update is conditioned on the newsletter existing, so an event of a
// deleted one makes no record.
func CountMailEvent(st *store.Store) mail.CampaignCounter {
	fields := map[string]string{mail.ReasonBounce: "bouncedCount", mail.ReasonComplaint: "complainedCount"}
	return func(scope store.Scope, campaign, reason string) *dynamo.Update {
		field, ok := fields[reason]
		if !ok || !ids.Valid(campaign) {
			return nil
		}
		k := newsletterKey(scope, campaign)
		return st.Table.Update("PK", k.PK).Range("SK", k.SK).Add(field, 1).If("attribute_exists(PK)")
	}
}

// newsletterKey is the key of newsletter id's record.
func newsletterKey(scope store.Scope, id string) store.Key {
	return store.Key{PK: scope.Collection(NewslettersKind), SK: id}
}
