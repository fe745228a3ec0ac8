package langs

import (
	"sort"
	"testing"
)

func TestCatalogue(t *testing.T) {
	if len(All) < 38 {
		t.Fatalf("catalogue holds %d languages, want about forty", len(All))
	}
	seen := map[string]bool{}
	for _, l := range All {
		if seen[l.Code] || l.Code == "" || l.Name == "" || l.English == "" || (l.Dir != LTR && l.Dir != RTL) {
			t.Errorf("bad or repeated entry %+v", l)
		}
		seen[l.Code] = true
	}
	for _, code := range []string{"en", "fr", "es", "de", "pt", "it", "nl", "ar", "he", "fa", "ur", "cy", "ga", "pl", "ro", "el", "tr", "ru", "uk", "zh", "ja", "ko", "hi", "bn", "sw"} {
		if _, ok := Find(code); !ok {
			t.Errorf("catalogue lacks %s", code)
		}
	}
	if !sort.SliceIsSorted(All, func(i, j int) bool { return All[i].English < All[j].English }) {
		t.Error("catalogue is not in English-name order")
	}
}

func TestDirAndNames(t *testing.T) {
	for code, want := range map[string]string{"ar": RTL, "he": RTL, "fa": RTL, "ur": RTL, "fr": LTR, "en": LTR, "xx": LTR} {
		if got := Dir(code); got != want {
			t.Errorf("Dir(%s) = %s, want %s", code, got, want)
		}
	}
	if Name("fr") != "Français" || Name("ar") != "العربية" || English("fr") != "French" || Name("xx") != "xx" {
		t.Errorf("names: %q %q %q %q", Name("fr"), Name("ar"), English("fr"), Name("xx"))
	}
	if _, ok := Find("FR"); ok {
		t.Error("Find accepts a code the catalogue does not write")
	}
}

func TestNegotiate(t *testing.T) {
	offered := []string{"en", "fr", "ar"}
	cases := []struct{ name, header, want string }{
		{"empty", "", ""},
		{"exact", "fr", "fr"},
		{"region takes primary", "fr-CA,en;q=0.5", "fr"},
		{"quality wins", "en;q=0.4, ar;q=0.9", "ar"},
		{"none offered", "de, it;q=0.8", ""},
		{"zero quality refused", "fr;q=0, en;q=0.1", "en"},
		{"malformed quality", "fr;q=abc, en", "en"},
		{"case", "FR-be", "fr"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Negotiate(c.header, offered); got != c.want {
				t.Errorf("Negotiate(%q) = %q, want %q", c.header, got, c.want)
			}
		})
	}
}
