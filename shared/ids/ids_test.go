package ids

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	cases := map[string]bool{
		New():                         true,
		"01ARZ3NDEKTSV4RRFFQ69G5FAV":  true,
		"01arz3ndektsv4rrffq69g5fav":  false, // lower case is not what New makes
		"01ARZ3NDEKTSV4RRFFQ69G5FA":   false,
		"01ARZ3NDEKTSV4RRFFQ69G5FAVX": false,
		"01ARZ3NDEKTSV4RRFFQ69G5FAI":  false,
		"81ARZ3NDEKTSV4RRFFQ69G5FAV":  false, // overflows 128 bits
		"01ARZ3NDEKTSV4RRFFQ69G5F#V":  false,
		strings.Repeat("A", 100_000):  false,
		"":                            false,
	}
	for id, want := range cases {
		if got := Valid(id); got != want {
			t.Errorf("Valid(%.40q) = %v, want %v", id, got, want)
		}
	}
}
