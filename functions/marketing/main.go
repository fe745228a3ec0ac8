// Command marketing is the Lambda of the marketing group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("marketing") }
