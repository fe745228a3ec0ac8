package public

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/ids"
)

var errNoForm = &api.Error{Status: http.StatusNotFound, Message: "Form not found!"}

// FormThanks answers every accepted submission, stored or trapped, so a bot cannot tell the two
// apart.
const FormThanks = "Thank you! Your response has been submitted."

// publicForm is the website's view of a custom form: what a visitor needs to fill it in, never
// its version, status or other internal fields.
type publicForm struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Image       string        `json:"image"`
	Fields      []publicField `json:"fields"`
}

// publicField is an allow-listed copy of forms.Field, so a property added to form fields later
// does not reach the website unless it is listed here.
type publicField struct {
	ID        string         `json:"id"`
	Label     string         `json:"label"`
	FieldType string         `json:"fieldType"`
	Required  bool           `json:"required"`
	Hint      string         `json:"hint"`
	Options   []publicOption `json:"options,omitempty"`
}

type publicOption struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Form reads a visible form of the site's tenant; a hidden or unknown one is a 404. One GetItem.
func (r *Reader) Form(ctx context.Context, site *Site, id string) (forms.Form, error) {
	if !ids.Valid(id) {
		return forms.Form{}, errNoForm
	}
	f, err := forms.LoadForm(ctx, r.st, site.Scope, id)
	if err != nil {
		return forms.Form{}, err
	}
	if !Visible("custom-forms", Record{"status": f.Active}, r.Now()) {
		return forms.Form{}, errNoForm
	}
	return f, nil
}

// Submit takes a visitor's submission of form id: a filled honeypot is answered like a success
// with nothing stored; otherwise the per-client, per-form rate limit, then the forms package's
// validation, storage and mail (the same as the panel's). It returns the submission's id and time.
// A refused one is an *api.Error (400 with errors by field label, 404, 429 with its RetryAfter).
func (r *Reader) Submit(ctx context.Context, site *Site, client, id string, body map[string]json.RawMessage, lim Limit) (Record, error) {
	if !ids.Valid(id) {
		return nil, errNoForm
	}
	var gotcha any
	if raw, ok := body[Honeypot]; ok {
		_ = json.Unmarshal(raw, &gotcha)
		delete(body, Honeypot)
	}
	if trapped(gotcha) {
		return Record{"id": ids.New(), "createdAt": time.Now().UTC().Format(time.RFC3339Nano)}, nil
	}
	// The form id comes from the path; a formId in the body could only disagree with it.
	delete(body, "formId")
	if err := r.Allow(ctx, site, client, "FORM#"+id, lim); err != nil {
		return nil, err
	}
	// Strongly consistent: the submission is checked against the form's version as read.
	// Recorded as a visitor's (no user; the client's address in the audit entry).
	sub, err := r.forms.Submit(ctx, &auth.Caller{Scope: site.Scope, Client: audit.Client{Address: client}}, id, body)
	if err != nil {
		return nil, err
	}
	return Record{"id": sub["id"], "createdAt": sub["createdAt"]}, nil
}

// form serves GET /forms/{id}: an active form's public definition. Two DynamoDB calls: tenant,
// form.
func (s *Service) form(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	f, err := s.read.Form(r.Context(), st, r.PathValue("id"))
	if err != nil {
		return err
	}
	out := publicForm{ID: f.ID, Name: f.Name, Description: f.Description, Image: st.mediaURL(f.Image),
		Fields: make([]publicField, len(f.Fields))}
	for i, fd := range f.Fields {
		pf := publicField{ID: fd.ID, Label: fd.Label, FieldType: fd.FieldType, Required: fd.Required, Hint: fd.Hint}
		for _, o := range fd.Options {
			pf.Options = append(pf.Options, publicOption{ID: o.ID, Name: o.Name})
		}
		out.Fields[i] = pf
	}
	return writeJSON(w, r, api.Envelope{Result: out})
}

// submitForm serves POST /forms/{id}/submissions {<label>: value, …, _gotcha} (see Submit). The
// answer names only the submission's id and time: never the staff's checked flag.
func (s *Service) submitForm(w http.ResponseWriter, r *http.Request) error {
	var body map[string]json.RawMessage
	if err := api.Decode(r, &body); err != nil {
		return err
	}
	sub, err := s.read.Submit(r.Context(), siteFrom(r.Context()), ClientAddress(r), r.PathValue("id"), body, s.limit)
	if err != nil {
		return withRetryAfter(w, err)
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Message: FormThanks, Result: sub})
}
