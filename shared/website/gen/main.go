// Command gen compiles fonts.json into fonts_gen.go (shared/compiled): go generate ./shared/website.
package main

import (
	"github.com/campuscms/panel/shared/compiled/generate"
	"github.com/campuscms/panel/shared/website"
)

func main() {
	generate.Main[map[string]website.FontChoice]("website", "compiledFonts", "fonts.json", "fonts_gen.go")
}
