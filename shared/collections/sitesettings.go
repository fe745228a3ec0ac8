package collections

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
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

// LanguageCounter is the name of the counter of a tenant's records (of every collection,
// singletons included) that hold a translation in code: kept in each write's transaction, so
// the settings know in one read whether a language can be removed.
func LanguageCounter(code string) string { return "lang#" + code }

// readLanguages reads the tenant's Site settings' languages (one GetItem projecting them).
func (s *Service) readLanguages(ctx context.Context, scope store.Scope) (SiteLanguages, error) {
	c := s.reg[SettingsCollection]
	if c == nil {
		return LanguagesOf(nil), nil
	}
	var rec map[string]any
	err := s.st.Table.Get("PK", scope.Root()).Range("SK", dynamo.Equal, c.Singleton).
		Project(SettingDefaultLanguage, SettingLanguages, SettingMissingTranslation).One(ctx, &rec)
	if err == dynamo.ErrNotFound || store.IsNotFound(err) {
		return LanguagesOf(nil), nil
	}
	if err != nil {
		return SiteLanguages{}, store.Wrap("site languages", err)
	}
	return LanguagesOf(rec), nil
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
	counts, err := s.languageCounts(ctx, w.Caller.Scope, check)
	if err != nil {
		return err
	}
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
	// Checked again in the save's transaction: a translation written since the read refuses it.
	for _, code := range check {
		pk, sk := w.Caller.Scope.CounterKey(LanguageCounter(code))
		w.Also(s.st.Table.Check("PK", pk).Range("SK", sk).If("attribute_not_exists($) OR $ <= ?", "count", "count", 0), refusal)
	}
	return nil
}

// languageCounts reads the language counters of codes (one BatchGetItem; a missing counter is 0).
func (s *Service) languageCounts(ctx context.Context, scope store.Scope, codes []string) (map[string]int64, error) {
	keys := make([]store.Key, 0, len(codes))
	for _, code := range codes {
		pk, sk := scope.CounterKey(LanguageCounter(code))
		keys = append(keys, store.Key{PK: pk, SK: sk})
	}
	items, err := s.st.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for i, code := range codes {
		var it struct {
			Count int64 `dynamo:"count"`
		}
		if _, err := store.Decode(items, keys[i], &it); err != nil {
			return nil, err
		}
		out[code] = it.Count
	}
	return out, nil
}

// languagesRoute serves GET /languages: the catalogue, {"items": [{code, name, english, dir}]},
// for the panel's pickers (any signed-in user).
func languagesRoute(w http.ResponseWriter, _ *http.Request) error {
	return api.OK(w, map[string]any{"items": langs.All})
}
