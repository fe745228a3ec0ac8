package collections

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
