// Command public is the Lambda of the public group (see shared/routes/routes.json): the read API
// of the institution's website and its public submissions, under /api/v1/public.
package main

import (
	"github.com/campuscms/panel/shared/lambdamain"
	"github.com/campuscms/panel/shared/public"
)

func main() { lambdamain.Start("public", public.Module) }
