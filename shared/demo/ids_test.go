package demo

import (
	"testing"
	"time"

	"github.com/campuscms/panel/shared/ids"
)

func TestFixedID(t *testing.T) {
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a := fixedID("demo", at, "faqs/1")
	cases := []struct {
		name      string
		id        string
		wantEqual bool
	}{
		{"same tenant and name", fixedID("demo", at, "faqs/1"), true},
		{"other name", fixedID("demo", at, "faqs/2"), false},
		{"other tenant", fixedID("demo-2", at, "faqs/1"), false},
	}
	if !ids.Valid(a) {
		t.Fatalf("%q is not a valid id", a)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !ids.Valid(c.id) {
				t.Fatalf("%q is not a valid id", c.id)
			}
			if (c.id == a) != c.wantEqual {
				t.Fatalf("%q vs %q: equal %v, want %v", c.id, a, c.id == a, c.wantEqual)
			}
		})
	}
}
