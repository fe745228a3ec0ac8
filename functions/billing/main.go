// Command billing is the Lambda of the billing group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/plans"
)

func main() { lambdamain.Start("billing", plans.Module, collections.Module(collections.Linked{})) }
