// Command gen compiles plans.json into plans_gen.go (shared/compiled): go generate ./shared/plans.
package main

import (
	"github.com/campuscms/panel/shared/compiled/generate"
	"github.com/campuscms/panel/shared/plans"
)

func main() { generate.Main[[]plans.Plan]("plans", "compiledPlans", "plans.json", "plans_gen.go") }
