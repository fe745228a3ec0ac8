// Command settings is the Lambda of the settings group (see shared/routes/routes.json). It links only the
// modules its routes use: notices (whose article is rich text), notifications, site settings and the WordPress
// import's calls (the import itself runs in the wpimport function).
package main

import (
	"github.com/campuscms/panel/shared/a11ycheck"
	// The time zone database travels with the binary: the site settings' time zone is checked
	// against it, and the provided.al2023 runtime (AL2023 minimal) may carry none of its own.
	_ "time/tzdata"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/richtext"
	"github.com/campuscms/panel/shared/wpimport"
)

func main() {
	lambdamain.Start("settings", collections.Module(collections.Linked{RichText: richtext.Sanitize, Observers: []collections.Observer{a11ycheck.Observe}}), wpimport.Module)
}
