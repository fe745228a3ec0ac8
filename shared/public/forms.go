package public

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/ids"
)

var errNoForm = &api.Error{Status: http.StatusNotFound, Message: "Form not found!"}

// formThanks answers every accepted submission, stored or trapped, so a bot cannot tell the two
// apart.
const formThanks = "Thank you! Your response has been submitted."

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

// activeForm reads an active form of the site's tenant; inactive or unknown is a 404.
func (s *Service) activeForm(r *http.Request, st *site, id string) (forms.Form, error) {
	if !ids.Valid(id) {
		return forms.Form{}, errNoForm
	}
	f, err := forms.LoadForm(r.Context(), s.st, st.scope, id)
	if err != nil {
		return forms.Form{}, err
	}
	if !f.Active {
		return forms.Form{}, errNoForm
	}
	return f, nil
}

// form serves GET /forms/{id}: an active form's public definition. Two DynamoDB calls: tenant,
// form.
func (s *Service) form(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	f, err := s.activeForm(r, st, r.PathValue("id"))
	if err != nil {
		return err
	}
	out := publicForm{ID: f.ID, Name: f.Name, Description: f.Description, Image: s.views.mediaURL(st, f.Image),
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

// submitForm serves POST /forms/{id}/submissions {<label>: value, …, _gotcha}: a filled honeypot
// is answered like a success with nothing stored; otherwise the per-client, per-form rate limit,
// then the forms package's validation and storage (the same as the panel's). The answer names
// only the submission's id and time: never the staff's checked flag.
func (s *Service) submitForm(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	id := r.PathValue("id")
	if !ids.Valid(id) {
		return errNoForm
	}
	var body map[string]json.RawMessage
	if err := api.Decode(r, &body); err != nil {
		return err
	}
	var gotcha any
	if raw, ok := body[Honeypot]; ok {
		_ = json.Unmarshal(raw, &gotcha)
		delete(body, Honeypot)
	}
	if trapped(gotcha) {
		return api.JSON(w, http.StatusCreated, api.Envelope{Message: formThanks,
			Result: map[string]string{"id": ids.New(), "createdAt": time.Now().UTC().Format(time.RFC3339Nano)}})
	}
	// The form id comes from the path; a formId in the body could only disagree with it.
	delete(body, "formId")
	if err := s.allow(r.Context(), w, r, st.scope, "FORM#"+id, s.limit); err != nil {
		return err
	}
	sub, err := forms.Submit(r.Context(), s.st, st.scope, id, body)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Message: formThanks,
		Result: map[string]any{"id": sub["id"], "createdAt": sub["createdAt"]}})
}
