package tenants_test

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }
