// Command newevent writes a recorded API Gateway v2 event and its expectation into
// functions/<group>/testdata for the Lambda-path tests (functions/lambdatest).
//
//	go run ./functions/lambdatest/newevent -group team -name list-staff -prefix staff-members \
//	    -auth -status 200 -fields result,totalCount
//
// Placeholders filled per test: {{tenant}}, {{token}}, {{username}}, {{password}}.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/campuscms/panel/functions/lambdatest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "newevent:", err)
		os.Exit(1)
	}
}

func run() error {
	group := flag.String("group", "", "resource group (functions/<group>)")
	name := flag.String("name", "", "event name (file <name>.json)")
	method := flag.String("method", "GET", "HTTP method")
	base := flag.String("base", "/api/v1/tenant", "API base path")
	prefix := flag.String("prefix", "", "route prefix the group owns")
	rest := flag.String("rest", "", "path below the prefix (empty: the bare prefix route)")
	query := flag.String("query", "", "raw query string")
	body := flag.String("body", "", "JSON body")
	withAuth := flag.Bool("auth", false, "send Authorization: Bearer {{token}}")
	tenant := flag.String("tenant", "{{tenant}}", "X-Tenant-Id value")
	status := flag.Int("status", 200, "expected status")
	result := flag.String("result", "", "comma-separated keys the result object must have")
	fields := flag.String("fields", "", "comma-separated top-level body fields that must be present")
	message := flag.String("message", "", "exact expected message")
	flag.Parse()
	if *group == "" || *name == "" || *prefix == "" {
		return fmt.Errorf("-group, -name and -prefix are required")
	}
	headers := map[string]string{"x-tenant-id": *tenant}
	if *withAuth {
		headers["authorization"] = "Bearer {{token}}"
	}
	if *body != "" {
		headers["content-type"] = "application/json"
	}
	ev, err := lambdatest.NewEvent(lambdatest.EventSpec{Method: *method, BasePath: *base, Prefix: *prefix, Rest: *rest, Query: *query, Headers: headers, Body: *body})
	if err != nil {
		return err
	}
	exp := lambdatest.Expect{Status: *status, Result: split(*result), Fields: split(*fields), Message: *message}
	expJSON, err := json.MarshalIndent(exp, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Join("functions", *group, "testdata")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, *name+".json"), ev, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, *name+".expect.json"), append(expJSON, '\n'), 0o644)
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
