// Command content is the Lambda of the content group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/pages"
)

func main() { lambdamain.Start("content", collections.Module(pages.Hooks()), pages.Module) }
