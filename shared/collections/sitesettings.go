package collections

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/store"
)

// The languages of a site live in its Site settings (SettingsCollection): the default language,
// the others (a languages field) and what the website does where a translation is missing or
// kept back.
const (
	SettingDefaultLanguage    = "defaultLanguage"
	SettingLanguages          = "languages"
	SettingMissingTranslation = "missingTranslation"
)

// What the website shows in a language where a record has no published translation.
const (
	// PolicyFallback shows the default language's text, marked as such.
	PolicyFallback = "fallback"
	// PolicyHide leaves the record out in that language (404, out of lists and menus).
	PolicyHide = "hide"
)

// SiteLanguages are the languages a site publishes in, as its Site settings hold them.
type SiteLanguages struct {
	// Default is the default language's code (langs.Default when never set).
	Default string
	// Others are the other languages' codes, in the order the settings list them.
	Others []string
	// Policy is PolicyFallback or PolicyHide.
	Policy string
}

// LanguagesOf reads the languages of a site from its Site settings record (stored or as the
// public reader decodes it; nil for never saved).
func LanguagesOf(settings map[string]any) SiteLanguages {
	out := SiteLanguages{Default: langs.Default, Policy: PolicyFallback}
	if code, _ := settings[SettingDefaultLanguage].(string); code != "" {
		out.Default = code
	}
	for _, code := range stringList(settings[SettingLanguages]) {
		if code != out.Default && !slices.Contains(out.Others, code) {
			out.Others = append(out.Others, code)
		}
	}
	if settings[SettingMissingTranslation] == PolicyHide {
		out.Policy = PolicyHide
	}
	return out
}

// All is the default language, then the others.
func (l SiteLanguages) All() []string { return append([]string{l.Default}, l.Others...) }

// Has reports whether code is one of the site's other languages (the ones a record translates
// into).
func (l SiteLanguages) Has(code string) bool { return slices.Contains(l.Others, code) }

// stringList is a list of strings as it comes in: []string from a write, []any as DynamoDB or
// JSON decode it.
func stringList(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// The language counters: one item per tenant (T#{t} / LANGCOUNT) holding, per language, how many
// records (of every collection, singletons included) hold a translation in it (lang_{code}),
// and an epoch the settings move whenever they take a language away or change the default. A
// write that gives a record a new language moves its counter in its own transaction, on the
// condition that the epoch it read with the settings has not moved: so a settings save and a
// translation never cross, at the cost of one item in each.
const (
	languageCountSK = "LANGCOUNT"
	languageEpoch   = "epoch"
)

// languageCountAttr is the counter attribute of a language.
func languageCountAttr(code string) string { return "lang_" + code }

func languageCountKey(scope store.Scope) store.Key {
	return store.Key{PK: scope.Root(), SK: languageCountSK}
}

// languageState is what a write that translates reads of its site: its languages, and the
// counters' epoch and counts.
type languageState struct {
	SiteLanguages
	epoch  int64
	counts map[string]int64
}

// readLanguages reads the tenant's Site settings' languages and the language counters (one
// BatchGetItem).
func (s *Service) readLanguages(ctx context.Context, scope store.Scope) (languageState, error) {
	out := languageState{SiteLanguages: LanguagesOf(nil), counts: map[string]int64{}}
	c := s.reg[SettingsCollection]
	if c == nil {
		return out, nil
	}
	sk, ck := store.Key{PK: scope.Root(), SK: c.Singleton}, languageCountKey(scope)
	items, err := s.st.GetMany(ctx, sk, ck)
	if err != nil {
		return out, err
	}
	var settings map[string]any
	if _, err := store.Decode(items, sk, &settings); err != nil {
		return out, err
	}
	out.SiteLanguages = LanguagesOf(settings)
	var counts map[string]any
	if _, err := store.Decode(items, ck, &counts); err != nil {
		return out, err
	}
	for name, v := range counts {
		n := int64(toInt(v))
		switch {
		case name == languageEpoch:
			out.epoch = n
		case strings.HasPrefix(name, "lang_"):
			out.counts[strings.TrimPrefix(name, "lang_")] = n
		}
	}
	return out, nil
}

// siteSettingsHooks are the Site settings' rules on languages: the default language is not also
// one of the others, and neither the default nor a language records are translated into changes
// while those translations exist (they would be orphaned), read from the language counters and
// checked again in the save's own transaction.
type siteSettingsHooks struct{ NoHooks }

func (siteSettingsHooks) BeforeWrite(ctx context.Context, s *Service, w *Write) error {
	after := LanguagesOf(w.Rec)
	if others := stringList(w.Rec[SettingLanguages]); slices.Contains(others, after.Default) {
		return api.FieldError(http.StatusBadRequest, SettingLanguages,
			fmt.Sprintf("%s is the default language; it cannot also be one of the other languages.", langs.English(after.Default)))
	}
	before := LanguagesOf(w.Old)
	var removed []string
	for _, code := range before.Others {
		if !after.Has(code) {
			removed = append(removed, code)
		}
	}
	defaultChanges := after.Default != before.Default
	check := removed
	if defaultChanges {
		check = before.Others
	}
	if len(check) == 0 {
		return nil
	}
	state, err := s.readLanguages(ctx, w.Caller.Scope)
	if err != nil {
		return err
	}
	counts := state.counts
	var held []string
	total := int64(0)
	for _, code := range check {
		if n := counts[code]; n > 0 {
			held = append(held, fmt.Sprintf("%s: %d", langs.English(code), n))
			total += n
		}
	}
	var refusal *api.Error
	switch {
	case defaultChanges:
		refusal = api.FieldError(http.StatusConflict, SettingDefaultLanguage, fmt.Sprintf(
			"The default language cannot change from %s while records hold translations (%s): they translate the %s texts. Remove those translations first, or keep %s as the default language.",
			langs.English(before.Default), strings.Join(held, ", "), langs.English(before.Default), langs.English(before.Default)))
	default:
		names := make([]string, 0, len(removed))
		for _, code := range removed {
			names = append(names, langs.English(code))
		}
		refusal = api.FieldError(http.StatusConflict, SettingLanguages, fmt.Sprintf(
			"%s cannot be removed while records hold translations in it (%s). Remove those translations first, or keep the language.",
			strings.Join(names, ", "), strings.Join(held, ", ")))
	}
	if total > 0 {
		return refusal
	}
	// Checked again in the save's transaction, which moves the epoch: a translation written since
	// the read refuses the save, and one read before it but written after is refused itself.
	k := languageCountKey(w.Caller.Scope)
	cond := make([]string, 0, len(check))
	args := make([]any, 0, 2*len(check))
	for _, code := range check {
		cond = append(cond, "(attribute_not_exists($) OR $ <= ?)")
		args = append(args, languageCountAttr(code), languageCountAttr(code), 0)
	}
	w.Also(s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add(languageEpoch, 1).If(strings.Join(cond, " AND "), args...), refusal)
	return nil
}

// languagesRoute serves GET /languages to any signed-in user: the catalogue, {"items": [{code,
// name, english, dir}]}, for the panel's pickers, with the site's own choice (defaultLanguage,
// languages, missingTranslation), so an editor without the Site settings right gets the
// language switch.
func (s *Service) languagesRoute(w http.ResponseWriter, r *http.Request) error {
	site, err := s.readLanguages(r.Context(), auth.CallerFrom(r.Context()).Scope)
	if err != nil {
		return err
	}
	others := site.Others
	if others == nil {
		others = []string{}
	}
	return api.OK(w, map[string]any{"items": langs.All, SettingDefaultLanguage: site.Default, SettingLanguages: others, SettingMissingTranslation: site.Policy})
}
