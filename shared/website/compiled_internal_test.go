package website

import (
	"testing"

	"github.com/campuscms/panel/shared/compiled/generate"
)

// TestCompiledFontsAreCurrent: fonts_gen.go was generated from the embedded fonts.json.
func TestCompiledFontsAreCurrent(t *testing.T) {
	generate.CheckCurrent(t, fontsJSON, "fonts.json", compiledFonts)
}
