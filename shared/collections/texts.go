package collections

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/store"
)

// Texts kept outside a collection's declared fields (a page's sections, the menu's labels, a
// custom form's labels, hints and options) are translated the way records are: a write sends
// translations: {"fr": {…}} beside them, read by SplitTranslations (the same catalogue check and
// messages), each text converted by TranslatedText (the same rules as a text field), the
// languages checked against the site's with RequireLanguages (or Change.Languages), and the
// languages they hold listed on the record they belong to (TextLanguagesField) so the language
// counters count them and Site settings refuse to orphan them.

// TextLanguagesField lists, on a record (or the menu's state), the languages its texts kept
// outside its declared fields hold a translation in. The language counters count them as the
// record's own translations.
const TextLanguagesField = "textLanguages"

// SplitTranslations reads a write's translations object, {"fr": {…}, "de": null}: each language
// a code of the catalogue, at most maxTranslationKeys of them. A language's value is its raw
// object, or nil for null (remove the language). Errors go to fail, keyed key (the object) or
// key.{lang} (a language's value). ok is false when the object itself is refused.
func SplitTranslations(raw json.RawMessage, key string, fail func(key, msg string)) (out map[string]json.RawMessage, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]json.RawMessage{}, true
	}
	var byLang map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byLang); err != nil {
		fail(key, `Translations must be an object of languages, such as {"fr": {"title": "…"}}.`)
		return nil, false
	}
	if len(byLang) > maxTranslationKeys {
		fail(key, fmt.Sprintf("A write can name at most %d languages.", maxTranslationKeys))
		return nil, false
	}
	out = map[string]json.RawMessage{}
	for _, lang := range slices.Sorted(maps.Keys(byLang)) {
		l, known := langs.Find(lang)
		if !known {
			fail(key, fmt.Sprintf("%q is not a language code of the list.", formats.Shorten(strings.ToValidUTF8(lang, ""), 20)))
			continue
		}
		v := bytes.TrimSpace(byLang[lang])
		if bytes.Equal(v, []byte("null")) {
			out[lang] = nil
			continue
		}
		if len(v) == 0 || v[0] != '{' {
			fail(key+"."+lang, fmt.Sprintf("The %s translation must be an object of fields.", l.English))
			continue
		}
		out[lang] = v
	}
	return out, true
}

// TextRule is how a translated text outside the declarations is checked: as a text field of
// this label and at most Max bytes (0: a text field's limit), Long for a multi-line one.
type TextRule struct {
	Label string
	Max   int
	Long  bool
}

// TranslatedText converts one translated text in lang by rule, as the engine converts a text
// field's value (trimmed, text only, sized): "" means the translation is removed (null or
// empty); msg is the error, its label naming the language ("Title (French) must be …").
func TranslatedText(lang string, rule TextRule, raw json.RawMessage) (string, string) {
	f := Field{Label: fmt.Sprintf("%s (%s)", rule.Label, langs.English(lang)), Type: TypeText, MaxBytes: rule.Max}
	if rule.Long {
		f.Type = TypeLongText
	}
	cv := converter{}
	v, msg := cv.convert(store.Scope{}, f, raw)
	if msg != "" {
		return "", msg
	}
	s, _ := v.(string)
	return s, ""
}

// RequireLanguages checks that each language a write translates texts into (code → the error
// key naming it) is one of the site's others: else 400 keyed as given. The write then gains
// those languages only while the site still lists them (its language counters' condition).
func (s *Service) RequireLanguages(ctx context.Context, w *Write, codes map[string]string) error {
	if len(codes) == 0 {
		return nil
	}
	site, err := s.readLanguages(ctx, w.Caller.Scope)
	if err != nil {
		return err
	}
	w.languageEpoch = &site.epoch
	errs, order := map[string]string{}, []string{}
	for _, lang := range slices.Sorted(maps.Keys(codes)) {
		if !site.Has(lang) {
			key := codes[lang]
			if _, seen := errs[key]; !seen {
				order = append(order, key)
			}
			errs[key] = fmt.Sprintf("%s is not one of this site's languages: add it under Site settings first.", langs.English(lang))
		}
	}
	if len(errs) > 0 {
		return api.BadRequest(errs, order...)
	}
	return nil
}

// SetTextLanguages records on the write's record the languages its texts outside the
// declarations hold a translation in (none: the attribute is taken off).
func (w *Write) SetTextLanguages(codes []string) {
	list := slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(codes)))))
	if len(list) == 0 {
		if _, had := w.Old[TextLanguagesField]; had {
			w.Rec[TextLanguagesField] = nil
			return
		}
		delete(w.Rec, TextLanguagesField)
		return
	}
	w.Rec[TextLanguagesField] = list
}

// TranslatedTextOr is TranslatedText for a write that collects its errors: a refused text's
// message goes to fail under key, and cur (what the translation held) is kept.
func TranslatedTextOr(fail func(key, msg string), key, lang string, rule TextRule, raw json.RawMessage, cur string) string {
	s, msg := TranslatedText(lang, rule, raw)
	if msg != "" {
		fail(key, msg)
		return cur
	}
	return s
}

// OutdatedMarks are one language's "may be out of date" marks after a write, for every kind of
// translation (a record's fields, a section's or a form field's texts): the texts the write set
// in that language are unmarked, the default texts the write changed (changed) are marked where
// the language translates them (has) and the write did not set them, and marks of texts the
// language no longer holds are dropped. A kept state written back (whole: a restore) keeps its
// own marks. Sorted; nil for none.
func OutdatedMarks(marks, set, changed []string, whole bool, has func(path string) bool) []string {
	out := slices.Clone(marks)
	if !whole {
		out = slices.DeleteFunc(out, func(p string) bool { return slices.Contains(set, p) })
		for _, p := range changed {
			if has(p) && !slices.Contains(out, p) && !slices.Contains(set, p) {
				out = append(out, p)
			}
		}
	}
	out = slices.DeleteFunc(out, func(p string) bool { return !has(p) })
	slices.Sort(out)
	if len(out) == 0 {
		return nil
	}
	return slices.Compact(out)
}
