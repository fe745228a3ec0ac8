package a11ycheck_test

import (
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }
