package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
)

// A form field's label, hint and option names are translated as a record's fields are (issue
// 35), on the field itself, texts only, options by option id:
//
//	{"id": "…", "label": "Name", …, "translations": {"fr": {"label": "Nom", "hint": "…",
//	  "options": {"{optionId}": "Oui"}}}}
//
// A save merges what a field sends into what it holds (by field id): a language null removes
// it, a text "" or null removes that text; a field sent without translations keeps its own; a
// new option (NEW_ id) may be translated in the same save; options gone take their names with
// them. A restore brings back the kept ones whole. Each text is checked by its default text's
// rule. Submissions are stored as before, by the default labels and option names (the public
// reader maps a visitor's translated ones back: public.Reader.Submit).

// FieldTexts are a field's texts in one language.
type FieldTexts struct {
	Label   string            `json:"label,omitempty"`
	Hint    string            `json:"hint,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	// Outdated lists the translated texts whose default text changed since they were saved
	// ("label", "hint", "options.{id}"): derived, cleared when they are saved again.
	Outdated []string `json:"outdated,omitempty"`
}

// has reports whether the translation holds the text at path.
func (t FieldTexts) has(path string) bool {
	switch path {
	case "label":
		return t.Label != ""
	case "hint":
		return t.Hint != ""
	}
	id, ok := strings.CutPrefix(path, "options.")
	return ok && t.Options[id] != ""
}

// changedTexts are the paths of a field's default texts that differ between two states of it.
func changedTexts(a, b Field) []string {
	var out []string
	if a.Label != b.Label {
		out = append(out, "label")
	}
	if a.Hint != b.Hint {
		out = append(out, "hint")
	}
	for _, o := range b.Options {
		for _, p := range a.Options {
			if p.ID == o.ID && p.Name != o.Name {
				out = append(out, "options."+o.ID)
			}
		}
	}
	return out
}

func (t FieldTexts) empty() bool { return t.Label == "" && t.Hint == "" && len(t.Options) == 0 }

var (
	labelRule  = collections.TextRule{Label: "Label", Max: maxLabel}
	hintRule   = collections.TextRule{Label: "Hint", Max: maxHint}
	optionRule = collections.TextRule{Label: "Option name", Max: maxOptionName}
)

// Texts are a stored field's translations, by language.
func (f Field) Texts() map[string]FieldTexts {
	out := map[string]FieldTexts{}
	if len(f.Translations) > 0 {
		_ = json.Unmarshal(f.Translations, &out)
	}
	return out
}

// Localized is the field in lang: each translated text in place of the default one; Fallback
// lists those shown in the default language ("label", "hint", "options"), none in the default
// language (lang "").
func (f Field) Localized(lang string) Field {
	if lang == "" {
		return f
	}
	tr := f.Texts()[lang]
	f.Fallback = []string{}
	if tr.Label != "" {
		f.Label = tr.Label
	} else {
		f.Fallback = append(f.Fallback, "label")
	}
	if tr.Hint != "" {
		f.Hint = tr.Hint
	} else if f.Hint != "" {
		f.Fallback = append(f.Fallback, "hint")
	}
	opts := make([]Option, len(f.Options))
	missing := false
	for i, o := range f.Options {
		if name := tr.Options[o.ID]; name != "" {
			o.Name = name
		} else {
			missing = true
		}
		opts[i] = o
	}
	if len(f.Options) > 0 {
		f.Options = opts
	}
	if missing {
		f.Fallback = append(f.Fallback, "options")
	}
	return f
}

// translateFields sets each normalised field's translations (out[i], from in[i] as sent): merged
// into those of the stored field of the same id (old; whole: in place of them), checked by the
// default texts' rules (errors keyed fields.{i}.translations.{lang}…), option ids (a new
// option's NEW_ one included) mapped to the saved ones. It returns the languages whose texts
// changed (code → error key), which must be the site's.
func translateFields(in, out, old []Field, whole bool) (map[string]string, error) {
	errs, order := map[string]string{}, []string{}
	oldByID := map[string]Field{}
	for _, f := range old {
		oldByID[f.ID] = f
	}
	changed := map[string]string{}
	for i := range out {
		key := fmt.Sprintf("fields.%d.translations", i)
		name := fmt.Sprintf("Field %d", i+1)
		fail := func(k, msg string) {
			if _, dup := errs[k]; !dup {
				errs[k] = name + ": " + msg
				order = append(order, k)
			}
		}
		before := oldByID[out[i].ID].Texts()
		if _, kept := oldByID[out[i].ID]; !kept || in[i].ID != out[i].ID {
			before = map[string]FieldTexts{}
		}
		next := map[string]FieldTexts{}
		if !whole {
			maps.Copy(next, before)
		}
		optionIDs := map[string]string{} // as sent → as saved
		for j, o := range in[i].Options {
			if j < len(out[i].Options) {
				optionIDs[o.ID] = out[i].Options[j].ID
				optionIDs[out[i].Options[j].ID] = out[i].Options[j].ID
			}
		}
		byLang, ok := collections.SplitTranslations(in[i].Translations, key, fail)
		sent := map[string][]string{}
		for _, lang := range slices.Sorted(maps.Keys(byLang)) {
			if !ok {
				break
			}
			if byLang[lang] == nil {
				delete(next, lang)
				continue
			}
			lkey := key + "." + lang
			var texts map[string]json.RawMessage
			if err := json.Unmarshal(byLang[lang], &texts); err != nil {
				fail(lkey, "a translation must be an object of texts.")
				continue
			}
			cur := next[lang]
			cur.Options = maps.Clone(cur.Options)
			var set []string
			for _, prop := range slices.Sorted(maps.Keys(texts)) {
				v := texts[prop]
				switch prop {
				case "outdated":
					// Derived: ignored but for a kept state's (a restore).
					var list []string
					if whole && json.Unmarshal(v, &list) == nil {
						cur.Outdated = list
					}
				case "label":
					cur.Label = collections.TranslatedTextOr(fail, lkey+"."+prop, lang, labelRule, v, cur.Label)
					set = append(set, prop)
				case "hint":
					cur.Hint = collections.TranslatedTextOr(fail, lkey+"."+prop, lang, hintRule, v, cur.Hint)
					set = append(set, prop)
				case "options":
					if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
						cur.Options = nil
						continue
					}
					var byID map[string]json.RawMessage
					if json.Unmarshal(v, &byID) != nil {
						fail(lkey+".options", `options must be an object of option names by option id, such as {"01…": "Oui"}.`)
						continue
					}
					if cur.Options == nil {
						cur.Options = map[string]string{}
					}
					for _, id := range slices.Sorted(maps.Keys(byID)) {
						saved, known := optionIDs[id]
						if !known {
							fail(lkey+".options."+formats.Shorten(id, 40), "this option is not one of the field's.")
							continue
						}
						cur.Options[saved] = collections.TranslatedTextOr(fail, lkey+".options."+formats.Shorten(id, 40), lang, optionRule, byID[id], cur.Options[saved])
						set = append(set, "options."+saved)
					}
				default:
					fail(lkey+"."+formats.Shorten(prop, 40), fmt.Sprintf("%q cannot be translated: a field's translation holds label, hint and options.", formats.Shorten(prop, 40)))
				}
			}
			sent[lang] = set
			next[lang] = cur
		}
		// A default text changed since: its translations the write does not set are outdated.
		var changedDefaults []string
		if prev, kept := oldByID[out[i].ID]; kept && in[i].ID == out[i].ID {
			changedDefaults = changedTexts(prev, out[i])
		}
		// Texts only, of what the field holds.
		for lang, tr := range next {
			tr.Options = maps.Clone(tr.Options)
			for id, o := range tr.Options {
				if o == "" || !slices.ContainsFunc(out[i].Options, func(x Option) bool { return x.ID == id }) {
					delete(tr.Options, id)
				}
			}
			if len(tr.Options) == 0 {
				tr.Options = nil
			}
			tr.Outdated = collections.OutdatedMarks(tr.Outdated, sent[lang], changedDefaults, whole, tr.has)
			if tr.empty() {
				delete(next, lang)
				continue
			}
			next[lang] = tr
			if _, named := changed[lang]; !named && !reflect.DeepEqual(tr, before[lang]) {
				changed[lang] = key + "." + lang
			}
		}
		out[i].Translations = nil
		if len(next) > 0 {
			out[i].Translations, _ = json.Marshal(next)
		}
	}
	if len(errs) > 0 {
		return nil, api.BadRequest(errs, order...)
	}
	return changed, nil
}

// fieldLanguages are the languages fields hold a translation in.
func fieldLanguages(fields []Field) []string {
	var out []string
	for _, f := range fields {
		for lang := range f.Texts() {
			if !slices.Contains(out, lang) {
				out = append(out, lang)
			}
		}
	}
	slices.Sort(out)
	return out
}
