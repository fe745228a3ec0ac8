// Command marketing is the Lambda of the marketing group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/richtext"
)

func main() {
	lambdamain.Start("marketing", collections.Module(collections.Linked{Hooks: newsletter.Hooks(), RichText: richtext.Sanitize, Observers: []collections.Observer{a11ycheck.Observe}}))
}
