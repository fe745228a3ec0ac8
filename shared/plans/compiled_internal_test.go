package plans

import (
	"testing"

	"github.com/campuscms/panel/shared/compiled/generate"
)

// TestCompiledPlansAreCurrent: plans_gen.go was generated from the embedded plans.json.
func TestCompiledPlansAreCurrent(t *testing.T) {
	generate.CheckCurrent(t, plansJSON, "plans.json", compiledPlans)
}
