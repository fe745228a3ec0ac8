package public

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/pages"
)

// What every localized record carries beside its fields.
const (
	// FieldFallback lists the translatable fields shown in the default language because the
	// record has no (published) translation of them in the site's language.
	FieldFallback = "fallbackFields"
	// FieldAvailable lists the languages the record can be shown in (default first).
	FieldAvailable = "availableLanguages"
	// FieldSlugs is a page's slug in each language it can be shown in, by code (default
	// included; a language without its own slug under the fallback policy has the default one).
	FieldSlugs = "slugs"
)

// siteLanguages are the languages of a site, once its settings were read.
type siteLanguages struct {
	collections.SiteLanguages
	known bool
}

// setLanguages takes the site's languages from its Site settings record.
func (s *Site) setLanguages(settings map[string]any) {
	s.langs = siteLanguages{SiteLanguages: collections.LanguagesOf(settings), known: true}
	if s.Lang != "" && !s.langs.Has(s.Lang) && s.Lang != s.langs.Default {
		// Not one of the site's: the website answers 404 (it checks Lang against Languages).
		return
	}
	if s.Lang == s.langs.Default {
		s.Lang = ""
	}
}

func (s *Site) languages() collections.SiteLanguages {
	if !s.langs.known {
		return collections.LanguagesOf(nil)
	}
	return s.langs.SiteLanguages
}

// DefaultLanguage is the site's default language (langs.Default until its settings choose).
func (s *Site) DefaultLanguage() string { return s.languages().Default }

// Languages are the site's languages, the default first, then the others in the settings' order.
func (s *Site) Languages() []string { return s.languages().All() }

// Policy is what the site shows where a translation is missing or kept back:
// collections.PolicyFallback or collections.PolicyHide.
func (s *Site) Policy() string { return s.languages().Policy }

// Language is the language the site is read in: Lang, or the default language.
func (s *Site) Language() string {
	if s.Lang != "" {
		return s.Lang
	}
	return s.DefaultLanguage()
}

// Dir is the writing direction of the language the site is read in ("ltr" or "rtl").
func (s *Site) Dir() string { return langs.Dir(s.Language()) }

// InLanguage is a copy of the site read in code, one of its languages (the default gives Lang
// ""); false when code is not one of them.
func (s *Site) InLanguage(code string) (*Site, bool) {
	l := s.languages()
	if code != l.Default && !l.Has(code) {
		return nil, false
	}
	out := *s
	out.Lang = code
	if code == l.Default {
		out.Lang = ""
	}
	return &out, true
}

// inOtherLanguage reports whether the site is read in a language other than its default.
func (s *Site) inOtherLanguage() bool { return s.Lang != "" && s.Lang != s.DefaultLanguage() }

// localize is rec of kind as the site shows it in its language (Site.Lang): each translatable
// field's published translation in place of the default text; where there is none, the default
// text stays and the field is listed in fallbackFields (the website marks it with the default
// language's lang and dir). availableLanguages lists the languages the record can be shown in:
// every language of the site under the fallback policy, else the default and those with a
// published translation. Under the hide policy a record with no published translation in the
// site's language is not shown there (ok false). The stored translations never leave: rec is
// not changed.
func (r *Reader) localize(site *Site, kind string, rec Record) (Record, bool) {
	if rec == nil {
		return nil, false
	}
	c := r.reg[kind]
	out := maps.Clone(rec)
	delete(out, collections.TranslationsField)
	delete(out, collections.TranslationStatusField)
	l := site.languages()
	if c == nil || !c.Translatable() {
		out[FieldAvailable] = l.All()
		return out, true
	}
	trs := collections.TranslationsOf(rec)
	available := []string{l.Default}
	for _, code := range l.Others {
		if tr, ok := trs[code]; l.Policy == collections.PolicyFallback || ok && collections.Published(tr) {
			available = append(available, code)
		}
	}
	out[FieldAvailable] = available
	fallback := []string{}
	if site.inOtherLanguage() {
		if !slices.Contains(available, site.Lang) {
			return nil, false
		}
		tr, ok := trs[site.Lang]
		published := ok && collections.Published(tr)
		for _, f := range c.TranslatableFields() {
			if v, has := tr[f.Name]; published && has {
				out[f.Name] = v
				continue
			}
			if s, _ := rec[f.Name].(string); s != "" {
				fallback = append(fallback, f.Name)
			}
		}
	}
	out[FieldFallback] = fallback
	if _, isPage := c.Field("slug"); isPage {
		slugs := map[string]any{}
		for _, code := range available {
			slug := rec["slug"]
			if tr, ok := trs[code]; ok && collections.Published(tr) && tr["slug"] != nil {
				slug = tr["slug"]
			}
			slugs[code] = slug
		}
		out[FieldSlugs] = slugs
	}
	return out, true
}

// requestLanguage is the language a public API request asks for: ?lang= (one of the site's
// languages, else 400), else the best of Accept-Language among them, else the default.
func requestLanguage(r *http.Request, site *Site) (*Site, error) {
	if code := strings.TrimSpace(r.URL.Query().Get("lang")); code != "" {
		out, ok := site.InLanguage(code)
		if !ok {
			return nil, api.FieldError(http.StatusBadRequest, "lang",
				"lang must be one of this site's languages: "+strings.Join(site.Languages(), ", ")+".")
		}
		return out, nil
	}
	if code := langs.Negotiate(r.Header.Get("Accept-Language"), site.Languages()); code != "" {
		out, _ := site.InLanguage(code)
		return out, nil
	}
	out, _ := site.InLanguage(site.DefaultLanguage())
	return out, nil
}

// sectionTexts gives, for a page read in site's language, each section's texts in it: nil in the
// default language (the sections keep their texts, nothing marked); where the page's own
// translation there is kept back, none (every text the default one, marked: a page never mixes
// a kept-back translation's texts in).
func sectionTexts(site *Site, rec Record) func(pages.Section) pages.SectionTexts {
	if !site.inOtherLanguage() {
		return nil
	}
	lang := site.Lang
	if tr, ok := collections.TranslationsOf(rec)[lang]; ok && !collections.Published(tr) {
		return func(pages.Section) pages.SectionTexts { return pages.SectionTexts{} }
	}
	return func(sec pages.Section) pages.SectionTexts { return pages.TranslationsOf(sec)[lang] }
}

// localizeSection puts a section's texts in one language (tr) in place of its default ones; a
// text without a translation keeps the default one and is listed in the section's
// FallbackFields (title, subTitle) or its item's fallbackFields, as a record's are.
func localizeSection(sec *Section, tr pages.SectionTexts) {
	sec.FallbackFields = []string{}
	for _, t := range []struct {
		name      string
		text      *string
		translate string
	}{{"title", &sec.Title, tr.Title}, {"subTitle", &sec.SubTitle, tr.SubTitle}} {
		switch {
		case t.translate != "":
			*t.text = t.translate
		case *t.text != "":
			sec.FallbackFields = append(sec.FallbackFields, t.name)
		}
	}
	for _, it := range sec.Items {
		id, _ := it["id"].(string)
		texts := tr.Items[id]
		fallback := []string{}
		for _, t := range []struct{ name, translate string }{
			{"title", texts.Title}, {"subTitle", texts.SubTitle}, {"description", texts.Description}, {"ctaText", texts.CtaText},
		} {
			switch def, _ := it[t.name].(string); {
			case t.translate != "":
				it[t.name] = t.translate
			case def != "":
				fallback = append(fallback, t.name)
			}
		}
		it[FieldFallback] = fallback
	}
}
