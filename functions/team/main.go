// Command team is the Lambda of the team group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
)

func main() {
	lambdamain.Start("team", collections.Module(collections.Linked{Observers: []collections.Observer{a11ycheck.Observe}}))
}
