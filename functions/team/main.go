// Command team is the Lambda of the team group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("team") }
