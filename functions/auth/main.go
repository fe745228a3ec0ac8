// Command auth is the Lambda of the auth group (see shared/routes/routes.json). It links only the
// modules its routes use.
package main

import (
	"github.com/campuscms/panel/shared/auth/authmodule"
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/misc"
	"github.com/campuscms/panel/shared/visits"
	// Two-factor keys are sealed with KMS (KMS_KEY_ID); only this group links the KMS client.
	_ "github.com/campuscms/panel/shared/secrets/kmssealer"
)

func main() { lambdamain.Start("auth", authmodule.Module, misc.Module, visits.Module) }
