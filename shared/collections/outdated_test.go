package collections_test

import (
	"slices"
	"testing"

	"github.com/campuscms/panel/shared/collections"
)

// One rule of "may be out of date" for every kind of translation.
func TestOutdatedMarks(t *testing.T) {
	holds := func(paths ...string) func(string) bool {
		return func(p string) bool { return slices.Contains(paths, p) }
	}
	cases := []struct {
		name                string
		marks, set, changed []string
		whole               bool
		has                 func(string) bool
		want                []string
	}{
		{"a changed default marks what the language holds", nil, nil, []string{"title", "hint"}, false, holds("title"), []string{"title"}},
		{"what the write sets is unmarked, not marked again", []string{"title"}, []string{"title"}, []string{"title"}, false, holds("title"), nil},
		{"marks of texts no longer held go", []string{"hint", "title"}, nil, nil, false, holds("title"), []string{"title"}},
		{"sorted, once", []string{"title"}, nil, []string{"b", "title", "a"}, false, holds("a", "b", "title"), []string{"a", "b", "title"}},
		{"a kept state keeps its own marks", []string{"title"}, []string{"title"}, []string{"hint"}, true, holds("title", "hint"), []string{"title"}},
	}
	for _, tc := range cases {
		got := collections.OutdatedMarks(tc.marks, tc.set, tc.changed, tc.whole, tc.has)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
