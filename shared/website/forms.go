package website

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/public"
)

// maxFormBody bounds a posted form (forms hold text; files are not taken by HTML post).
const maxFormBody = 64 << 10

// formView is a custom form as the website draws it: its fields with what the visitor typed
// and each field's error, so a refused post re-renders with nothing lost.
type formView struct {
	Form   forms.Form
	Fields []fieldView
	Error  string
	Done   bool
	// L is the page's language.
	L *locale
}

// fieldView is one field of a formView.
type fieldView struct {
	forms.Field
	// Name is the input's name: the field's id, so labels may hold any text.
	Name    string
	Value   string
	Checked map[string]bool
	Error   string
}

func newFormView(l *locale, f forms.Form, values map[string][]string, errs map[string]string) *formView {
	fv := &formView{Form: f, L: l}
	for _, fd := range f.Fields {
		x := fieldView{Field: fd, Name: "f_" + fd.ID, Checked: map[string]bool{}, Error: errs[fd.Label]}
		for _, v := range values[x.Name] {
			x.Checked[v] = true
		}
		if vs := values[x.Name]; len(vs) > 0 {
			x.Value = vs[0]
		}
		fv.Fields = append(fv.Fields, x)
	}
	return fv
}

// formPage serves /forms/{id}: the form on its own page (?sent=1 after a post that was taken).
func (s *Server) formPage(q *req) (*view, error) {
	f, err := s.pathForm(q)
	if err != nil {
		return nil, err
	}
	fv := newFormView(q.loc, f, nil, nil)
	fv.Done = q.r.URL.Query().Get("sent") == "1"
	return &view{Body: "form", Title: f.Name, Description: f.Description, Data: fv, NoIndex: fv.Done}, nil
}

// submitForm takes POST /forms/{id} as an HTML form: the public API's rules (honeypot, per-client
// limit, the forms package's validation); taken → 303 to the form's page with a thank-you,
// refused → the form again with each error beside its field and what was typed kept.
func (s *Server) submitForm(q *req) (*view, error) {
	f, err := s.pathForm(q)
	if err != nil {
		return nil, err
	}
	values, err := postedForm(q)
	if err != nil {
		return nil, err
	}
	body := map[string]json.RawMessage{}
	for _, fd := range f.Fields {
		vs := values["f_"+fd.ID]
		var raw []byte
		if fd.FieldType == "checkbox" {
			raw, _ = json.Marshal(nonEmpty(vs))
		} else if len(vs) > 0 && strings.TrimSpace(vs[0]) != "" {
			raw, _ = json.Marshal(strings.TrimSpace(vs[0]))
		} else {
			continue
		}
		body[fd.Label] = raw
	}
	if g := values.Get(public.Honeypot); g != "" {
		body[public.Honeypot], _ = json.Marshal(g)
	}
	_, err = s.read.Submit(q.r.Context(), q.site, public.ClientAddress(q.r), f.ID, body, s.opts.Limit)
	if err == nil {
		http.Redirect(q.w, q.r, q.loc.Href("/forms/"+f.ID)+"?sent=1", http.StatusSeeOther)
		return nil, errHandled
	}
	e := api.AsError(err)
	if e.Status >= 500 || e.Status == http.StatusNotFound {
		return nil, err
	}
	var rl *public.RateLimited
	if errors.As(err, &rl) {
		q.w.Header().Set("Retry-After", strconv.Itoa(rl.RetryAfter))
	}
	fv := newFormView(q.loc, f, values, e.Fields)
	fv.Error = e.Message
	return &view{Body: "form", Title: f.Name, Description: f.Description, Data: fv, Status: e.Status, Private: true}, nil
}

// subscribe takes the footer's newsletter signup as an HTML form and answers with a page that
// says what happened (the same words for a new and a known address).
func (s *Server) subscribe(q *req) (*view, error) {
	if _, err := s.load(q, public.Want{}); err != nil {
		return nil, err
	}
	values, err := postedForm(q)
	if err != nil {
		return nil, err
	}
	var gotcha any
	if g := values.Get(public.Honeypot); g != "" {
		gotcha = g
	}
	_, err = s.read.Subscribe(q.r.Context(), q.site, public.ClientAddress(q.r), values.Get("email"), gotcha, s.opts.Limit)
	v := &view{Body: "message", Title: q.T("newsletter.title"), Private: true, NoIndex: true, Flash: public.SignupThanks}
	if err != nil {
		e := api.AsError(err)
		if e.Status >= 500 {
			return nil, err
		}
		v.Status, v.Flash, v.FlashBad = e.Status, e.Message, true
	}
	return v, nil
}

// postedForm parses an url-encoded body of at most maxFormBody bytes.
func postedForm(q *req) (url.Values, error) {
	q.r.Body = http.MaxBytesReader(q.w, q.r.Body, maxFormBody)
	if err := q.r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, api.Errorf(http.StatusRequestEntityTooLarge, "The form is too large.")
		}
		return nil, api.Errorf(http.StatusBadRequest, "The form could not be read.")
	}
	return q.r.PostForm, nil
}

func nonEmpty(vs []string) []string {
	out := []string{}
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

// pathForm reads the site's settings and the visible form the path names; a hidden or unknown
// form is the themed 404.
func (s *Server) pathForm(q *req) (forms.Form, error) {
	if _, err := s.load(q, public.Want{}); err != nil {
		return forms.Form{}, err
	}
	f, err := s.read.Form(q.r.Context(), q.site, q.r.PathValue("id"))
	if err != nil {
		return forms.Form{}, notFoundIf404(err)
	}
	return f, nil
}

// notFoundIf404 turns a read's 404 (a hidden form) into the themed 404.
func notFoundIf404(err error) error {
	if api.AsError(err).Status == http.StatusNotFound {
		return errNotFound
	}
	return err
}
