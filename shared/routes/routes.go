// Package routes is the route ownership table: which resource group (one Lambda each) owns
// which path prefix under the API base path. The local server and the CDK stack both read
// routes.json, so the two can never disagree.
package routes

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
)

//go:embed routes.json
var routesJSON []byte

// Table is the parsed route table.
type Table struct {
	BasePath string              `json:"basePath"`
	Groups   map[string][]string `json:"groups"`
	// BasePaths overrides BasePath for a group (the public website API lives under its own base).
	BasePaths map[string]string `json:"basePaths"`
}

// BasePathFor returns the base path of a group's routes.
func (t Table) BasePathFor(group string) string {
	if b, ok := t.BasePaths[group]; ok {
		return b
	}
	return t.BasePath
}

// Load parses the embedded routes.json and checks that no path has two owners. A prefix may
// appear under two base paths (the staff API's /faqs and the public website API's /faqs).
func Load() (Table, error) {
	var t Table
	if err := json.Unmarshal(routesJSON, &t); err != nil {
		return Table{}, fmt.Errorf("routes: parse routes.json: %w", err)
	}
	for g := range t.BasePaths {
		if _, ok := t.Groups[g]; !ok {
			return Table{}, fmt.Errorf("routes: basePaths names %q, which is not a group", g)
		}
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

// GroupNames returns the groups in sorted order.
func (t Table) GroupNames() []string {
	names := make([]string, 0, len(t.Groups))
	for g := range t.Groups {
		names = append(names, g)
	}
	sort.Strings(names)
	return names
}
