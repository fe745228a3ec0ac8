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
// texts of items no longer in the section dropped. The languages whose texts the write changes
// are noted (c.langs) for the site's check.
func (c *checker) translations(prefix string, raw json.RawMessage, sec *Section, whole bool) {
	key := prefix + "translations"
	before := TranslationsOf(*sec)
	next := map[string]SectionTexts{}
	if !whole {
		maps.Copy(next, before)
	}
	raw = bytes.TrimSpace(raw)
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = []byte(strings.TrimSpace(text)) // sent as text, as a kept state holds it
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
		for _, name := range slices.Sorted(maps.Keys(in)) {
			v := in[name]
			switch name {
			case "title":
				cur.Title = c.text(lkey+"."+name, lang, sectionTextRules[name], v, cur.Title)
			case "subTitle":
				cur.SubTitle = c.text(lkey+"."+name, lang, sectionTextRules[name], v, cur.SubTitle)
			case "items":
				cur.Items = c.itemTranslations(lkey+".items", lang, v, cur.Items, itemIDs)
			default:
				c.fail(lkey+"."+name, fmt.Sprintf("%q cannot be translated: a section's translation holds title, subTitle and items.", truncate(name, 40)))
			}
		}
		next[lang] = cur
	}
	// Only texts: items gone from the section take their texts with them.
	for lang, tr := range next {
		for id, it := range tr.Items {
			if !slices.Contains(itemIDs, id) || it.empty() {
				delete(tr.Items, id)
			}
		}
		if len(tr.Items) == 0 {
			tr.Items = nil
		}
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
func (c *checker) itemTranslations(key, lang string, raw json.RawMessage, cur map[string]ItemTexts, itemIDs []string) map[string]ItemTexts {
	if cur == nil {
		cur = map[string]ItemTexts{}
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	var byID map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byID); err != nil {
		c.fail(key, "Items must be an object of item texts by item id, such as {\"i1\": {\"title\": \"…\"}}.")
		return cur
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		ikey := key + "." + truncate(id, 40)
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
				c.fail(ikey+"."+truncate(name, 40), fmt.Sprintf("%q cannot be translated: an item's translation holds title, subTitle, description and ctaText.", truncate(name, 40)))
				continue
			}
			v := in[name]
			switch name {
			case "title":
				it.Title = c.text(ikey+"."+name, lang, rule, v, it.Title)
			case "subTitle":
				it.SubTitle = c.text(ikey+"."+name, lang, rule, v, it.SubTitle)
			case "description":
				it.Description = c.text(ikey+"."+name, lang, rule, v, it.Description)
			case "ctaText":
				it.CtaText = c.text(ikey+"."+name, lang, rule, v, it.CtaText)
			}
		}
		cur[id] = it
	}
	return cur
}

// text converts one translated text by its rule; on an error it keeps cur.
func (c *checker) text(key, lang string, rule collections.TextRule, raw json.RawMessage, cur string) string {
	s, msg := collections.TranslatedText(lang, rule, raw)
	if msg != "" {
		c.fail(key, msg)
		return cur
	}
	return s
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

func truncate(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}
