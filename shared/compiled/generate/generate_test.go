package generate

import (
	"strings"
	"testing"
)

type item struct {
	Name string
	Tags []string
}

// TestSourceWritesGoOrRefuses: a value of the package's own types is written with them
// unqualified (and a string naming the package stays as it is); a pointer is refused, since %#v
// would write its address.
func TestSourceWritesGoOrRefuses(t *testing.T) {
	src, err := Source("generate", "compiledItems", []byte(`[]`), []item{{Name: "generate.item{ is text", Tags: []string{"a"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"compiled.Copy[[]item]", `[]item{item{Name: "generate.item{ is text"`, "Hash: 0x"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("source lacks %q:\n%s", want, src)
		}
	}
	if _, err := Source("generate", "x", nil, map[string]*item{}); err == nil {
		t.Error("a map of pointers was written")
	}
}
