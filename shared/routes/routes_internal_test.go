package routes

import (
	"testing"

	"github.com/campuscms/panel/shared/compiled/generate"
)

// TestCompiledTableIsCurrent: routes_gen.go was generated from the embedded routes.json.
func TestCompiledTableIsCurrent(t *testing.T) {
	generate.CheckCurrent(t, routesJSON, "routes.json", compiledTable)
}

// TestCheckRefusesTwoOwners: a path owned by two groups is a start-up error.
func TestCheckRefusesTwoOwners(t *testing.T) {
	_, err := check(Table{BasePath: "/api", Groups: map[string][]string{"a": {"faqs"}, "b": {"faqs"}}, Website: "website"})
	if err == nil {
		t.Fatal("two owners of /api/faqs accepted")
	}
}
