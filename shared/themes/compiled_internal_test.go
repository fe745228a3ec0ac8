package themes

import (
	"testing"

	"github.com/campuscms/panel/shared/compiled/generate"
)

// TestCompiledCatalogueAreCurrent: themes_gen.go was generated from the embedded catalogue.json.
func TestCompiledCatalogueAreCurrent(t *testing.T) {
	generate.CheckCurrent(t, catalogueJSON, "catalogue.json", compiledCatalogue)
}
