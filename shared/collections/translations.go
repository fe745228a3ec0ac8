package collections

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/store"
)

// Translations: a collection's fields declared "translatable" hold the default language's value
// as before, and the record keeps the other languages' values beside them, on its own item (so
// its versions, trash entry, audit diff and export carry them):
//
//	translations: {"fr": {"title": "…", "slug": "a-propos", "published": true, "outdated": ["title"]}}
//
// with, for lists, translationStatus: {"fr": {"filled": 6, "total": 8, "published": true, "outdated": 1}}.

// The record attributes the engine keeps for translatable collections.
const (
	TranslationsField      = "translations"
	TranslationStatusField = "translationStatus"
)

// A translation's own keys beside its fields.
const (
	TranslationPublished = "published"
	TranslationOutdated  = "outdated"
)

// TranslatableFields are the collection's translatable fields, in declaration order.
func (c *Collection) TranslatableFields() []Field {
	var out []Field
	for _, f := range c.Fields {
		if f.Translatable {
			out = append(out, f)
		}
	}
	return out
}

// Translatable reports whether the collection has a translatable field.
func (c *Collection) Translatable() bool {
	for _, f := range c.Fields {
		if f.Translatable {
			return true
		}
	}
	return false
}

// TranslationsOf is a stored record's translations, by language: a copy, each language's map
// holding its translated fields, published (bool) and outdated ([]string, when any).
func TranslationsOf(rec map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	all, _ := rec[TranslationsField].(map[string]any)
	for lang, v := range all {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		cp := make(map[string]any, len(m))
		for k, x := range m {
			if k == TranslationOutdated {
				if list := stringList(x); len(list) > 0 {
					cp[k] = slices.Clone(list)
				}
				continue
			}
			cp[k] = x
		}
		if _, ok := cp[TranslationPublished].(bool); !ok {
			cp[TranslationPublished] = true
		}
		out[lang] = cp
	}
	return out
}

// Published reports whether a language's translation (TranslationsOf) is published.
func Published(tr map[string]any) bool {
	on, ok := tr[TranslationPublished].(bool)
	return !ok || on
}

// languagesHeld are the languages a record holds a translation in, sorted: its fields' and its
// texts' kept outside the declarations (TextLanguagesField).
func languagesHeld(rec Record) []string {
	if rec == nil {
		return nil
	}
	all, _ := rec[TranslationsField].(map[string]any)
	out := slices.Collect(maps.Keys(all))
	for _, lang := range stringList(rec[TextLanguagesField]) {
		if !slices.Contains(out, lang) {
			out = append(out, lang)
		}
	}
	slices.Sort(out)
	return out
}

// maxTranslationKeys bounds the languages one write names (the site's others, and as many
// orphans to remove).
const maxTranslationKeys = 2 * (langs.MaxOthers + 1)

// translations converts a write's translations: {"fr": {"title": "…", "published": false}, "de":
// null}. Each language a code of the catalogue (that it is one of the site's is checked with the
// write, deriveTranslations); each field a translatable one, converted, sanitised and sized by
// the same rules as its default-language value (convert), with errors keyed
// translations.{lang}.{field}; "" or null removes a field's translation, null a language.
// outdated is the engine's, ignored unless it could be one (a kept state written back).
func (cv *converter) translations(scope store.Scope, c *Collection, raw json.RawMessage, errs map[string]string, order *[]string) (map[string]any, error) {
	fail := func(key, msg string) {
		errs[key] = msg
		*order = append(*order, key)
	}
	byLang, ok := SplitTranslations(raw, TranslationsField, fail)
	if !ok {
		return nil, nil
	}
	out := map[string]any{}
	for _, lang := range slices.Sorted(maps.Keys(byLang)) {
		key := TranslationsField + "." + lang
		l, _ := langs.Find(lang)
		v := byLang[lang]
		if v == nil {
			out[lang] = nil
			continue
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(v, &fields); err != nil {
			fail(key, fmt.Sprintf("The %s translation must be an object of fields.", l.English))
			continue
		}
		tr := map[string]any{}
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			fv := fields[name]
			switch name {
			case TranslationPublished:
				b, msg := parseBool(fv, "Publish this translation")
				if msg != "" {
					fail(key+"."+name, msg)
					continue
				}
				tr[name] = b
				continue
			case TranslationOutdated:
				var list []string
				if bytes.Equal(bytes.TrimSpace(fv), []byte("null")) {
					continue
				}
				if json.Unmarshal(fv, &list) != nil || len(list) > len(c.Fields) {
					fail(key+"."+name, "Outdated is set by the server; leave it out.")
					continue
				}
				kept := []string{}
				for _, n := range list {
					if f, ok := c.Field(n); ok && f.Translatable && !slices.Contains(kept, n) {
						kept = append(kept, n)
					}
				}
				tr[name] = kept
				continue
			}
			f, ok := c.Field(name)
			if !ok || !f.Translatable {
				fail(key+"."+name, fmt.Sprintf("Field %q cannot be translated.", formats.Shorten(strings.ToValidUTF8(name, ""), 40)))
				continue
			}
			f.Label = fmt.Sprintf("%s (%s)", f.Label, l.English)
			val, msg := cv.convert(scope, f, fv)
			if msg == "" {
				if err := checkRichTextSize(f, val, key+"."+name); err != nil {
					return nil, err
				}
			}
			if msg != "" {
				fail(key+"."+name, msg)
				continue
			}
			if isEmpty(val) {
				val = nil
			}
			tr[name] = val
		}
		out[lang] = tr
	}
	return out, nil
}

// deriveTranslations applies a write's translations (Values[TranslationsField], converted) to the
// record: merged language by language into what it holds (or, for a kept state written back, in
// place of it), then the derived facts worked out: a default-language text changed since a
// language's translation of it marks that field outdated there until the translation is saved
// again; a language with no translated field left is dropped; translationStatus counts, per
// language, the translated fields of those with a default text. A language the write sets must
// be one of the site's others (read once; the save's transaction checks the settings still list
// it, so a language removed meanwhile is never written).
func (s *Service) deriveTranslations(ctx context.Context, wr *Write) error {
	c := wr.C
	if !c.Translatable() || wr.Action == ActionDelete || wr.Rec == nil {
		return nil
	}
	patch, _ := wr.Values[TranslationsField].(map[string]any)
	next := map[string]map[string]any{}
	if !wr.wholeTranslations {
		next = TranslationsOf(wr.Old)
	}
	set := map[string]map[string]bool{}
	for _, lang := range slices.Sorted(maps.Keys(patch)) {
		m, _ := patch[lang].(map[string]any)
		if m == nil {
			delete(next, lang)
			continue
		}
		cur := next[lang]
		if cur == nil {
			cur = map[string]any{TranslationPublished: true}
		}
		set[lang] = map[string]bool{}
		for k, v := range m {
			switch k {
			case TranslationPublished:
				cur[k] = v
			case TranslationOutdated:
				if wr.wholeTranslations {
					cur[k] = v
				}
			default:
				set[lang][k] = true
				if v == nil {
					delete(cur, k)
				} else {
					cur[k] = v
				}
			}
		}
		next[lang] = cur
	}
	codes := map[string]string{}
	for lang := range set {
		codes[lang] = TranslationsField + "." + lang
	}
	if err := s.RequireLanguages(ctx, wr, codes); err != nil {
		return err
	}
	var changed []string
	if wr.Old != nil {
		for _, f := range c.TranslatableFields() {
			if fmt.Sprint(wr.Old[f.Name]) != fmt.Sprint(wr.Rec[f.Name]) {
				changed = append(changed, f.Name)
			}
		}
	}
	stored := map[string]any{}
	status := map[string]any{}
	for _, lang := range slices.Sorted(maps.Keys(next)) {
		cur := next[lang]
		filled, total := 0, 0
		hasField := false
		for _, f := range c.TranslatableFields() {
			_, translated := cur[f.Name]
			hasField = hasField || translated
			if toString(wr.Rec[f.Name]) != "" {
				total++
				if translated {
					filled++
				}
			}
		}
		if !hasField {
			continue
		}
		has := func(name string) bool { _, ok := cur[name]; return ok }
		marks := OutdatedMarks(stringList(cur[TranslationOutdated]), slices.Collect(maps.Keys(set[lang])), changed, wr.wholeTranslations, has)
		outdated := orderedFields(c, marks)
		if len(outdated) == 0 {
			delete(cur, TranslationOutdated)
		} else {
			cur[TranslationOutdated] = outdated
		}
		stored[lang] = cur
		status[lang] = map[string]any{"filled": filled, "total": total, TranslationPublished: Published(cur), TranslationOutdated: len(outdated)}
	}
	wr.setDerived(TranslationsField, stored)
	wr.setDerived(TranslationStatusField, status)
	return nil
}

// orderedFields are names in declaration order, without repeats.
func orderedFields(c *Collection, names []string) []string {
	out := []string{}
	for _, f := range c.Fields {
		if slices.Contains(names, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

// setDerived stores a derived attribute on the record as the write leaves it: an empty value is
// taken off (removed from the item where it was stored before).
func (w *Write) setDerived(name string, v map[string]any) {
	if len(v) > 0 {
		w.Rec[name] = v
		return
	}
	if _, had := w.Old[name]; had {
		w.Rec[name] = nil
		return
	}
	delete(w.Rec, name)
}

// addLanguageCounters moves the language counters (languageCountKey) of a write, in one item:
// +1 for each language the record gains, -1 for each it loses (every kind, singletons
// included). Gaining one is conditioned on the counters' epoch the write read with the site's
// languages: a settings save that took a language away meanwhile refuses the write.
func (s *Service) addLanguageCounters(wr *Write, before, after Record) {
	was, is := languagesHeld(before), languagesHeld(after)
	k := languageCountKey(wr.Caller.Scope)
	upd := s.st.Table.Update("PK", k.PK).Range("SK", k.SK)
	moved, gained := false, false
	for _, lang := range is {
		if !slices.Contains(was, lang) {
			upd.Add(languageCountAttr(lang), 1)
			moved, gained = true, true
		}
	}
	for _, lang := range was {
		if !slices.Contains(is, lang) {
			upd.Add(languageCountAttr(lang), -1)
			moved = true
		}
	}
	if !moved {
		return
	}
	var conflict *api.Error
	if gained && wr.languageEpoch != nil {
		if *wr.languageEpoch == 0 {
			upd.If("attribute_not_exists($) OR $ = ?", languageEpoch, languageEpoch, 0)
		} else {
			upd.If("$ = ?", languageEpoch, *wr.languageEpoch)
		}
		conflict = api.FieldError(http.StatusConflict, TranslationsField, "This site's languages changed meanwhile. Reload the page and save again.")
	}
	if wr.effects != nil {
		wr.effects.Items = append(wr.effects.Items, Effect{upd, conflict})
		return
	}
	wr.add(upd, conflict)
}

// mergeTranslations applies a draft save's translations (converted) to the draft's: language by
// language, field by field, as a record's write does.
func mergeTranslations(fields Record, patch map[string]any) {
	all, _ := fields[TranslationsField].(map[string]any)
	if all == nil {
		all = map[string]any{}
	}
	for lang, v := range patch {
		m, _ := v.(map[string]any)
		if m == nil {
			delete(all, lang)
			continue
		}
		cur, _ := all[lang].(map[string]any)
		if cur == nil {
			cur = map[string]any{}
		}
		for k, x := range m {
			if k == TranslationOutdated {
				continue
			}
			if x == nil || x == "" {
				delete(cur, k)
			} else {
				cur[k] = x
			}
		}
		all[lang] = cur
	}
	if len(all) == 0 {
		delete(fields, TranslationsField)
		return
	}
	fields[TranslationsField] = all
}
