package collections

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// Size limits per type, far below DynamoDB's 400 KB item limit.
const (
	maxText     = 500
	maxLongText = 10_000
	maxRichText = 100_000
	maxJSON     = 100_000
	maxURL      = 2_000
)

// readOnly fields may be echoed back by a client; they are ignored, never stored.
var readOnly = map[string]bool{"id": true, "createdAt": true, "updatedAt": true}

// input is a decoded write: the declared fields present in the body and the version it names.
type input struct {
	raw     map[string]json.RawMessage
	version *int
	// wholeTranslations: the input is a kept state written back (a version, the trash, a draft
	// published), whose translations replace the record's instead of merging into them.
	wholeTranslations bool
}

// decodeInput reads a JSON object, refusing fields the collection does not declare.
func decodeInput(r *http.Request, c *Collection) (input, error) {
	var raw map[string]json.RawMessage
	if err := api.Decode(r, &raw); err != nil {
		return input{}, err
	}
	return inputOf(raw, c)
}

// inputOf sorts a decoded body into the declared fields and the version it names, refusing
// fields the collection does not declare.
func inputOf(raw map[string]json.RawMessage, c *Collection) (input, error) {
	in := input{raw: map[string]json.RawMessage{}}
	for name, v := range raw {
		switch {
		case name == "version":
			var n int
			if err := json.Unmarshal(v, &n); err != nil {
				return input{}, api.FieldError(http.StatusBadRequest, "version", `Field "version" must be a whole number.`)
			}
			in.version = &n
		case readOnly[name]:
		case name == TranslationsField && c.Translatable():
			in.raw[name] = v
		case name == TranslationStatusField && c.Translatable():
			// Worked out by the engine: a status sent back as read (an object, or null) is ignored.
			if t := bytes.TrimSpace(v); !bytes.HasPrefix(t, []byte("{")) && !bytes.Equal(t, []byte("null")) {
				return input{}, api.FieldError(http.StatusBadRequest, name, "Translation status is set by the server; leave it out.")
			}
		default:
			f, ok := c.Field(name)
			if !ok {
				return input{}, api.FieldError(http.StatusBadRequest, name, fmt.Sprintf("Field %q is not allowed here.", name))
			}
			if f.Derived {
				// Worked out by the engine: a value it could hold (a record sent back as read, a
				// restored version) is ignored, anything else is refused.
				if !derivedEcho(f, v) {
					return input{}, api.FieldError(http.StatusBadRequest, name, fmt.Sprintf("%s is set by the server; leave it out.", f.Label))
				}
				continue
			}
			in.raw[name] = v
		}
	}
	return in, nil
}

// derivedEcho reports whether v is null or a value derived field f can hold.
func derivedEcho(f Field, v json.RawMessage) bool {
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return true
	}
	if f.Type == TypeNumber {
		var n float64
		return json.Unmarshal(v, &n) == nil
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return false
	}
	if len(f.Options) == 0 {
		return len(s) <= maxText
	}
	return s == "" || slices.Contains(f.Options, s)
}

// converter turns raw JSON values into the typed values stored, per field type.
type converter struct {
	catalogue func() *catalogueIndex
	// sanitize makes rich text safe (Linked.RichText).
	sanitize func(html string) string
}

func newConverter(catalogue func() *catalogueIndex, sanitize func(string) string) *converter {
	return &converter{catalogue: catalogue, sanitize: sanitize}
}

// values converts every present field; on create, absent fields take their defaults. Required
// fields must end up non-empty. Messages follow SPEC §5: '{label} is required!'.
func (cv *converter) values(scope store.Scope, c *Collection, in input, create bool) (map[string]any, error) {
	out := map[string]any{}
	errs := map[string]string{}
	var order []string
	for _, f := range c.Fields {
		raw, present := in.raw[f.Name]
		if present && f.Transient {
			out[f.Name] = raw // the hooks read it
			continue
		}
		if !present {
			if create && f.Default != nil {
				out[f.Name] = f.Default
			}
			if create && f.Required && f.Default == nil {
				errs[f.Name] = f.Label + " is required!"
				order = append(order, f.Name)
			}
			continue
		}
		v, err := cv.convert(scope, f, raw)
		if err == "" {
			if e := checkRichTextSize(f, v, f.Name); e != nil {
				return nil, e
			}
		}
		if err == "" && f.Required && isEmpty(v) {
			err = f.Label + " is required!"
		}
		if err != "" {
			errs[f.Name] = err
			order = append(order, f.Name)
			continue
		}
		out[f.Name] = v
	}
	if raw, present := in.raw[TranslationsField]; present && c.Translatable() {
		tr, err := cv.translations(scope, c, raw, errs, &order)
		if err != nil {
			return nil, err
		}
		if tr != nil {
			out[TranslationsField] = tr
		}
	}
	for _, f := range c.Fields {
		if _, failed := errs[f.Name]; f.After == "" || failed {
			continue
		}
		if msg := checkAfter(f, c, out); msg != "" {
			errs[f.Name] = msg
			order = append(order, f.Name)
		}
	}
	if len(errs) > 0 {
		return nil, api.BadRequest(errs, order...)
	}
	return out, nil
}

// checkRichTextSize refuses (413, under key) a rich-text value past its size once sanitised: the
// sanitiser escapes (' becomes &#39;), so the stored text can be five times what was sent. A
// declared maxBytes replaces the default limit.
func checkRichTextSize(f Field, v any, key string) error {
	if f.Type != TypeRichText {
		return nil
	}
	limit := maxRichText
	if f.MaxBytes > 0 {
		limit = f.MaxBytes
	}
	if s, _ := v.(string); len(s) > limit {
		return api.FieldError(http.StatusRequestEntityTooLarge, key,
			fmt.Sprintf("%s is too large (at most %d KB once formatted).", f.Label, limit/1024))
	}
	return nil
}

// checkAfterStored checks the after rules (unpublishAt after publishAt) of an update that gives
// only one of the two dates against the record as it will be stored (rec: the stored record with
// the update's values): the other date is the stored one. A write giving both was checked by
// values already; one giving neither leaves the rule to the writes that set them (a record
// stored before the rule stays editable). The error is under the field the update sent.
func checkAfterStored(c *Collection, values map[string]any, rec Record) error {
	errs := map[string]string{}
	var order []string
	for _, f := range c.Fields {
		if f.After == "" {
			continue
		}
		_, mine := values[f.Name]
		_, theirs := values[f.After]
		if mine == theirs {
			continue
		}
		if msg := checkAfter(f, c, rec); msg != "" {
			field := f.Name
			if theirs {
				field = f.After
			}
			errs[field] = msg
			order = append(order, field)
		}
	}
	if len(errs) > 0 {
		return api.BadRequest(errs, order...)
	}
	return nil
}

// checkAfter is the message when datetime field f is not later than the field it must follow,
// both in out (a write's values, or with checkAfterStored the record as an update stores it).
func checkAfter(f Field, c *Collection, out map[string]any) string {
	v, _ := out[f.Name].(string)
	w, _ := out[f.After].(string)
	if v == "" || w == "" {
		return ""
	}
	t, err1 := time.Parse(time.RFC3339, v)
	u, err2 := time.Parse(time.RFC3339, w)
	if err1 != nil || err2 != nil || t.After(u) {
		return ""
	}
	other, _ := c.Field(f.After)
	return fmt.Sprintf("%s must be after %s.", f.Label, other.Label)
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []string:
		return len(x) == 0
	}
	return false
}

// convert returns the stored value of one field or a user-facing message.
func (cv *converter) convert(scope store.Scope, f Field, raw json.RawMessage) (any, string) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if f.Type == TypeBoolean {
			return false, ""
		}
		return nil, ""
	}
	switch f.Type {
	case TypeBoolean:
		return parseBool(raw, f.Label)
	case TypeNumber:
		return parseNumber(raw, f.Label)
	case TypePermissions:
		var codes []string
		if err := json.Unmarshal(raw, &codes); err != nil {
			return nil, f.Label + " must be a list of permission codes."
		}
		seen := map[string]bool{}
		out := []string{}
		for _, code := range codes {
			if cat := cv.catalogue(); !cat.offered[code] {
				return nil, refusedPermission(cat.list, code)
			}
			if !seen[code] {
				seen[code] = true
				out = append(out, code)
			}
		}
		return out, ""
	case TypeJSON:
		return parseJSONText(raw, f.Label, max(f.MaxBytes, maxJSON))
	case TypeEmails:
		return parseEmails(raw, f.Label)
	case TypeLanguages:
		return parseLanguages(raw, f.Label)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		// A select whose options are numbers (a redirect's "301" or "302") takes the number too;
		// it is stored as the option, text like every select's.
		var n json.Number
		if f.Type != TypeSelect || json.Unmarshal(raw, &n) != nil {
			return nil, f.Label + " must be text."
		}
		s = n.String()
	}
	if f.Type != TypePassword {
		s = strings.TrimSpace(s)
	}
	if s == "" {
		return "", ""
	}
	return cv.convertString(scope, f, s)
}

func (cv *converter) convertString(scope store.Scope, f Field, s string) (any, string) {
	tooLong := func(max int) string { return fmt.Sprintf("%s must be at most %d characters.", f.Label, max) }
	limit := func(def int) int {
		if f.MaxBytes > 0 {
			return f.MaxBytes
		}
		return def
	}
	switch f.Type {
	case TypeText:
		if len(s) > limit(maxText) {
			return nil, tooLong(limit(maxText))
		}
		if f.Format == FormatSlug && !formats.Slug(s) {
			return nil, f.Label + " may hold only lowercase letters, digits and hyphens (at most 100)."
		}
		if f.Format == FormatTel && s != "" && !formats.Phone(s) {
			return nil, f.Label + " must be a phone number: digits, spaces and + ( ) - . /, with an extension written as ext. 204 (at most 40 characters)."
		}
		if _, known := langs.Find(s); f.Format == FormatLanguage && !known {
			return nil, fmt.Sprintf("%s must be a language code from the list, such as en, fr or ar.", f.Label)
		}
		if f.Format == FormatTimeZone && !validZone(s) {
			return nil, f.Label + " must be a time zone name from the IANA database, such as Europe/London or America/New_York."
		}
	case TypeLongText:
		if len(s) > limit(maxLongText) {
			return nil, tooLong(limit(maxLongText))
		}
	case TypeColor:
		if !formats.Color(s) {
			return nil, f.Label + " must be a hex colour such as #1a73e8."
		}
		return strings.ToLower(s), ""
	case TypeRichText:
		// A declared MaxBytes is checked after sanitising (values); the request body limit bounds
		// what reaches the sanitiser.
		if f.MaxBytes == 0 && len(s) > maxRichText {
			return nil, tooLong(maxRichText)
		}
		s = cv.sanitize(s)
	case TypeEmail:
		if !formats.Email(s) {
			return nil, "Please enter a valid email!"
		}
	case TypeURL:
		check := checkURL
		if f.Format == FormatHTTPS {
			check = checkHTTPS
		}
		if msg := check(s, f.Label); msg != "" {
			return nil, msg
		}
	case TypeDate:
		return parseDate(s, f.Label)
	case TypeDateTime:
		return parseDateTime(s, f.Label)
	case TypeSelect:
		for _, o := range f.Options {
			if s == o {
				return s, ""
			}
		}
		return nil, fmt.Sprintf("%s must be one of: %s.", f.Label, strings.Join(f.Options, ", "))
	case TypeReference:
		if !ids.Valid(s) {
			return nil, f.Label + " not found!"
		}
	case TypeImage, TypeFile:
		ref, err := mediaref.Normalize(scope, s)
		if err != nil {
			return nil, f.Label + " must be a file from this institution's media library."
		}
		return ref, ""
	case TypePassword:
		if msg := auth.ValidatePassword(s); msg != "" {
			return nil, msg
		}
	}
	return s, ""
}

// validZone reports whether s names a time zone (formats.TimeZone).
func validZone(s string) bool {
	_, ok := formats.TimeZone(s)
	return ok
}

// parseBool converts a boolean field (api.ParseBool) or says why it cannot.
func parseBool(raw json.RawMessage, label string) (any, string) {
	if v, ok := api.ParseBool(raw); ok {
		return v, ""
	}
	return nil, label + " must be true or false."
}

func parseNumber(raw json.RawMessage, label string) (any, string) {
	var v any
	_ = json.Unmarshal(raw, &v)
	var n float64
	switch x := v.(type) {
	case float64:
		n = x
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, ""
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return nil, label + " must be a number."
		}
		n = f
	default:
		return nil, label + " must be a number."
	}
	if math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > 1e15 {
		return nil, label + " must be a number."
	}
	return n, ""
}

func parseDate(s, label string) (any, string) {
	if formats.Date(s) {
		if _, err := time.Parse(time.DateOnly, s); err == nil {
			return s, ""
		}
	} else if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC().Format(time.RFC3339), ""
	}
	return nil, label + " must be a date (YYYY-MM-DD)."
}

// parseDateTime reads an instant given in RFC 3339 with its offset (2025-09-01T09:00:00+02:00 or
// ...Z) and stores it in UTC to the second, so stored values compare as text.
func parseDateTime(s, label string) (any, string) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.UTC().Year() < 1 || t.UTC().Year() > 9999 {
		return nil, label + " must be a date and time with its time zone (RFC 3339, e.g. 2025-09-01T09:00:00+02:00)."
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339), ""
}

func parseJSONText(raw json.RawMessage, label string, limit int) (any, string) {
	text := string(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		text = s // JSON sent as text, as SPEC's multipart forms do
	}
	if strings.TrimSpace(text) == "" {
		return "", ""
	}
	if len(text) > limit || !json.Valid([]byte(text)) {
		return nil, label + " must be valid JSON."
	}
	return text, ""
}

// parseLanguages reads a languages field: a JSON list of catalogue codes (shared/langs), kept once
// each in the order given, at most langs.MaxOthers.
func parseLanguages(raw json.RawMessage, label string) (any, string) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, label + " must be a list of language codes."
	}
	out := []string{}
	for _, code := range list {
		code = strings.TrimSpace(code)
		if slices.Contains(out, code) {
			continue
		}
		if _, ok := langs.Find(code); !ok {
			shown := code
			if len(shown) > 20 {
				shown = shown[:20] + "…"
			}
			return nil, fmt.Sprintf("%s: %q is not a language of the list.", label, strings.ToValidUTF8(shown, ""))
		}
		out = append(out, code)
	}
	if len(out) > langs.MaxOthers {
		return nil, fmt.Sprintf("%s can list at most %d languages.", label, langs.MaxOthers)
	}
	return out, ""
}

// parseEmails reads an emails field: a JSON list of addresses, or one string of them separated
// by commas, semicolons or line breaks; blanks are dropped, repeats (in any case) kept once.
func parseEmails(raw json.RawMessage, label string) (any, string) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if json.Unmarshal(raw, &one) != nil {
			return nil, label + " must be a list of email addresses."
		}
		list = strings.FieldsFunc(one, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' })
	}
	out := []string{}
	seen := map[string]bool{}
	for _, s := range list {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" || seen[s] {
			continue
		}
		if !mail.ValidAddress(s) {
			shown := s
			if len(shown) > 60 {
				shown = shown[:60] + "…"
			}
			return nil, fmt.Sprintf("%s: %q is not a valid email address.", label, strings.ToValidUTF8(shown, ""))
		}
		seen[s] = true
		out = append(out, s)
	}
	if len(out) > MaxEmails {
		return nil, fmt.Sprintf("%s can list at most %d addresses.", label, MaxEmails)
	}
	return out, ""
}

// checkHTTPS is the message when s is not an absolute https:// address with a host.
func checkHTTPS(s, label string) string {
	if len(s) > maxURL {
		return fmt.Sprintf("%s must be at most %d characters.", label, maxURL)
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(s, " \t\n") {
		return label + " must be a web address starting with https:// (for example https://www.example.com/your-page)."
	}
	return ""
}

func checkURL(s, label string) string {
	if len(s) > maxURL {
		return fmt.Sprintf("%s must be at most %d characters.", label, maxURL)
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "#") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return label + " must be a web address starting with http:// or https://, or a path starting with /."
	}
	return ""
}
