// Command access is the Lambda of the access group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("access") }
