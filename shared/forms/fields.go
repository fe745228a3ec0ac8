// Package forms holds the rules of custom forms (SPEC §3, §4, §7): the validation of a form's
// fields and the permanent ids of new ones (hooks of the custom-forms collection), and the form
// submissions: their validation, storage per form, the unchecked counter and the CSV export.
package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
)

// Field types of a custom form (SPEC §3 "Custom form field types").
const (
	TypeText     = "text"
	TypeTextarea = "textarea"
	TypeDate     = "date"
	TypeFile     = "file"
	TypeSelect   = "select"
	TypeRadio    = "radio"
	TypeCheckbox = "checkbox"
	// TypeEmail is the visitor's email address: the first one of a form is where staff's replies
	// to its notification go (Reply-To) and where its auto-reply is sent.
	TypeEmail = "email"
)

// Limits of a form's fields.
const (
	MaxFields     = 100
	MaxOptions    = 100
	maxLabel      = 200
	maxHint       = 500
	maxOptionName = 200
	// NewIDPrefix marks the temporary id of a field or option the builder has just added.
	NewIDPrefix = "NEW_"
)

// withOptions tells, per known type, whether its fields carry options.
var withOptions = map[string]bool{TypeText: false, TypeTextarea: false, TypeDate: false, TypeFile: false,
	TypeSelect: true, TypeRadio: true, TypeCheckbox: true, TypeEmail: false}

// reservedLabels are the keys a submission carries beside its values: a field labelled so would
// be indistinguishable from them in the submission's flat JSON.
var reservedLabels = map[string]bool{"id": true, "formid": true, "createdat": true, "checked": true}

// Option is one choice of a select, radio or checkbox field.
type Option struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Field is one field of a custom form (SPEC §3 "Form field").
type Field struct {
	ID        string   `json:"id"`
	Label     string   `json:"label"`
	FieldType string   `json:"fieldType"`
	Required  bool     `json:"required"`
	Hint      string   `json:"hint"`
	Options   []Option `json:"options,omitempty"`
	// Translations are the field's texts in other languages (translations.go), JSON.
	Translations json.RawMessage `json:"translations,omitempty"`
	// Fallback, on a field read in another language (Localized), names the texts shown in the
	// default language: "label", "hint", "options". Never stored.
	Fallback []string `json:"-"`
}

// HasOptions reports whether the field's type carries options.
func (f Field) HasOptions() bool { return withOptions[f.FieldType] }

// ParseFields reads a form's fields from their JSON text (empty text is no fields) without
// checking them; a malformed text is a 400 on "fields".
func ParseFields(text string) ([]Field, error) {
	if strings.TrimSpace(text) == "" {
		return []Field{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	var fields []Field
	if err := dec.Decode(&fields); err != nil {
		return nil, api.FieldError(http.StatusBadRequest, "fields",
			"Fields must be a list of {id, label, fieldType, required, hint, options, translations}.")
	}
	if fields == nil {
		fields = []Field{}
	}
	return fields, nil
}

// NormalizeFields checks a form's fields and returns them as stored: text trimmed, options only
// on the types that have them, and every temporary NEW_ id (field or option) replaced by a
// permanent one. Errors are a 400 naming each wrong field as "fields.{index}.{property}".
func NormalizeFields(fields []Field) ([]Field, error) {
	errs := map[string]string{}
	var order []string
	fail := func(key, msg string) {
		if _, dup := errs[key]; !dup {
			errs[key] = msg
			order = append(order, key)
		}
	}
	if len(fields) > MaxFields {
		return nil, api.FieldError(http.StatusBadRequest, "fields", fmt.Sprintf("A form can have at most %d fields.", MaxFields))
	}
	out := make([]Field, len(fields))
	labels := map[string]int{}
	seenIDs := map[string]bool{}
	for i, f := range fields {
		key := fmt.Sprintf("fields.%d.", i)
		name := fmt.Sprintf("Field %d", i+1)
		f.Label = strings.TrimSpace(f.Label)
		f.Hint = strings.TrimSpace(f.Hint)
		switch lower := strings.ToLower(f.Label); {
		case f.Label == "":
			fail(key+"label", name+": Label is required!")
		case len(f.Label) > maxLabel:
			fail(key+"label", fmt.Sprintf("%s: Label must be at most %d characters.", name, maxLabel))
		case reservedLabels[lower]:
			fail(key+"label", fmt.Sprintf("%s: %q is reserved; choose another label.", name, f.Label))
		default:
			if j, dup := labels[lower]; dup {
				fail(key+"label", fmt.Sprintf("%s: Label %q is already used by field %d.", name, f.Label, j+1))
			}
			labels[lower] = i
		}
		if len(f.Hint) > maxHint {
			fail(key+"hint", fmt.Sprintf("%s: Hint must be at most %d characters.", name, maxHint))
		}
		has, known := withOptions[f.FieldType]
		if !known {
			fail(key+"fieldType", fmt.Sprintf("%s: Field type must be one of text, textarea, date, file, select, radio, checkbox, email.", name))
		}
		var err string
		if f.ID, err = permanentID(f.ID, seenIDs); err != "" {
			fail(key+"id", name+": "+err)
		}
		switch {
		case has:
			f.Options, err = normalizeOptions(f.Options, seenIDs)
			if err != "" {
				fail(key+"options", name+": "+err)
			}
		case known && len(f.Options) > 0:
			fail(key+"options", fmt.Sprintf("%s: A %s field has no options.", name, f.FieldType))
		default:
			f.Options = nil
		}
		out[i] = f
	}
	if len(errs) > 0 {
		return nil, api.BadRequest(errs, order...)
	}
	return out, nil
}

// normalizeOptions checks a choice field's options: at least one, every name present and unique.
func normalizeOptions(opts []Option, seenIDs map[string]bool) ([]Option, string) {
	if len(opts) == 0 {
		return nil, "Add at least one option."
	}
	if len(opts) > MaxOptions {
		return nil, fmt.Sprintf("A field can have at most %d options.", MaxOptions)
	}
	out := make([]Option, len(opts))
	names := map[string]bool{}
	for i, o := range opts {
		o.Name = strings.TrimSpace(o.Name)
		switch {
		case o.Name == "":
			return nil, "Every option needs a name."
		case len(o.Name) > maxOptionName:
			return nil, fmt.Sprintf("Option names must be at most %d characters.", maxOptionName)
		case names[o.Name]:
			return nil, fmt.Sprintf("Option %q appears twice.", o.Name)
		}
		names[o.Name] = true
		var err string
		if o.ID, err = permanentID(o.ID, seenIDs); err != "" {
			return nil, "Option " + err
		}
		out[i] = o
	}
	return out, ""
}

// permanentID returns a new id for a temporary NEW_ (or missing) id, and keeps a permanent one,
// which must be well formed and unique within the form.
func permanentID(id string, seen map[string]bool) (string, string) {
	if id == "" || strings.HasPrefix(id, NewIDPrefix) {
		id = ids.New()
	} else if !ids.Valid(id) {
		return "", fmt.Sprintf("id %q must be a saved id or start with %s.", id, NewIDPrefix)
	}
	if seen[id] {
		return "", fmt.Sprintf("id %q appears twice.", id)
	}
	seen[id] = true
	return id, ""
}

// MarshalFields returns the stored JSON text of fields.
func MarshalFields(fields []Field) string {
	if fields == nil {
		fields = []Field{}
	}
	b, _ := json.Marshal(fields)
	return string(b)
}
