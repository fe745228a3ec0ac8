package words

import (
	"fmt"
	"testing"
)

func TestFoldAndSplit(t *testing.T) {
	for in, want := range map[string]string{
		"Café & Crème: Über 2026 — Open Day!!": "[cafe creme uber 2026 open day]",
		"Straße Ærø Łódź":                      "[strasse aero lodz]",
		"  o'Neil-Smith  ":                     "[o neil smith]",
		"":                                     "[]",
		"日本語 テスト":                              "[日本語 テスト]",
	} {
		if got := fmt.Sprint(Split(in)); got != want {
			t.Errorf("Split(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestMatch(t *testing.T) {
	title := Of("Café & Crème: Über 2026 — Open Day!!")
	for q, want := range map[string]bool{
		"open day": true, "day open": true, "cafe": true, "UBER": true, "Über": true, "cr": true,
		"2026 op": true, "open night": false, "afe": false, "": true, "open-day!": true,
	} {
		if got := Match(Query(q), title); got != want {
			t.Errorf("%q matches %v, want %v", q, got, want)
		}
	}
}

func TestOfCapsAndDedupes(t *testing.T) {
	got := Of("a b a c d e f g h i j", "b k")
	if fmt.Sprint(got) != "[a b c d e f g]" {
		t.Fatalf("Of = %v", got)
	}
	if q := Query("ab abcd abc x"); fmt.Sprint(q) != "[abcd abc ab x]" {
		t.Fatalf("Query = %v", q)
	}
}
