package public

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/mail"
)

// Feedback is what a visitor sends from the website's accessibility statement (/accessibility):
// the problem, and optionally where it was and how to answer.
type Feedback struct {
	Message, Page, Email string
	// Gotcha is the honeypot field: filled in, the feedback is answered as taken and dropped.
	Gotcha any
}

// Feedback limits.
const (
	maxFeedback     = 5000
	maxFeedbackPage = 500
	// FeedbackTitle is the title of the panel notification a feedback becomes.
	FeedbackTitle = "Accessibility feedback"
)

// SendFeedback takes a visitor's accessibility feedback as a notification in the panel (the
// bell staff see), through the collections engine like every write: the honeypot and the
// per-client limit of the website's forms first; a message is required. Field errors are a 400
// keyed message, page and email.
func (r *Reader) SendFeedback(ctx context.Context, site *Site, client string, in Feedback, lim Limit) error {
	if trapped(in.Gotcha) {
		return nil
	}
	msg, page, email := strings.TrimSpace(in.Message), strings.TrimSpace(in.Page), strings.TrimSpace(in.Email)
	errs := map[string]string{}
	switch {
	case msg == "":
		errs["message"] = "Please tell us about the problem."
	case utf8.RuneCountInString(msg) > maxFeedback:
		errs["message"] = fmt.Sprintf("Please keep your message under %d characters.", maxFeedback)
	}
	if utf8.RuneCountInString(page) > maxFeedbackPage {
		errs["page"] = fmt.Sprintf("The page address must be at most %d characters.", maxFeedbackPage)
	}
	if email != "" && !mail.ValidAddress(email) {
		errs["email"] = "Please enter a valid email address, or leave it empty."
	}
	if len(errs) > 0 {
		return api.BadRequest(errs, "message", "page", "email")
	}
	if err := r.Allow(ctx, site, client, "accessibility-feedback", lim); err != nil {
		return err
	}
	var about []string
	if page != "" {
		about = append(about, "Page: "+page)
	}
	if email != "" {
		about = append(about, "Reply to: "+email)
	}
	c := r.reg["notifications"]
	if c == nil {
		return api.Errorf(http.StatusInternalServerError, "Feedback cannot be taken at the moment.")
	}
	visitor := &auth.Caller{Scope: site.Scope, Tenant: site.Tenant, Client: audit.Client{Address: client}}
	_, err := r.signups.Create(ctx, visitor, c, "", map[string]any{"title": FeedbackTitle, "message": msg,
		"description": strings.Join(about, "\n"), "type": "push"})
	return err
}
