// Command access is the Lambda of the access group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/auditlog"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/lambdamain"
)

func main() {
	lambdamain.Start("access", collections.Module(collections.Linked{}), auditlog.Module)
}
