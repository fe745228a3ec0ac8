// Command trash is the Lambda of the trash group (see shared/routes/routes.json): the tenant's
// trash, whose restores write records of every collection (so it links every collection's hooks)
// and move media files back.
package main

import (
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/trash"
)

func main() {
	lambdamain.Start("trash", trash.Module(modules.Linked()))
}
