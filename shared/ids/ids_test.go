package ids

import (
	"strings"
	"testing"
	"time"
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

// TestAtMatchesTheULIDSpec: the spec's layout (48-bit milliseconds, then entropy, in Crockford
// base 32), checked against values computed by hand: the largest time and entropy, and zero.
func TestAtMatchesTheULIDSpec(t *testing.T) {
	max := [10]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	if got := At(time.UnixMilli(1<<48-1), max); got != "7ZZZZZZZZZZZZZZZZZZZZZZZZZ" {
		t.Errorf("max: %s", got)
	}
	if got := At(time.UnixMilli(0), [10]byte{}); got != "00000000000000000000000000" {
		t.Errorf("zero: %s", got)
	}
	// 1469918176385 ms is 01ARYZ6S41 in the spec's example; entropy 1 ends the id in ...0001.
	if got := At(time.UnixMilli(1469918176385), [10]byte{9: 1}); got != "01ARYZ6S410000000000000001" {
		t.Errorf("spec time: %s", got)
	}
	if a, b := New(), New(); a == b || !Valid(a) {
		t.Errorf("New: %s %s", a, b)
	}
}
