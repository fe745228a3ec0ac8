package adversarial_test

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// Totals of the run, printed after the tests (on stdout, so a plain `go test` shows them too).
var totals struct {
	sent, refused, serverErrors atomic.Int64
	// busy counts the 503s answered, as they should be, while a test injected AWS throttling.
	busy atomic.Int64
}

func TestMain(m *testing.M) {
	code := testkit.Run(m)
	fmt.Fprintf(os.Stdout, "adversarial suite: %d requests sent, %d refused as expected, %d answered 5xx (must be 0); "+
		"%d answered 503 busy under injected AWS faults, as they should\n",
		totals.sent.Load(), totals.refused.Load(), totals.serverErrors.Load(), totals.busy.Load())
	if totals.serverErrors.Load() > 0 && code == 0 {
		code = 1
	}
	os.Exit(code)
}
