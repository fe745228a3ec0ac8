package pages

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/langs"
	"github.com/campuscms/panel/shared/store"
)

// SlugKeyIn is the uniqueness marker of a page's slug in another language than the site's
// default: T#{t}#PAGESLUG#{lang} / {slug} → pageId. A slug is unique within its language
// (/fr/a-propos and /a-propos may name two pages, or the same one).
func SlugKeyIn(scope store.Scope, lang, slug string) store.Key {
	if lang == "" {
		return slugKey(scope, slug)
	}
	return store.Key{PK: scope.Partition("PAGESLUG", lang), SK: slug}
}

// translatedSlugs are the slugs a page record holds in its translations, by language.
func translatedSlugs(rec collections.Record) map[string]string {
	out := map[string]string{}
	for lang, tr := range collections.TranslationsOf(rec) {
		if slug, _ := tr["slug"].(string); slug != "" {
			out[lang] = slug
		}
	}
	return out
}

// translatedSlugRule keeps each language's slug unique within that language: a slug a write
// gives a language puts its marker (a slug taken there is 409 under translations.{lang}.slug),
// and the one it replaces is deleted, in the page's transaction.
func translatedSlugRule(st *store.Store, w *collections.Write) {
	scope := w.Caller.Scope
	pageID, _ := w.Rec["id"].(string)
	was, is := translatedSlugs(w.Old), translatedSlugs(w.Rec)
	for _, lang := range sortedKeys(is) {
		slug := is[lang]
		if was[lang] == slug {
			continue
		}
		k := SlugKeyIn(scope, lang, slug)
		w.Also(st.Table.Put(map[string]any{"PK": k.PK, "SK": k.SK, "pageId": pageID}).If("attribute_not_exists(PK)"),
			api.FieldError(http.StatusConflict, collections.TranslationsField+"."+lang+".slug",
				fmt.Sprintf("Slug already in use in %s!", langs.English(lang))))
	}
	for _, lang := range sortedKeys(was) {
		if slug := was[lang]; is[lang] != slug {
			k := SlugKeyIn(scope, lang, slug)
			w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
