// Package langs is the catalogue of languages a site can publish in: about forty common ones by
// BCP 47 code, each with its own name ("Français", "العربية"), its English name and its writing
// direction. The site settings choose from it, the panel's pickers list it (GET /languages), and
// the website sets <html lang dir> from it.
package langs

import (
	"sort"
	"strings"
)

// Directions of writing.
const (
	LTR = "ltr"
	RTL = "rtl"
)

// Language is one language of the catalogue.
type Language struct {
	// Code is the BCP 47 code ("fr", "pt-BR").
	Code string `json:"code"`
	// Name is the language's name in itself ("Français").
	Name string `json:"name"`
	// English is its name in English ("French").
	English string `json:"english"`
	// Dir is its writing direction: LTR or RTL.
	Dir string `json:"dir"`
}

// All is the catalogue, in the order the pickers show it (by English name).
var All = []Language{
	{"af", "Afrikaans", "Afrikaans", LTR},
	{"ar", "العربية", "Arabic", RTL},
	{"bn", "বাংলা", "Bengali", LTR},
	{"ca", "Català", "Catalan", LTR},
	{"zh", "中文", "Chinese", LTR},
	{"hr", "Hrvatski", "Croatian", LTR},
	{"cs", "Čeština", "Czech", LTR},
	{"da", "Dansk", "Danish", LTR},
	{"nl", "Nederlands", "Dutch", LTR},
	{"en", "English", "English", LTR},
	{"fa", "فارسی", "Persian", RTL},
	{"fi", "Suomi", "Finnish", LTR},
	{"fr", "Français", "French", LTR},
	{"de", "Deutsch", "German", LTR},
	{"el", "Ελληνικά", "Greek", LTR},
	{"he", "עברית", "Hebrew", RTL},
	{"hi", "हिन्दी", "Hindi", LTR},
	{"hu", "Magyar", "Hungarian", LTR},
	{"id", "Bahasa Indonesia", "Indonesian", LTR},
	{"ga", "Gaeilge", "Irish", LTR},
	{"it", "Italiano", "Italian", LTR},
	{"ja", "日本語", "Japanese", LTR},
	{"ko", "한국어", "Korean", LTR},
	{"ms", "Bahasa Melayu", "Malay", LTR},
	{"no", "Norsk", "Norwegian", LTR},
	{"pl", "Polski", "Polish", LTR},
	{"pt", "Português", "Portuguese", LTR},
	{"ro", "Română", "Romanian", LTR},
	{"ru", "Русский", "Russian", LTR},
	{"sr", "Српски", "Serbian", LTR},
	{"sk", "Slovenčina", "Slovak", LTR},
	{"es", "Español", "Spanish", LTR},
	{"sw", "Kiswahili", "Swahili", LTR},
	{"sv", "Svenska", "Swedish", LTR},
	{"ta", "தமிழ்", "Tamil", LTR},
	{"th", "ไทย", "Thai", LTR},
	{"tr", "Türkçe", "Turkish", LTR},
	{"uk", "Українська", "Ukrainian", LTR},
	{"ur", "اردو", "Urdu", RTL},
	{"vi", "Tiếng Việt", "Vietnamese", LTR},
	{"cy", "Cymraeg", "Welsh", LTR},
}

// Default is the language a site publishes in until its settings choose another.
const Default = "en"

// MaxOthers is how many languages a site may publish in beside its default one.
const MaxOthers = 9

var byCode = func() map[string]Language {
	sort.SliceStable(All, func(i, j int) bool { return All[i].English < All[j].English })
	out := make(map[string]Language, len(All))
	for _, l := range All {
		out[l.Code] = l
	}
	return out
}()

// Find returns the catalogue's language of code (exactly as the catalogue writes it).
func Find(code string) (Language, bool) {
	l, ok := byCode[code]
	return l, ok
}

// Dir is the writing direction of code: RTL for a right-to-left language of the catalogue, LTR
// otherwise.
func Dir(code string) string {
	if l, ok := byCode[code]; ok {
		return l.Dir
	}
	return LTR
}

// Name is code's own name ("Français"), or the code itself when the catalogue lacks it.
func Name(code string) string {
	if l, ok := byCode[code]; ok {
		return l.Name
	}
	return code
}

// English is code's English name ("French"), or the code itself when the catalogue lacks it.
func English(code string) string {
	if l, ok := byCode[code]; ok {
		return l.English
	}
	return code
}

// Negotiate picks, from an Accept-Language header, the first of offered (the site's languages)
// the visitor accepts, by quality and then order; a tag matches an offered code by its primary
// subtag too ("fr-CA" takes "fr"). "" when none matches.
func Negotiate(header string, offered []string) string {
	best, bestQ := "", 0.0
	for i, part := range strings.Split(header, ",") {
		if i >= 32 {
			break // a header is bounded like every other input
		}
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if p := strings.TrimSpace(params); strings.HasPrefix(p, "q=") {
			q = parseQ(p[2:])
		}
		tag = strings.ToLower(strings.TrimSpace(tag))
		if tag == "" || q <= bestQ {
			continue
		}
		primary, _, _ := strings.Cut(tag, "-")
		for _, code := range offered {
			c := strings.ToLower(code)
			if c == tag || c == primary {
				best, bestQ = code, q
				break
			}
		}
	}
	return best
}

// parseQ reads a quality value ("0.8"); a malformed one counts as 0.
func parseQ(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 5 {
		return 0
	}
	var whole, frac, scale float64 = 0, 0, 1
	dot := false
	for _, r := range s {
		switch {
		case r == '.' && !dot:
			dot = true
		case r >= '0' && r <= '9' && !dot:
			whole = whole*10 + float64(r-'0')
		case r >= '0' && r <= '9':
			scale /= 10
			frac += float64(r-'0') * scale
		default:
			return 0
		}
	}
	if q := whole + frac; q <= 1 {
		return q
	}
	return 0
}
