package forms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// Size limits of submitted values, well below DynamoDB's 400 KB item limit even with 100 fields.
const (
	maxShortValue = 500
	maxLongValue  = 2_000
)

// Form is what a submission is checked against (a custom form's id, version, status and fields),
// with the name, description and cover image the public website shows above it.
type Form struct {
	ID          string
	Name        string
	Description string
	Image       string // media reference ("{ulid}/{name}")
	Active      bool
	Version     int64
	Fields      []Field
	// NotifyEmails are the addresses each submission is mailed to; AutoReplySubject and
	// AutoReplyMessage the reply mailed to the submitter's address (none when the message is
	// empty or the form has no email field).
	NotifyEmails     []string
	AutoReplySubject string
	AutoReplyMessage string
	// Translations are the record's translations of its name and description (collections'
	// translations: the public reader localizes them); Fallback, on a form read in another
	// language, names those shown in the default language. Lang is the language the form was
	// read in ("" the default).
	Translations map[string]any
	Fallback     []string
	Lang         string
}

// formRecord is the stored custom-forms record, as far as submissions need it.
type formRecord struct {
	ID          string `dynamo:"id"`
	Name        string `dynamo:"name"`
	Description string `dynamo:"description"`
	Image       string `dynamo:"image"`
	Status      bool   `dynamo:"status"`
	Version     int64  `dynamo:"version"`
	Fields      string `dynamo:"fields"`
	// The form's mail (collections.json: custom-forms).
	NotifyEmails     []string       `dynamo:"notifyEmails"`
	AutoReplySubject string         `dynamo:"autoReplySubject"`
	AutoReplyMessage string         `dynamo:"autoReplyMessage"`
	Translations     map[string]any `dynamo:"translations"`
}

// LoadForm reads a form of the scope's tenant; 404 "Form not found!" when there is none.
func LoadForm(ctx context.Context, st *store.Store, scope store.Scope, formID string) (Form, error) {
	if !ids.Valid(formID) {
		return Form{}, errFormNotFound
	}
	var rec formRecord
	err := st.Get(ctx, formKey(scope, formID), &rec)
	if store.IsNotFound(err) {
		return Form{}, errFormNotFound
	}
	if err != nil {
		return Form{}, err
	}
	fields, err := ParseFields(rec.Fields)
	if err != nil {
		return Form{}, fmt.Errorf("forms: stored fields of %s: %w", formID, err)
	}
	return Form{ID: rec.ID, Name: rec.Name, Description: rec.Description, Image: rec.Image, Active: rec.Status,
		Version: rec.Version, Fields: fields, NotifyEmails: rec.NotifyEmails, AutoReplySubject: rec.AutoReplySubject,
		AutoReplyMessage: rec.AutoReplyMessage, Translations: rec.Translations}, nil
}

// ValidateSubmission checks a submission body ({formId, <label>: value, …}) against the form's
// fields and returns the values to store, by label: a required field must have a value ('{label}
// is required!'), select and radio values are option names, checkbox values a list of option
// names, dates YYYY-MM-DD, files a reference to the tenant's media library ("{ulid}/{name}", as
// mediaref.Normalize returns it; Submit checks the file exists), and keys that are not a field's
// label are refused. Errors are a 400 whose fields are keyed by label.
func ValidateSubmission(scope store.Scope, form Form, body map[string]json.RawMessage) (map[string]any, error) {
	errs := map[string]string{}
	var order []string
	fail := func(key, msg string) {
		errs[key] = msg
		order = append(order, key)
	}
	byLabel := make(map[string]bool, len(form.Fields))
	for _, f := range form.Fields {
		byLabel[f.Label] = true
	}
	var unknown []string
	for k := range body {
		if k != "formId" && !byLabel[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		fail(k, fmt.Sprintf("%q is not a field of this form.", k))
	}
	values := map[string]any{}
	for _, f := range form.Fields {
		v, msg := fieldValue(scope, f, body[f.Label])
		switch {
		case msg != "":
			fail(f.Label, msg)
		case v == nil && f.Required:
			fail(f.Label, f.Label+" is required!")
		case v != nil:
			values[f.Label] = v
		}
	}
	if len(errs) > 0 {
		return nil, api.BadRequest(errs, order...)
	}
	return values, nil
}

// fieldValue converts one submitted value: nil for an empty one, or a user-facing message.
func fieldValue(scope store.Scope, f Field, raw json.RawMessage) (any, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	if f.FieldType == TypeCheckbox {
		return checkboxValue(f, raw)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, f.Label + " must be text."
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, ""
	}
	switch f.FieldType {
	case TypeText:
		if len(s) > maxShortValue {
			return nil, fmt.Sprintf("%s must be at most %d characters.", f.Label, maxShortValue)
		}
	case TypeEmail:
		// Kept as typed (a bad address is the visitor's to fix with staff): one that mail cannot
		// be sent to only means no Reply-To and no auto-reply (submitterAddress).
		if len(s) > mail.MaxAddressLength {
			return nil, fmt.Sprintf("%s must be at most %d characters.", f.Label, mail.MaxAddressLength)
		}
	case TypeTextarea:
		if len(s) > maxLongValue {
			return nil, fmt.Sprintf("%s must be at most %d characters.", f.Label, maxLongValue)
		}
	case TypeDate:
		if _, err := time.Parse(time.DateOnly, s); err != nil || !formats.Date(s) {
			return nil, f.Label + " must be a date (YYYY-MM-DD)."
		}
	case TypeSelect, TypeRadio:
		if !hasOption(f, s) {
			return nil, fmt.Sprintf("%s must be one of: %s.", f.Label, optionNames(f))
		}
	case TypeFile:
		ref, err := mediaref.Normalize(scope, s)
		if err != nil {
			return nil, f.Label + " must be a file uploaded to this institution's media library."
		}
		return ref, ""
	}
	return s, ""
}

// checkboxValue accepts a list of option names (or one name), kept in the options' order.
func checkboxValue(f Field, raw json.RawMessage) (any, string) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if json.Unmarshal(raw, &one) != nil {
			return nil, f.Label + " must be a list of options."
		}
		list = []string{one}
	}
	chosen := map[string]bool{}
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !hasOption(f, s) {
			return nil, fmt.Sprintf("%s: %q is not one of: %s.", f.Label, s, optionNames(f))
		}
		chosen[s] = true
	}
	if len(chosen) == 0 {
		return nil, ""
	}
	out := make([]string, 0, len(chosen))
	for _, o := range f.Options {
		if chosen[o.Name] {
			out = append(out, o.Name)
		}
	}
	return out, ""
}

func hasOption(f Field, name string) bool {
	for _, o := range f.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

func optionNames(f Field) string {
	names := make([]string, len(f.Options))
	for i, o := range f.Options {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// Submit validates a submission body against the form it names (formID) and stores it as caller
// (a member of staff, or a visitor of the website: no user, the client's address) with both
// counters, what records it (its words and audit entry) and the mail it causes (Submitter) in one
// transaction; an unknown or inactive form is a 404. The staff route and the public website's
// route both call it, through a Submitter that also links the notification to the panel and
// nudges the mail worker; this function does neither (the worker's next sweep sends the mail).
func Submit(ctx context.Context, st *store.Store, caller *auth.Caller, formID string, body map[string]json.RawMessage) (Submission, error) {
	return Submitter{Store: st}.Submit(ctx, caller, formID, body)
}

// Submit is the package's Submit, with the submitter's mail settings.
func (s Submitter) Submit(ctx context.Context, caller *auth.Caller, formID string, body map[string]json.RawMessage) (Submission, error) {
	st := s.Store
	scope := caller.Scope
	form, err := LoadForm(ctx, st, scope, formID)
	if err != nil {
		return nil, err
	}
	if !form.Active {
		return nil, errFormNotFound
	}
	values, err := ValidateSubmission(scope, form, body)
	if err != nil {
		return nil, err
	}
	if err := checkFiles(ctx, st, scope, form, values); err != nil {
		return nil, err
	}
	id := ids.New()
	it := item{PK: submissionsPK(scope, form.ID), SK: id, ID: id, FormID: form.ID,
		CreatedAt: time.Now().UTC().Format(time.RFC3339Nano), Values: values}
	fx, err := effects(ctx, st, caller, collections.ActionCreate, item{}, it)
	if err != nil {
		return nil, err
	}
	outgoing, err := s.mailFor(ctx, scope, form, it)
	if err != nil {
		return nil, err
	}
	fk, ck := formKey(scope, form.ID), counterKey(scope, form.ID)
	// Items in this order; the index of the form's check is what a failed condition reports.
	tx := st.WriteTx().
		Check(st.Table.Check("PK", fk.PK).Range("SK", fk.SK).If("version = ? AND $ = ?", form.Version, "status", true)).
		Put(st.Table.Put(it).If("attribute_not_exists(PK)")).
		Update(st.Table.Update("PK", ck.PK).Range("SK", ck.SK).Add("count", 1).Add("unchecked", 1)).
		Update(st.AddToCounter(scope, store.CountUncheckedFormSubmission, 1))
	// Found by its values, and audited: in the same transaction.
	fx.AddTo(st, scope, tx)
	// Its mail too (at most MaxSubmitMail items): written exactly when the submission is.
	keys := make([]store.Key, len(outgoing))
	for i, o := range outgoing {
		tx.Put(o.Put)
		keys[i] = o.Key
	}
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return nil, errFormChanged
	}
	if err != nil {
		return nil, store.Wrap("submit form", err)
	}
	if len(keys) > 0 && s.Nudger != nil {
		// After the commit, best effort: a nudge lost is mail the next sweep sends.
		s.Nudger.Nudge(ctx, keys...)
	}
	return it.view(), nil
}

var errFormChanged = &api.Error{Status: http.StatusConflict, Message: "This form was changed or closed while you were filling it in. Reload it and try again."}

// checkFiles makes sure every file value names a media record of the tenant (one batch read).
func checkFiles(ctx context.Context, st *store.Store, scope store.Scope, form Form, values map[string]any) error {
	var keys []store.Key
	var labels []string
	for _, f := range form.Fields {
		if ref, ok := values[f.Label].(string); ok && f.FieldType == TypeFile {
			keys = append(keys, mediaref.RecordKey(scope, ref))
			labels = append(labels, f.Label)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	found, err := st.GetMany(ctx, keys...)
	if err != nil {
		return err
	}
	for i, k := range keys {
		var rec struct {
			FileURL string `dynamo:"fileUrl"`
		}
		ok, err := store.Decode(found, k, &rec)
		if err != nil {
			return err
		}
		if !ok || rec.FileURL != values[labels[i]] {
			return api.FieldError(http.StatusBadRequest, labels[i], labels[i]+" must be a file uploaded to this institution's media library.")
		}
	}
	return nil
}
