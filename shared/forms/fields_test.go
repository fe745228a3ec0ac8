package forms

import (
	"errors"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
)

const savedID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"

func opts(names ...string) []Option {
	out := make([]Option, len(names))
	for i, n := range names {
		out[i] = Option{ID: "NEW_" + n, Name: n}
	}
	return out
}

func TestNormalizeFields(t *testing.T) {
	many := make([]Field, MaxFields+1)
	for i := range many {
		many[i] = Field{Label: "L" + strings.Repeat("x", i), FieldType: TypeText}
	}
	cases := []struct {
		name    string
		fields  []Field
		errKey  string // "" when valid
		message string
	}{
		{"every type", []Field{
			{ID: "NEW_1", Label: "Name", FieldType: TypeText, Required: true},
			{ID: "NEW_2", Label: "About", FieldType: TypeTextarea},
			{ID: "NEW_3", Label: "Born", FieldType: TypeDate},
			{ID: "NEW_4", Label: "CV", FieldType: TypeFile},
			{ID: "NEW_5", Label: "Course", FieldType: TypeSelect, Options: opts("Art", "Maths")},
			{ID: "NEW_6", Label: "Shift", FieldType: TypeRadio, Options: opts("Day", "Night")},
			{ID: "NEW_7", Label: "Days", FieldType: TypeCheckbox, Options: opts("Mon", "Tue")},
		}, "", ""},
		{"no fields", []Field{}, "", ""},
		{"saved id kept", []Field{{ID: savedID, Label: "Name", FieldType: TypeText}}, "", ""},
		{"label missing", []Field{{Label: "  ", FieldType: TypeText}}, "fields.0.label", "Field 1: Label is required!"},
		{"labels unique", []Field{{Label: "Name", FieldType: TypeText}, {Label: "name ", FieldType: TypeTextarea}}, "fields.1.label", `Field 2: Label "name" is already used by field 1.`},
		{"reserved label", []Field{{Label: "formId", FieldType: TypeText}}, "fields.0.label", `Field 1: "formId" is reserved; choose another label.`},
		{"unknown type", []Field{{Label: "A", FieldType: "color"}}, "fields.0.fieldType", ""},
		{"select without options", []Field{{Label: "A", FieldType: TypeSelect}}, "fields.0.options", "Field 1: Add at least one option."},
		{"radio option without name", []Field{{Label: "A", FieldType: TypeRadio, Options: []Option{{ID: "NEW_1", Name: " "}}}}, "fields.0.options", "Field 1: Every option needs a name."},
		{"checkbox duplicate option", []Field{{Label: "A", FieldType: TypeCheckbox, Options: opts("x", "x")}}, "fields.0.options", `Field 1: Option "x" appears twice.`},
		{"text with options", []Field{{Label: "A", FieldType: TypeText, Options: opts("x")}}, "fields.0.options", "Field 1: A text field has no options."},
		{"forged id", []Field{{ID: "T#other#x", Label: "A", FieldType: TypeText}}, "fields.0.id", ""},
		{"duplicate id", []Field{{ID: savedID, Label: "A", FieldType: TypeText}, {ID: savedID, Label: "B", FieldType: TypeText}}, "fields.1.id", ""},
		{"too many", many, "fields", "A form can have at most 100 fields."},
		{"long label", []Field{{Label: strings.Repeat("a", 201), FieldType: TypeText}}, "fields.0.label", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := NormalizeFields(c.fields)
			if c.errKey == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				for _, f := range out {
					if !ids.Valid(f.ID) {
						t.Errorf("field %q id %q is not permanent", f.Label, f.ID)
					}
					for _, o := range f.Options {
						if !ids.Valid(o.ID) {
							t.Errorf("option %q id %q is not permanent", o.Name, o.ID)
						}
					}
				}
				return
			}
			var ae *api.Error
			if !errors.As(err, &ae) || ae.Status != 400 {
				t.Fatalf("error %v, want a 400", err)
			}
			if _, ok := ae.Fields[c.errKey]; !ok {
				t.Fatalf("errors %v, want one on %s", ae.Fields, c.errKey)
			}
			if c.message != "" && ae.Message != c.message {
				t.Fatalf("message %q, want %q", ae.Message, c.message)
			}
		})
	}
}

func TestNormalizeKeepsSavedIDsAndReplacesNew(t *testing.T) {
	out, err := NormalizeFields([]Field{
		{ID: savedID, Label: "Old", FieldType: TypeText, Hint: " trimmed "},
		{ID: "NEW_a", Label: "New", FieldType: TypeSelect, Options: []Option{{ID: "NEW_b", Name: "One"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].ID != savedID || out[0].Hint != "trimmed" {
		t.Errorf("saved field changed: %+v", out[0])
	}
	if out[1].ID == "NEW_a" || out[1].ID == out[1].Options[0].ID || strings.HasPrefix(out[1].Options[0].ID, NewIDPrefix) {
		t.Errorf("new ids not replaced: %+v", out[1])
	}
}

func TestParseFields(t *testing.T) {
	for _, text := range []string{`{"a":1}`, `[{"label":"A","color":"red"}]`, `[1]`} {
		if _, err := ParseFields(text); err == nil {
			t.Errorf("ParseFields(%s) accepted", text)
		}
	}
	if f, err := ParseFields(""); err != nil || len(f) != 0 {
		t.Errorf("empty text: %v %v", f, err)
	}
}
