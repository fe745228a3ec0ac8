// Command settings is the Lambda of the settings group (see shared/routes/routes.json).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("settings") }
