package website

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// The theme's fixed words ("Upcoming events", "Read more", the 404, the forms' and the search
// page's texts…) in the language of the page: one JSON file of key → text per language under
// messages/ (en.json holds every key; a language's file may lack some, which are then shown in
// English). A text may name values in braces ("Page {page} of {last}"), replaced as the page is
// drawn (and escaped as text by html/template, like any other value). Adding a language is adding
// its file: messages/{code}.json with the keys of en.json translated.

//go:embed messages/*.json
var messageFS embed.FS

// fallbackLang is the language whose file holds every key.
const fallbackLang = "en"

// catalogue is one language's messages, read on first use (a website Lambda draws a few
// languages; reading all six at start would cost every cold start).
type catalogue struct {
	once sync.Once
	m    map[string]string
	err  error
}

var (
	catalogues   = map[string]*catalogue{}
	cataloguesMu sync.Mutex
)

// messageLangs are the languages that have a message file, by code.
var messageLangs = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	files, _ := fs.Glob(messageFS, "messages/*.json")
	for _, f := range files {
		out[strings.TrimSuffix(path.Base(f), ".json")] = true
	}
	return out
})

// messagesOf is lang's file as read (nil when it has none or it cannot be read: its texts are then
// English). A language tag with a region ("pt-BR") falls back to its base language's file.
func messagesOf(lang string) map[string]string {
	if !messageLangs()[lang] {
		base, _, ok := strings.Cut(lang, "-")
		if !ok || !messageLangs()[base] {
			return nil
		}
		lang = base
	}
	cataloguesMu.Lock()
	c := catalogues[lang]
	if c == nil {
		c = &catalogue{}
		catalogues[lang] = c
	}
	cataloguesMu.Unlock()
	c.once.Do(func() { c.m, c.err = readMessages(lang) })
	return c.m
}

// readMessages parses messages/{lang}.json.
func readMessages(lang string) (map[string]string, error) {
	raw, err := fs.ReadFile(messageFS, "messages/"+lang+".json")
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("website: messages/%s.json: %w", lang, err)
	}
	return m, nil
}

// msg is key's text in lang with its named values filled in (args: name, value, name,
// value…), else its English text; a key no file holds is shown as itself, so a missing text is
// seen (TestMessageKeysExist keeps it from shipping).
func msg(lang, key string, args ...any) string {
	text, ok := messagesOf(lang)[key]
	if !ok || text == "" {
		if text, ok = messagesOf(fallbackLang)[key]; !ok {
			text = key
		}
	}
	if len(args) < 2 || !strings.Contains(text, "{") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		j := strings.IndexByte(text[max(i, 0):], '}')
		if i < 0 || j < 0 {
			break
		}
		b.WriteString(text[:i])
		name, value, found := text[i+1:i+j], "", false
		for k := 0; k+1 < len(args); k += 2 {
			if fmtValue(args[k]) == name {
				value, found = fmtValue(args[k+1]), true
				break
			}
		}
		if !found {
			value = text[i : i+j+1]
		}
		b.WriteString(value)
		text = text[i+j+1:]
	}
	b.WriteString(text)
	return b.String()
}
