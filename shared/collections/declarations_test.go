package collections

import (
	"reflect"
	"testing"

	"github.com/campuscms/panel/shared/compiled"
)

// The compiled declarations (declarations_gen.go) are what Lambdas start from: they must come
// from the embedded collections.json and equal what parsing it gives.
func TestCompiledDeclarationsAreCurrent(t *testing.T) {
	if compiledDeclarations.Build == nil || compiledDeclarations.Hash != compiled.Hash(declarationsJSON) {
		t.Fatal("declarations_gen.go is missing or older than collections.json: run go generate ./shared/collections")
	}
	parsed, err := Parse()
	if err != nil {
		t.Fatal(err)
	}
	built := compiledDeclarations.Build()
	for _, key := range parsed.Keys() {
		if !reflect.DeepEqual(parsed[key], built[key]) {
			t.Fatalf("%s differs:\nparsed   %#v\ncompiled %#v", key, *parsed[key], built[key])
		}
	}
	if len(built) != len(parsed) {
		t.Fatalf("%d compiled collections, %d parsed", len(built), len(parsed))
	}
}
