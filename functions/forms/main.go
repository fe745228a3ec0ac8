// Command forms is the Lambda of the forms group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("forms") }
