package collections

import (
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/api"
)

func TestItemSizeGuard(t *testing.T) {
	cases := []struct {
		name string
		rec  Record
		ok   bool
	}{
		{"small", Record{"id": "x", "title": "hello"}, true},
		{"just below", Record{"a": strings.Repeat("x", maxItemBytes-100)}, true},
		{"over", Record{"a": strings.Repeat("x", 200_000), "b": strings.Repeat("y", 200_000)}, false},
		{"escaping counts", Record{"a": strings.Repeat("\"", maxItemBytes/2+10)}, true}, // stored unescaped
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := checkItemSize(Record(c.rec))
			if c.ok != (err == nil) {
				t.Fatalf("checkItemSize: %v, want ok=%v", err, c.ok)
			}
			if err != nil && api.AsError(err).Status != http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d, want 413", api.AsError(err).Status)
			}
		})
	}
}
