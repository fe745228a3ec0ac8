package public

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
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
	// FallbackFields, read in another language: name, description shown in the default one.
	FallbackFields []string `json:"fallbackFields,omitempty"`
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
	// FallbackFields, read in another language: label, hint, options shown in the default one.
	FallbackFields []string `json:"fallbackFields,omitempty"`
}

type publicOption struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Form reads a visible form of the site's tenant, in the site's language (localizeForm); a
// hidden or unknown one is a 404. One GetItem.
func (r *Reader) Form(ctx context.Context, site *Site, id string) (forms.Form, error) {
	f, err := r.defaultForm(ctx, site, id)
	if err != nil {
		return forms.Form{}, err
	}
	return r.localizeForm(site, f), nil
}

// localizeForm is f in the site's language: its name and description as a record's translatable
// fields are (Form.Fallback naming those without a published translation), each field's label,
// hint and option names from its translations (Field.Fallback). A form is never left out for a
// missing translation: it is shown in the default language, marked. The stored translations
// never leave.
func (r *Reader) localizeForm(site *Site, f forms.Form) forms.Form {
	if !site.inOtherLanguage() {
		f.Translations = nil
		return f
	}
	rec := Record{"name": f.Name, "description": f.Description, collections.TranslationsField: f.Translations}
	loc, ok := r.localize(site, "custom-forms", rec)
	if ok {
		f.Name, _ = loc["name"].(string)
		f.Description, _ = loc["description"].(string)
		f.Fallback = fieldList(loc[FieldFallback])
	} else {
		f.Fallback = []string{}
		for _, name := range []string{"name", "description"} {
			if rec[name] != "" {
				f.Fallback = append(f.Fallback, name)
			}
		}
	}
	f.Translations, f.Lang = nil, site.Lang
	fields := make([]forms.Field, len(f.Fields))
	for i, fd := range f.Fields {
		fields[i] = fd.Localized(site.Lang)
		fields[i].Translations = nil
	}
	f.Fields = fields
	return f
}

func fieldList(v any) []string {
	out := []string{}
	switch x := v.(type) {
	case []string:
		out = append(out, x...)
	case []any:
		for _, s := range x {
			if str, ok := s.(string); ok {
				out = append(out, str)
			}
		}
	}
	return out
}

// defaultForm reads a visible form as stored (its default texts and translations).
func (r *Reader) defaultForm(ctx context.Context, site *Site, id string) (forms.Form, error) {
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
	var toShown map[string]string
	if site.inOtherLanguage() {
		// Sent in the site's language: the answers are stored as ever, by the default labels
		// and option names; errors come back under the labels the visitor was shown.
		f, err := r.defaultForm(ctx, site, id)
		if err != nil {
			return nil, err
		}
		body, toShown = defaultAnswers(f, site.Lang, body)
	}
	// Strongly consistent: the submission is checked against the form's version as read.
	// Recorded as a visitor's (no user; the client's address in the audit entry).
	sub, err := r.forms.Submit(ctx, &auth.Caller{Scope: site.Scope, Client: audit.Client{Address: client}}, id, body)
	if err != nil {
		return nil, shownErrors(err, toShown)
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
		Fields: make([]publicField, len(f.Fields)), FallbackFields: f.Fallback}
	for i, fd := range f.Fields {
		pf := publicField{ID: fd.ID, Label: fd.Label, FieldType: fd.FieldType, Required: fd.Required, Hint: fd.Hint, FallbackFields: fd.Fallback}
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

// defaultAnswers renames a submission sent in lang (its keys the translated labels, its choices
// the translated option names) to the form's default labels and option names, as submissions
// are stored; a key or choice already in the default language stays. toShown maps each default
// label back to the one shown, for the errors.
func defaultAnswers(f forms.Form, lang string, body map[string]json.RawMessage) (map[string]json.RawMessage, map[string]string) {
	out := make(map[string]json.RawMessage, len(body))
	toShown := map[string]string{}
	byLabel := map[string]forms.Field{}
	for _, fd := range f.Fields {
		byLabel[fd.Label] = fd
	}
	shown := map[string]forms.Field{}
	for _, fd := range f.Fields {
		loc := fd.Localized(lang)
		if _, clash := byLabel[loc.Label]; !clash || loc.Label == fd.Label {
			shown[loc.Label] = fd
		}
		toShown[fd.Label] = loc.Label
	}
	for key, raw := range body {
		fd, isDefault := byLabel[key]
		if !isDefault {
			var found bool
			if fd, found = shown[key]; !found {
				out[key] = raw // refused by the validation as ever
				continue
			}
		}
		out[fd.Label] = defaultChoices(fd, lang, raw)
	}
	return out, toShown
}

// defaultChoices turns a choice field's translated option names into the default ones.
func defaultChoices(fd forms.Field, lang string, raw json.RawMessage) json.RawMessage {
	if len(fd.Options) == 0 {
		return raw
	}
	names := map[string]string{}
	for i, o := range fd.Localized(lang).Options {
		names[o.Name] = fd.Options[i].Name
	}
	for _, o := range fd.Options {
		names[o.Name] = o.Name
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if def, ok := names[one]; ok {
			out, _ := json.Marshal(def)
			return out
		}
		return raw
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		for i, v := range many {
			if def, ok := names[v]; ok {
				many[i] = def
			}
		}
		out, _ := json.Marshal(many)
		return out
	}
	return raw
}

// shownErrors keys a refused submission's field errors by the labels the visitor was shown.
func shownErrors(err error, toShown map[string]string) error {
	var e *api.Error
	if len(toShown) == 0 || !errors.As(err, &e) || len(e.Fields) == 0 {
		return err
	}
	out := *e
	out.Fields = make(map[string]string, len(e.Fields))
	for k, msg := range e.Fields {
		if shown, ok := toShown[k]; ok {
			k = shown
		}
		out.Fields[k] = msg
	}
	return &out
}
