// Command content is the Lambda of the content group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/richtext"
)

func main() {
	lambdamain.Start("content", a11ycheck.Module, collections.Module(collections.Linked{Hooks: pages.Hooks(), RichText: richtext.Sanitize, Observers: []collections.Observer{a11ycheck.Observe}}), pages.Module)
}
