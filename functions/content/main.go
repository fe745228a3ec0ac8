// Command content is the Lambda of the content group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("content") }
