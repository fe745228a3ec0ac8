package website

import (
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMessageFilesComplete: every language's message file holds every key of en.json, with the
// same named values ({name}, {date}…), and nothing en.json lacks; the six languages the issue
// names are shipped.
func TestMessageFilesComplete(t *testing.T) {
	en, err := readMessages(fallbackLang)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "fr", "es", "de", "ar", "pt"} {
		if !messageLangs()[lang] {
			t.Errorf("messages/%s.json is not shipped", lang)
		}
	}
	placeholders := regexp.MustCompile(`\{/?[a-z]+\}`)
	names := func(s string) []string {
		out := placeholders.FindAllString(s, -1)
		slices.Sort(out)
		return slices.Compact(out)
	}
	files, _ := fs.Glob(messageFS, "messages/*.json")
	for _, f := range files {
		lang := strings.TrimSuffix(path.Base(f), ".json")
		m, err := readMessages(lang)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for key, text := range en {
			got, ok := m[key]
			switch {
			case !ok || strings.TrimSpace(got) == "":
				t.Errorf("%s lacks %q", f, key)
			case !slices.Equal(names(got), names(text)):
				t.Errorf("%s %q names %v, en.json %v", f, key, names(got), names(text))
			}
		}
		for key := range m {
			if _, ok := en[key]; !ok {
				t.Errorf("%s has %q, which en.json lacks", f, key)
			}
		}
	}
}

// TestMessageKeysExist: every key the templates and the Go code ask for is in en.json (a key no
// file holds would be shown as itself).
func TestMessageKeysExist(t *testing.T) {
	en, err := readMessages(fallbackLang)
	if err != nil {
		t.Fatal(err)
	}
	used := regexp.MustCompile(`(?:\.T|T\(|\.HTML|q\.T\(|title: |nav: |label: |signupPage\(|signupPost\()\s*"([a-z_]+\.[a-z_.]*[a-z_]|[a-z_]+)"`)
	var sources []string
	_ = fs.WalkDir(templateFS, "templates", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(templateFS, p)
			sources = append(sources, string(b))
		}
		return nil
	})
	n := 0
	for _, src := range sources {
		for _, m := range used.FindAllStringSubmatch(src, -1) {
			n++
			if _, ok := en[m[1]]; !ok {
				t.Errorf("the templates ask for %q, which en.json lacks", m[1])
			}
		}
	}
	for _, l := range listPages {
		for _, key := range []string{l.title, l.nav} {
			if _, ok := en[key]; key != "" && !ok {
				t.Errorf("list page %s: %q is not in en.json", l.path, key)
			}
		}
	}
	for _, g := range searchGroups {
		if _, ok := en[g.label]; !ok {
			t.Errorf("search group %s: %q is not in en.json", g.param, g.label)
		}
	}
	if n < 100 {
		t.Errorf("found %d keys in the templates: the pattern no longer reads them", n)
	}
}

// TestMessageFallsBackToEnglish: a key a language's file lacks, and a language without a file,
// are English; a regional tag uses its language's file; named values are filled in.
func TestMessageFallsBackToEnglish(t *testing.T) {
	if got := msg("fr", "home.upcoming"); got != "Événements à venir" {
		t.Errorf("fr: %q", got)
	}
	if got := msg("it", "home.upcoming"); got != "Upcoming events" {
		t.Errorf("a language without a file: %q", got)
	}
	if got := msg("pt-BR", "home.upcoming"); got != msg("pt", "home.upcoming") {
		t.Errorf("pt-BR: %q", got)
	}
	if got := msg("de", "pager.page", "page", 2, "last", 5); got != "Seite 2 von 5" {
		t.Errorf("named values: %q", got)
	}
	catalogues["fr"].m["home.highlights"] = ""
	defer func() { catalogues["fr"].m["home.highlights"] = "À la une" }()
	if got := msg("fr", "home.highlights"); got != "Highlights" {
		t.Errorf("an empty text falls back to English: %q", got)
	}
}

// TestDatesAndNumbersPerLanguage: dates in each message language's words and digits.
func TestDatesAndNumbersPerLanguage(t *testing.T) {
	day := "2026-11-02"
	for lang, want := range map[string]string{
		"en": "Mon 2 Nov 2026",
		"fr": "lun. 2 nov. 2026",
		"de": "Mo., 2. Nov. 2026",
		"es": "lun 2 nov 2026",
		"pt": "seg., 2 de nov. de 2026",
		"ar": "الاثنين ٢ نوفمبر ٢٠٢٦",
	} {
		if got := newLocale(lang, "en").Date(day); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	long := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	if got := newLocale("fr", "en").LongDate(long); got != "2 janvier 2026" {
		t.Errorf("fr long date: %q", got)
	}
	if got := newLocale("fr", "en").Size(1.5 * (1 << 20)); got != "1,5 Mo" {
		t.Errorf("fr size: %q", got)
	}
	if got := newLocale("en", "en").Size(float64(3 << 20)); got != "3 MB" {
		t.Errorf("en size: %q", got)
	}
	if got := newLocale("de", "en").Num(12345); got != "12.345" {
		t.Errorf("de number: %q", got)
	}
	if got := newLocale("ar", "en").clock(time.Date(2026, 1, 2, 9, 5, 0, 0, time.UTC)); got != "٠٩:٠٥" {
		t.Errorf("ar clock: %q", got)
	}
}

// TestLocaleHTMLEscapes: a message's text and its values are escaped; only the caller's own
// markup goes in as it is.
func TestLocaleHTMLEscapes(t *testing.T) {
	l := newLocale("en", "en")
	got := string(l.HTML("statement.contact", "contact", "<b>x</b>"))
	if !strings.Contains(got, "tell us: &lt;b&gt;x&lt;/b&gt;, or use") {
		t.Errorf("a value is not escaped: %s", got)
	}
	got = string(l.HTML("statement.full", "link", template.HTML(`<a href="/x">`), "/link", template.HTML("</a>")))
	if !strings.Contains(got, `the <a href="/x">Web`) || !strings.Contains(got, "2.1</a> level") || strings.Contains(got, "{link}") {
		t.Errorf("the caller's markup is not written as it is: %s", got)
	}
	got = string(l.HTML("statement.full", "link", `<a href="/x">`, "/link", "</a>"))
	if !strings.Contains(got, `the &lt;a href=&#34;/x&#34;&gt;Web`) {
		t.Errorf("markup given as text is not escaped: %s", got)
	}
}

// TestLanguagePrefix: only a catalogue code is a language prefix.
func TestLanguagePrefix(t *testing.T) {
	for in, want := range map[string][2]string{
		"/fr": {"fr", "/"}, "/fr/": {"fr", "/"}, "/fr/a-propos": {"fr", "/a-propos"}, "/ar/events/01X": {"ar", "/events/01X"},
		"/events": {"", ""}, "/f": {"", ""}, "/": {"", ""}, "/xx/about": {"", ""}, "/french/x": {"", ""},
	} {
		code, rest, _ := langPrefix(in)
		if code != want[0] || rest != want[1] {
			t.Errorf("%s: (%q, %q), want %v", in, code, rest, want)
		}
	}
	l := newLocale("fr", "en")
	for in, want := range map[string]string{"/": "/fr/", "/events": "/fr/events", "https://x.org/a": "https://x.org/a", "//x.org": "//x.org", "#top": "#top"} {
		if got := l.Href(in); got != want {
			t.Errorf("Href(%q) = %q, want %q", in, got, want)
		}
	}
	if got := newLocale("en", "en").Href("/events"); got != "/events" {
		t.Errorf("the default language has no prefix: %q", got)
	}
}
