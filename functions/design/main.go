// Command design is the Lambda of the design group: /media/* (later /themes and /theme-settings).
package main

import "github.com/campuscms/panel/shared/lambdamain"

func main() { lambdamain.Start("design") }
