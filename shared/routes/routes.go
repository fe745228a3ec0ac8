// Package routes is the route ownership table: which resource group (one Lambda each) owns
// which path prefix under the API base path. The local server and the CDK stack both read
// routes.json, so the two can never disagree.
package routes

import (
	_ "embed"
	"fmt"
	"sort"

	"github.com/campuscms/panel/shared/compiled"
)

//go:embed routes.json
var routesJSON []byte

// Table is the parsed route table.
type Table struct {
	BasePath string              `json:"basePath"`
	Groups   map[string][]string `json:"groups"`
	// BasePaths overrides BasePath for a group (the public website API lives under its own base).
	BasePaths map[string]string `json:"basePaths"`
	// Website is the group that renders the institutions' websites: it owns no API prefix but
	// every path on a website host (the HTTP API's $default route in AWS; requests by Host on the
	// local server).
	Website string `json:"website"`
}

// BasePathFor returns the base path of a group's routes.
func (t Table) BasePathFor(group string) string {
	if b, ok := t.BasePaths[group]; ok {
		return b
	}
	return t.BasePath
}

//go:generate go run ./gen

// Load returns the route table and checks that no path has two owners. A prefix may appear
// under two base paths (the staff API's /faqs and the public website API's /faqs). The table is
// built from its compiled copy (routes_gen.go, shared/compiled) while that matches routes.json.
func Load() (Table, error) {
	t, err := compiled.Load(routesJSON, "routes.json", compiledTable)
	if err != nil {
		return Table{}, err
	}
	return check(t)
}

// compiledTable is set by routes_gen.go's init.
var compiledTable compiled.Copy[Table]

// check refuses a table whose basePaths name no group, whose website group owns prefixes, or
// where a path has two owners.
func check(t Table) (Table, error) {
	for g := range t.BasePaths {
		if _, ok := t.Groups[g]; !ok {
			return Table{}, fmt.Errorf("routes: basePaths names %q, which is not a group", g)
		}
	}
	if _, clash := t.Groups[t.Website]; clash || !validGroupName(t.Website) {
		return Table{}, fmt.Errorf("routes: website %q must be a group name that owns no prefixes", t.Website)
	}
	owner := map[string]string{}
	for g, prefixes := range t.Groups {
		for _, p := range prefixes {
			path := t.BasePathFor(g) + "/" + p
			if other, dup := owner[path]; dup {
				return Table{}, fmt.Errorf("routes: path %q owned by both %s and %s", path, other, g)
			}
			owner[path] = g
		}
	}
	return t, nil
}

// validGroupName reports whether s may name a group (a construct id and a folder under
// functions/): a lower-case letter, then up to 30 lower-case letters, digits or '-'. Checked by
// hand: a package-level regexp cost every Lambda's cold start half a millisecond.
func validGroupName(s string) bool {
	if len(s) == 0 || len(s) > 31 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Functions returns every group that is a Lambda: the API groups and the website, sorted.
func (t Table) Functions() []string {
	names := append(t.GroupNames(), t.Website)
	sort.Strings(names)
	return names
}

// GroupNames returns the groups in sorted order.
func (t Table) GroupNames() []string {
	names := make([]string, 0, len(t.Groups))
	for g := range t.Groups {
		names = append(names, g)
	}
	sort.Strings(names)
	return names
}
