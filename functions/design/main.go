// Command design is the Lambda of the design group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/themes"
)

func main() {
	lambdamain.Start("design", media.Module, themes.Module, collections.Module(collections.Linked{Hooks: themes.Hooks()}))
}
