package website

import (
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/words"
)

// show writes segments as the template draws them.
func show(segs []segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Mark {
			b.WriteString("[" + s.Text + "]")
		} else {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

func TestMarkedWordsAndSnippets(t *testing.T) {
	q := words.Query("cafe über 2026")
	if got := show(marked("Café & Crème: Über 2026 — open Cafeteria", q)); got != "[Café] & Crème: [Über] [2026] — open [Cafeteria]" {
		t.Errorf("marked: %s", got)
	}
	// A word marked only where a typed word begins it.
	if got := show(marked("Harbourside and the harbour", words.Query("bour"))); got != "Harbourside and the harbour" {
		t.Errorf("inside a word: %s", got)
	}
	long := strings.Repeat("Lorem ipsum dolor sit amet. ", 20) + "The harbour gate opens at nine. " + strings.Repeat("Tail words here. ", 30)
	snip, ok := snippet(long, words.Query("harbour"))
	got := show(snip)
	if !ok || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "The [harbour] gate opens at nine.") {
		t.Errorf("snippet: %q", got)
	}
	if n := len([]rune(got)); n > snippetRunes+10 {
		t.Errorf("snippet of %d characters", n)
	}
	// Cut at spaces: the first and last words are whole.
	inner := strings.NewReplacer("[", "", "]", "").Replace(strings.TrimSuffix(strings.TrimPrefix(got, "…"), "…"))
	if strings.HasPrefix(inner, " ") || !strings.Contains(long, inner) {
		t.Errorf("snippet not cut at words: %q", inner)
	}
	for _, w := range strings.Fields(inner) {
		w = strings.Trim(w, ".")
		if !strings.Contains(" "+long+" ", " "+w) {
			t.Errorf("a cut word %q in %q", w, inner)
		}
	}
	if _, ok := snippet("Nothing to see", words.Query("harbour")); ok {
		t.Error("a snippet without a match")
	}
	// Short text: whole, no ellipsis.
	if snip, _ := snippet("Ring the harbour office.", words.Query("harb")); show(snip) != "Ring the [harbour] office." {
		t.Errorf("short: %s", show(snip))
	}
}

func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"<p>One</p><p>two &amp; <strong>thr</strong>ee</p>": "One two & three",
		"<ul><li>a</li><li>b</li></ul>":                     "a b",
		"no tags at all":                                    "no tags at all",
		"<p>unclosed <em>tag":                               "unclosed tag",
	} {
		if got := collapseSpace(plainText(in)); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
	big := "<p>" + strings.Repeat("word ", 10_000) + "</p>"
	if n := len(plainText(big)); n > snippetScan+100 {
		t.Errorf("plainText read %d bytes", n)
	}
}
