// Command navigation is the Lambda of the navigation group (see shared/routes/routes.json). It links only the
// modules its routes use, and the hooks of its redirects.
package main

import (
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/menu"
	"github.com/campuscms/panel/shared/redirects"
)

func main() {
	lambdamain.Start("navigation", menu.Module, collections.Module(collections.Linked{Hooks: redirects.Hooks()}))
}
