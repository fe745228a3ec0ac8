package modules

import (
	"sort"
	"testing"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/routes"
)

// TestRouteTableMatchesCode fails when routes.json lists a prefix no code serves, or code serves
// a prefix routes.json does not list (and so the CDK stack would not route to it).
func TestRouteTableMatchesCode(t *testing.T) {
	table, err := routes.Load()
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for g, prefixes := range table.Groups {
		for _, p := range prefixes {
			listed = append(listed, table.BasePathFor(g)+"/"+p)
		}
	}
	sort.Strings(listed)
	served := app.Paths(table, All())
	if len(listed) != len(served) {
		t.Fatalf("routes.json lists %v, code serves %v", listed, served)
	}
	for i := range listed {
		if listed[i] != served[i] {
			t.Fatalf("routes.json lists %v, code serves %v", listed, served)
		}
	}
}
