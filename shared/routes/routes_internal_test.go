package routes

import (
	"reflect"
	"testing"
)

// TestCompiledTableIsCurrent: routes_gen.go was generated from this routes.json and builds the
// table the JSON parses to.
func TestCompiledTableIsCurrent(t *testing.T) {
	if compiled.build == nil || compiled.hash != Hash() {
		t.Fatal("routes_gen.go is missing or older than routes.json: run go generate ./shared/routes")
	}
	parsed, err := Parse()
	if err != nil {
		t.Fatal(err)
	}
	if built := compiled.build(); !reflect.DeepEqual(parsed, built) {
		t.Fatalf("compiled table differs:\nparsed   %#v\ncompiled %#v", parsed, built)
	}
}

// TestCheckRefusesTwoOwners: a path owned by two groups is a start-up error.
func TestCheckRefusesTwoOwners(t *testing.T) {
	_, err := check(Table{BasePath: "/api", Groups: map[string][]string{"a": {"faqs"}, "b": {"faqs"}}, Website: "website"})
	if err == nil {
		t.Fatal("two owners of /api/faqs accepted")
	}
}
