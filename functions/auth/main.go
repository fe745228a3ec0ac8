// Command auth is the Lambda of the auth group: /auth/* and /misc/*.
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("auth") }
