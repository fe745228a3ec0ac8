// Package words is how the panel reads names for search: folded to plain lower-case letters and
// digits (accents, case and punctuation ignored, so "cafe" finds "Café" and "uber" finds "Über"),
// split into words, and matched word by word ("open day" finds "Café & Crème: Über 2026 — Open
// Day!!": every typed word begins some word of the name, in any order).
package words

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxWords is how many distinct words of a record's name are indexed: a rename rewrites at most
// that many index items and deletes as many (14). The largest write there is, a page whose 40
// sections are all replaced, renamed, given a new slug and rescheduled, is 40 + 40 sections, 14
// index items, 2 slug markers (the new one put, the old one deleted), 1 due item (kept at a
// stable key, so a move is one Put), the page, its kept version and its audit entry: 100, all
// DynamoDB takes in one transaction (pages.LargestWrite; a test adds it up and measures it). A
// larger cap, or one more item in that write, needs room made elsewhere first.
const MaxWords = 7

// maxRunes caps one word in a key.
const maxRunes = 40

// special replaces the letters that do not decompose into a base letter and a mark. Built on
// first use: a package variable would cost every group's start for the few that search.
var (
	specialOnce sync.Once
	special     *strings.Replacer
)

// Fold is s in lower case without accents: "Crème Brûlée" → "creme brulee".
func Fold(s string) string {
	specialOnce.Do(func() {
		special = strings.NewReplacer("ß", "ss", "æ", "ae", "œ", "oe", "ø", "o", "ł", "l", "đ", "d", "ð", "d", "þ", "th", "ı", "i")
	})
	s = special.Replace(strings.ToLower(s))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Split is the folded words of s, in order, repeats included; anything but a letter or a digit
// separates words.
func Split(s string) []string {
	out := strings.FieldsFunc(Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range out {
		if utf8.RuneCountInString(w) > maxRunes {
			out[i] = string([]rune(w)[:maxRunes])
		}
	}
	return out
}

// Of is what a record's names are indexed under: their distinct words in order, at most
// MaxWords.
func Of(names ...string) []string { return OfAtMost(MaxWords, names...) }

// OfAtMost is Of with another cap (a form submission is found by any of its values' first 25
// words).
func OfAtMost(n int, names ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, name := range names {
		for _, w := range Split(name) {
			if !seen[w] && len(out) < n {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// Query is a search's words, distinct, longest first (the longest drives the read: it matches
// the fewest records).
func Query(search string) []string {
	q := Of(search)
	// Stable: equally long words keep the order they were typed in.
	for i := 1; i < len(q); i++ {
		for j := i; j > 0 && utf8.RuneCountInString(q[j]) > utf8.RuneCountInString(q[j-1]); j-- {
			q[j], q[j-1] = q[j-1], q[j]
		}
	}
	return q
}

// Match reports whether every query word begins some word of the record's.
func Match(query, record []string) bool {
	for _, q := range query {
		found := false
		for _, w := range record {
			if strings.HasPrefix(w, q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
