// Command forms is the Lambda of the forms group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/lambdamain"
)

func main() {
	lambdamain.Start("forms", collections.Module(collections.Linked{Hooks: forms.Hooks(), Observers: []collections.Observer{a11ycheck.Observe}}), forms.Module)
}
