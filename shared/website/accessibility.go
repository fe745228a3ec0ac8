package website

import (
	"html/template"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/public"
)

// The accessibility statement (/accessibility, issue 37): a page every site has, linked from
// every theme's footer, in the form public-sector bodies publish (the EU model statement's
// parts: compliance status, known exceptions, feedback and contact, enforcement, preparation),
// from the site settings staff fill in, with a feedback form that posts like the other website
// forms (honeypot, per-client limit) and reaches staff as a panel notification.

// StatementPath is the statement's address on every site.
const StatementPath = "/accessibility"

// statementData is the statement template's data.
type statementData struct {
	Name, Contact, Exceptions, ReviewedAt string
	// ContactIsEmail says Contact is an email address (a mailto: link), else a phone number or
	// other text.
	ContactIsEmail       bool
	Message, Page, Email string
	Errors               map[string]string
	Sent                 bool
	// Settings are the site settings the statement is drawn from (their fallbackFields);
	// ContactHTML is the contact as a page shows it (a mailto: link for an email address).
	Settings    public.Record
	ContactHTML template.HTML
	// WCAGLink and EndLink open and close the link to WCAG 2.1 in the statement's sentences.
	WCAGLink, EndLink template.HTML
}

func (s *Server) statementData(q *req) (*statementData, error) {
	set, err := s.load(q, public.Want{})
	if err != nil {
		return nil, err
	}
	st := set.Settings.SiteSettings
	d := &statementData{Name: q.site.Tenant.Name, Contact: str(st["accessibilityContact"]), Exceptions: str(st["accessibilityExceptions"]),
		ReviewedAt: str(st["accessibilityReviewedAt"]), Errors: map[string]string{}, Settings: st,
		WCAGLink: `<a href="https://www.w3.org/TR/WCAG21/">`, EndLink: `</a>`}
	d.ContactIsEmail = formats.Email(d.Contact)
	e := template.HTMLEscapeString(d.Contact)
	d.ContactHTML = template.HTML(e) //nolint:gosec // escaped
	if d.ContactIsEmail {
		d.ContactHTML = template.HTML(`<a href="mailto:` + e + `">` + e + `</a>`) //nolint:gosec // a valid email address, escaped
	}
	if t, err := time.Parse(time.DateOnly, d.ReviewedAt); err == nil {
		d.ReviewedAt = q.loc.LongDate(t)
	}
	return d, nil
}

// statement serves GET /accessibility (?sent=1 after feedback was taken).
func (s *Server) statement(q *req) (*view, error) {
	d, err := s.statementData(q)
	if err != nil {
		return nil, err
	}
	d.Sent = q.r.URL.Query().Get("sent") == "1"
	d.Page = q.r.URL.Query().Get("page")
	return &view{Body: "accessibility", Title: q.T("statement.title"), Data: d, NoIndex: d.Sent}, nil
}

// feedback takes POST /accessibility: taken → 303 to the statement with a thank-you; refused →
// the statement again with each error beside its field and what was typed kept.
func (s *Server) feedback(q *req) (*view, error) {
	d, err := s.statementData(q)
	if err != nil {
		return nil, err
	}
	values, err := postedForm(q)
	if err != nil {
		return nil, err
	}
	d.Message, d.Page, d.Email = values.Get("message"), values.Get("page"), values.Get("email")
	var gotcha any
	if g := values.Get("_gotcha"); g != "" {
		gotcha = g
	}
	err = s.read.SendFeedback(q.r.Context(), q.site, public.ClientAddress(q.r), public.Feedback{Message: d.Message, Page: d.Page, Email: d.Email, Gotcha: gotcha}, s.opts.Limit)
	if err == nil {
		http.Redirect(q.w, q.r, q.loc.Href(StatementPath)+"?sent=1#feedback", http.StatusSeeOther)
		return nil, errHandled
	}
	e := api.AsError(err)
	if e.Status >= 500 {
		return nil, err
	}
	d.Errors = e.Fields
	if d.Errors == nil {
		d.Errors = map[string]string{"message": e.Message}
	}
	return &view{Body: "accessibility", Title: q.T("statement.title"), Data: d, Private: true, NoIndex: true, Status: e.Status}, nil
}
