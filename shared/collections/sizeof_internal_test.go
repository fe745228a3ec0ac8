package collections

import (
	"strings"
	"testing"
)

// TestASizeNeedsARequiredFile: a File Size derived from a file is only filled in when there is a
// file, so the declarations refuse a sizeOf whose file may be left empty (SPEC: File Size is a
// required field of photos and resources), and the declared ones require theirs.
func TestASizeNeedsARequiredFile(t *testing.T) {
	decl := func(required string) []byte {
		return []byte(`{"docs": {"title": "Doc", "titlePlural": "Docs", "category": "DOC", "nameField": "title", "fields": [
			{"name": "title", "label": "Title", "type": "text"},
			{"name": "file", "label": "File", "type": "file"` + required + `},
			{"name": "fileSize", "label": "File Size", "type": "number", "derived": true, "sizeOf": "file"}]}}`)
	}
	if _, err := parse(decl("")); err == nil || !strings.Contains(err.Error(), "sizeOf names a field that must be required") {
		t.Fatalf("an optional file with a derived size: %v", err)
	}
	if _, err := parse(decl(`, "required": true`)); err != nil {
		t.Fatalf("a required file with a derived size: %v", err)
	}
	reg, err := Parse()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"photos", "resources"} {
		for _, f := range reg[key].Fields {
			if f.SizeOf != "" && !reg[key].requires(f.SizeOf) {
				t.Errorf("%s.%s: its size's file is not required", key, f.Name)
			}
		}
	}
}
