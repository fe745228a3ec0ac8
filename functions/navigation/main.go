// Command navigation is the Lambda of the navigation group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/menu"
)

func main() { lambdamain.Start("navigation", menu.Module, collections.Module(collections.Linked{})) }
