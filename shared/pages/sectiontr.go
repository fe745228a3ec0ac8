package pages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/formats"
)

// A section's translations hold its texts only, by language (issue 35): its title and
// sub-title, and its items' texts by item id (an item keeps its translations when it moves;
// images, links and settings are never copied):
//
//	translations: {"fr": {"title": "…", "subTitle": "…", "items": {"{itemId}": {"title": "…",
//	  "subTitle": "…", "description": "…", "ctaText": "…"}}}}
//
// Stored as JSON text on the section (Section.Translations), shown as that object. A write
// merges what it sends into what the section holds, as a record's translations do: a language
// null removes it, a text "" or null removes that text, an item null removes its texts; a
// section sent without translations keeps its own. A restore brings back the kept ones whole.
// Each text is checked by the rule of its default-language text (collections.TranslatedText).

// SectionTexts are a section's texts in one language.
type SectionTexts struct {
	Title    string               `json:"title,omitempty"`
	SubTitle string               `json:"subTitle,omitempty"`
	Items    map[string]ItemTexts `json:"items,omitempty"`
	// Outdated lists the translated texts whose default text changed since they were saved
	// ("title", "subTitle", "items.{id}.{text}"): derived, as a record's outdated is.
	Outdated []string `json:"outdated,omitempty"`
}

// ItemTexts are one config item's texts in one language.
type ItemTexts struct {
	Title       string `json:"title,omitempty"`
	SubTitle    string `json:"subTitle,omitempty"`
	Description string `json:"description,omitempty"`
	CtaText     string `json:"ctaText,omitempty"`
}

func (t ItemTexts) empty() bool { return t == ItemTexts{} }

func (t SectionTexts) empty() bool { return t.Title == "" && t.SubTitle == "" && len(t.Items) == 0 }

// TranslationOutdated is a section translation's derived list of outdated texts.
const TranslationOutdated = "outdated"

// has reports whether the translation holds the text at path ("title", "items.{id}.ctaText").
func (t SectionTexts) has(path string) bool {
	switch path {
	case "title":
		return t.Title != ""
	case "subTitle":
		return t.SubTitle != ""
	}
	rest, ok := strings.CutPrefix(path, "items.")
	i := strings.LastIndex(rest, ".")
	if !ok || i < 0 {
		return false
	}
	it, found := t.Items[rest[:i]]
	return found && it.text(rest[i+1:]) != ""
}

// text is the item's text of that name.
func (t ItemTexts) text(name string) string {
	switch name {
	case "title":
		return t.Title
	case "subTitle":
		return t.SubTitle
	case "description":
		return t.Description
	case "ctaText":
		return t.CtaText
	}
	return ""
}

// changedTexts are the paths of the default texts that differ between two states of a section
// (of the items in both).
func changedTexts(a, b Section) []string {
	var out []string
	if a.Title != b.Title {
		out = append(out, "title")
	}
	if a.SubTitle != b.SubTitle {
		out = append(out, "subTitle")
	}
	var ai, bi []configItem
	_ = json.Unmarshal([]byte(a.Config), &ai)
	_ = json.Unmarshal([]byte(b.Config), &bi)
	before := map[string]configItem{}
	for _, it := range ai {
		before[it.ID] = it
	}
	for _, it := range bi {
		old, ok := before[it.ID]
		if !ok {
			continue
		}
		for _, t := range []struct{ name, a, b string }{
			{"title", old.Title, it.Title}, {"subTitle", old.SubTitle, it.SubTitle},
			{"description", old.Description, it.Description}, {"ctaText", old.CtaText, it.CtaText},
		} {
			if t.a != t.b {
				out = append(out, "items."+it.ID+"."+t.name)
			}
		}
	}
	return out
}

// The rules of the translated texts: those of the default texts (checker.apply, checker.item).
var (
	sectionTextRules = map[string]collections.TextRule{
		"title":    {Label: "Title", Max: maxTitle},
		"subTitle": {Label: "Sub-title", Max: maxSubTitle},
	}
	itemTextRules = map[string]collections.TextRule{
		"title":       {Label: "Title", Max: maxTitle},
		"subTitle":    {Label: "Sub-title", Max: maxSubTitle},
		"description": {Label: "Description", Max: maxDesc, Long: true},
		"ctaText":     {Label: "Button text", Max: maxCtaText},
	}
)

// TranslationsOf are a stored section's translations, by language (none when it holds none).
func TranslationsOf(sec Section) map[string]SectionTexts {
	out := map[string]SectionTexts{}
	if sec.Translations != "" {
		_ = json.Unmarshal([]byte(sec.Translations), &out)
	}
	return out
}

// translationsText is the stored form of a section's translations ("" for none).
func translationsText(all map[string]SectionTexts) string {
	if len(all) == 0 {
		return ""
	}
	b, _ := json.Marshal(all)
	return string(b)
}

// translations applies a section's translations input (absent: none sent) to sec, whose Config
// is already checked: merged into what sec holds (whole: in place of it, a restore), then the
// texts of items no longer in the section dropped, and each translated text whose default text
// changed from prev's (and which the write does not set) marked outdated; a text the write sets
// is unmarked. The languages whose texts the write changes are noted (c.langs) for the site's
// check.
func (c *checker) translations(prefix string, raw json.RawMessage, prev Section, sec *Section, whole bool) {
	key := prefix + "translations"
	before := TranslationsOf(*sec)
	next := map[string]SectionTexts{}
	if !whole {
		maps.Copy(next, before)
	}
	raw = bytes.TrimSpace(raw)
	var text string
	if json.Unmarshal(raw, &text) == nil {
		// Sent as text, as a kept state holds it (a version, the section route's own write):
		// the section's translations as they are to be, derived marks included.
		raw = []byte(strings.TrimSpace(text))
		whole = true
		next = map[string]SectionTexts{}
	}
	if len(raw) > 2*maxConfig {
		c.fail(key, fmt.Sprintf("Section translations are too large (at most %d KB).", 2*maxConfig/1000))
		return
	}
	byLang, ok := collections.SplitTranslations(raw, key, c.fail)
	if !ok {
		return
	}
	var items []configItem
	_ = json.Unmarshal([]byte(sec.Config), &items)
	itemIDs := make([]string, 0, len(items))
	for _, it := range items {
		itemIDs = append(itemIDs, it.ID)
	}
	sent := map[string][]string{}
	for _, lang := range slices.Sorted(maps.Keys(byLang)) {
		if byLang[lang] == nil {
			delete(next, lang)
			continue
		}
		lkey := key + "." + lang
		var in map[string]json.RawMessage
		if err := json.Unmarshal(byLang[lang], &in); err != nil {
			c.fail(lkey, "This translation must be an object of texts.")
			continue
		}
		cur := next[lang]
		cur.Items = maps.Clone(cur.Items)
		var set []string
		for _, name := range slices.Sorted(maps.Keys(in)) {
			v := in[name]
			switch name {
			case "title":
				cur.Title = collections.TranslatedTextOr(c.fail, lkey+"."+name, lang, sectionTextRules[name], v, cur.Title)
				set = append(set, name)
			case "subTitle":
				cur.SubTitle = collections.TranslatedTextOr(c.fail, lkey+"."+name, lang, sectionTextRules[name], v, cur.SubTitle)
				set = append(set, name)
			case TranslationOutdated:
				// Derived: what a client sends back is ignored, but for a kept state's.
				var list []string
				if whole && json.Unmarshal(v, &list) == nil {
					cur.Outdated = list
				}
			case "items":
				var paths []string
				cur.Items, paths = c.itemTranslations(lkey+".items", lang, v, cur.Items, itemIDs)
				set = append(set, paths...)
			default:
				c.fail(lkey+"."+name, fmt.Sprintf("%q cannot be translated: a section's translation holds title, subTitle and items.", formats.Shorten(name, 40)))
			}
		}
		sent[lang] = set
		next[lang] = cur
	}
	// A default text changed since: its translations the write does not set are outdated.
	changed := changedTexts(prev, *sec)
	// Only texts: items gone from the section take their texts with them.
	for lang, tr := range next {
		tr.Items = maps.Clone(tr.Items)
		for id, it := range tr.Items {
			if !slices.Contains(itemIDs, id) || it.empty() {
				delete(tr.Items, id)
			}
		}
		if len(tr.Items) == 0 {
			tr.Items = nil
		}
		tr.Outdated = collections.OutdatedMarks(tr.Outdated, sent[lang], changed, whole, tr.has)
		if tr.empty() {
			delete(next, lang)
			continue
		}
		next[lang] = tr
	}
	for lang, tr := range next {
		if _, named := c.langs[lang]; !named && !reflect.DeepEqual(tr, before[lang]) {
			c.langs[lang] = key + "." + lang
		}
	}
	sec.Translations = translationsText(next)
}

// itemTranslations merges one language's item texts, by item id, into cur.
func (c *checker) itemTranslations(key, lang string, raw json.RawMessage, cur map[string]ItemTexts, itemIDs []string) (map[string]ItemTexts, []string) {
	if cur == nil {
		cur = map[string]ItemTexts{}
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var set []string
	var byID map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byID); err != nil {
		c.fail(key, "Items must be an object of item texts by item id, such as {\"i1\": {\"title\": \"…\"}}.")
		return cur, nil
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		ikey := key + "." + formats.Shorten(id, 40)
		if !slices.Contains(itemIDs, id) {
			c.fail(ikey, "This item is not in the section (give a new item an id to translate it in the same save).")
			continue
		}
		if bytes.Equal(bytes.TrimSpace(byID[id]), []byte("null")) {
			delete(cur, id)
			continue
		}
		var in map[string]json.RawMessage
		if err := json.Unmarshal(byID[id], &in); err != nil {
			c.fail(ikey, "An item's translation must be an object of texts.")
			continue
		}
		it := cur[id]
		for _, name := range slices.Sorted(maps.Keys(in)) {
			rule, ok := itemTextRules[name]
			if !ok {
				c.fail(ikey+"."+formats.Shorten(name, 40), fmt.Sprintf("%q cannot be translated: an item's translation holds title, subTitle, description and ctaText.", formats.Shorten(name, 40)))
				continue
			}
			v := in[name]
			set = append(set, "items."+id+"."+name)
			switch name {
			case "title":
				it.Title = collections.TranslatedTextOr(c.fail, ikey+"."+name, lang, rule, v, it.Title)
			case "subTitle":
				it.SubTitle = collections.TranslatedTextOr(c.fail, ikey+"."+name, lang, rule, v, it.SubTitle)
			case "description":
				it.Description = collections.TranslatedTextOr(c.fail, ikey+"."+name, lang, rule, v, it.Description)
			case "ctaText":
				it.CtaText = collections.TranslatedTextOr(c.fail, ikey+"."+name, lang, rule, v, it.CtaText)
			}
		}
		cur[id] = it
	}
	return cur, set
}

// sectionLanguages are the languages the sections hold a translation in, sorted.
func sectionLanguages(secs []Section) []string {
	var out []string
	for _, sec := range secs {
		for lang := range TranslationsOf(sec) {
			if !slices.Contains(out, lang) {
				out = append(out, lang)
			}
		}
	}
	slices.Sort(out)
	return out
}
