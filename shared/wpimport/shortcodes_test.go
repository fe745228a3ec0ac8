package wpimport

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseAttrs(t *testing.T) {
	cases := []struct {
		name, in   string
		named      map[string]string
		positional []string
	}{
		{"double quotes", ` id="attachment_20" align="aligncenter"`, map[string]string{"id": "attachment_20", "align": "aligncenter"}, nil},
		{"single quotes", ` title='Say "hi"'`, map[string]string{"title": `Say "hi"`}, nil},
		{"bare values", ` width=300 ids=1,2,3`, map[string]string{"width": "300", "ids": "1,2,3"}, nil},
		{"spaces around =", ` width = "300"`, map[string]string{"width": "300"}, nil},
		{"keys are lower-cased", ` IDS="1"`, map[string]string{"ids": "1"}, nil},
		{"positional", ` "one" 'two' three`, map[string]string{}, []string{"one", "two", "three"}},
		{"mixed", ` https://x.example/v width="640" "cap"`, map[string]string{"width": "640"}, []string{"https://x.example/v", "cap"}},
		{"no-break and zero-width spaces separate", " a=\"1\"\u00a0b=\"2\"\u200bc=3", map[string]string{"a": "1", "b": "2", "c": "3"}, nil},
		{"an unclosed tag in a value is dropped", ` caption="<b>bold</b>" bad="<img src=x"`, map[string]string{"caption": "<b>bold</b>", "bad": ""}, nil},
		{"empty", "", map[string]string{}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := parseAttrs(tc.in)
			if !reflect.DeepEqual(a.named, tc.named) || !reflect.DeepEqual(a.positional, tc.positional) {
				t.Errorf("parseAttrs(%q) = %v %q, want %v %q", tc.in, a.named, a.positional, tc.named, tc.positional)
			}
		})
	}
}

func TestScanShortcodes(t *testing.T) {
	type tag struct {
		text            string
		closing, selfCl bool
		name, attrs     string
	}
	scan := func(s string) []tag {
		var out []tag
		for _, t := range scanShortcodes(s) {
			out = append(out, tag{s[t.start:t.end], t.closing, t.selfClosing, t.name, t.attrs})
		}
		return out
	}
	cases := []struct {
		in   string
		want []tag
	}{
		{`[gallery ids="1,2"]`, []tag{{`[gallery ids="1,2"]`, false, false, "gallery", ` ids="1,2"`}}},
		{`a [caption]x[/caption] b`, []tag{{"[caption]", false, false, "caption", ""}, {"[/caption]", true, false, "caption", ""}}},
		{`[hr /]`, []tag{{"[hr /]", false, true, "hr", " "}}},
		{`[vc_row-2 x=1/]`, []tag{{"[vc_row-2 x=1/]", false, true, "vc_row-2", " x=1"}}},
		{`[contact-form-7 id="5"]`, []tag{{`[contact-form-7 id="5"]`, false, false, "contact-form-7", ` id="5"`}}},
		{`[[gallery]]`, []tag{{"[gallery]", false, false, "gallery", ""}}},
		{`[1] [ x] [/ x] [/x y] [-a] [`, nil},
		{`[a [b]`, []tag{{"[b]", false, false, "b", ""}}},
		{`[a "]"]`, []tag{{`[a "]`, false, false, "a", ` "`}}},
		{`[note: see below]`, []tag{{"[note: see below]", false, false, "note", ": see below"}}},
	}
	for _, tc := range cases {
		if got := scan(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("scanShortcodes(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestNextClosing(t *testing.T) {
	tags := scanShortcodes("[a][b][/a][a][/b][/a][c]")
	want := []int{2, 4, -1, 5, -1, -1, -1}
	if got := nextClosing(tags); !reflect.DeepEqual(got, want) {
		t.Errorf("nextClosing = %v, want %v", got, want)
	}
}

// TestShortcodesWithinContent: a shortcode's content is converted too, and one whose closing tag
// lies beyond its enclosing shortcode's end has no content.
func TestShortcodesWithinContent(t *testing.T) {
	f := &findings{}
	got := testConvert(nil).shortcodes(`[a][b][/a]x[/b]`, f)
	if got != "x" {
		t.Errorf("got %q", got)
	}
	if k := kinds(f.list); !reflect.DeepEqual(k, []string{"shortcode a", "shortcode b ×2"}) {
		t.Errorf("findings = %q", k)
	}
}

func TestShortcodeDepthBound(t *testing.T) {
	in := nest(maxShortcodeDepth+10) + "core" + unnest(maxShortcodeDepth+10)
	f := &findings{}
	got := testConvert(nil).shortcodes(in, f)
	if got != "core" {
		t.Errorf("got %q", got)
	}
	total := 0
	for _, x := range f.list {
		total += x.Count
	}
	// Every opening tag is reported; beyond the bound, the closing ones are strays, reported too.
	if total != 2*(maxShortcodeDepth+10)-maxShortcodeDepth {
		t.Errorf("%d findings counted", total)
	}
	if strings.Contains(got, "[") {
		t.Errorf("a tag survived: %q", got)
	}
}
