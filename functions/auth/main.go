// Command auth is the Lambda of the auth group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/misc"
)

func main() { lambdamain.Start("auth", app.AuthModule, misc.Module) }
