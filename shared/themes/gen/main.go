// Command gen compiles catalogue.json into themes_gen.go (shared/compiled): go generate ./shared/themes.
package main

import (
	"github.com/campuscms/panel/shared/compiled/generate"
	"github.com/campuscms/panel/shared/themes"
)

func main() {
	generate.Main[themes.Catalogue]("themes", "compiledCatalogue", "catalogue.json", "themes_gen.go")
}
