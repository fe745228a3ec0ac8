// Command navigation is the Lambda of the navigation group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("navigation") }
