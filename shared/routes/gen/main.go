// Command gen compiles routes.json into routes_gen.go (shared/compiled): go generate ./shared/routes.
package main

import (
	"github.com/campuscms/panel/shared/compiled/generate"
	"github.com/campuscms/panel/shared/routes"
)

func main() { generate.Main[routes.Table]("routes", "compiledTable", "routes.json", "routes_gen.go") }
