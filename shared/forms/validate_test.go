package forms

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/store"
)

func testForm() Form {
	o := func(names ...string) []Option {
		out := []Option{}
		for _, n := range names {
			out = append(out, Option{ID: savedID, Name: n})
		}
		return out
	}
	return Form{ID: savedID, Active: true, Fields: []Field{
		{Label: "Name", FieldType: TypeText, Required: true},
		{Label: "About", FieldType: TypeTextarea},
		{Label: "Born", FieldType: TypeDate},
		{Label: "CV", FieldType: TypeFile},
		{Label: "Course", FieldType: TypeSelect, Options: o("Art", "Maths")},
		{Label: "Shift", FieldType: TypeRadio, Options: o("Day", "Night")},
		{Label: "Days", FieldType: TypeCheckbox, Options: o("Mon", "Tue", "Wed")},
	}}
}

func rawBody(t *testing.T, m map[string]any) map[string]json.RawMessage {
	t.Helper()
	b, _ := json.Marshal(m)
	var out map[string]json.RawMessage
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestValidateSubmission(t *testing.T) {
	scope, _ := store.NewScope("acme")
	ref := savedID + "/cv.pdf"
	cases := []struct {
		name   string
		body   map[string]any
		want   map[string]any // nil when refused
		errKey string
		msg    string
	}{
		{"only required", map[string]any{"formId": savedID, "Name": " Ada "}, map[string]any{"Name": "Ada"}, "", ""},
		{"every type", map[string]any{"Name": "Ada", "About": "long", "Born": "2001-02-03", "CV": "/media/acme/" + ref,
			"Course": "Art", "Shift": "Night", "Days": []string{"Wed", "Mon"}},
			map[string]any{"Name": "Ada", "About": "long", "Born": "2001-02-03", "CV": ref, "Course": "Art", "Shift": "Night", "Days": []string{"Mon", "Wed"}}, "", ""},
		{"required missing", map[string]any{"About": "x"}, nil, "Name", "Name is required!"},
		{"required blank", map[string]any{"Name": "   "}, nil, "Name", "Name is required!"},
		{"required null", map[string]any{"Name": nil}, nil, "Name", "Name is required!"},
		{"text not text", map[string]any{"Name": 5}, nil, "Name", "Name must be text."},
		{"bad date", map[string]any{"Name": "A", "Born": "03/02/2001"}, nil, "Born", "Born must be a date (YYYY-MM-DD)."},
		{"impossible date", map[string]any{"Name": "A", "Born": "2001-02-30"}, nil, "Born", ""},
		{"select not an option", map[string]any{"Name": "A", "Course": "Law"}, nil, "Course", "Course must be one of: Art, Maths."},
		{"radio not an option", map[string]any{"Name": "A", "Shift": "Dusk"}, nil, "Shift", ""},
		{"checkbox unknown option", map[string]any{"Name": "A", "Days": []string{"Mon", "Sun"}}, nil, "Days", ""},
		{"checkbox one name", map[string]any{"Name": "A", "Days": "Tue"}, map[string]any{"Name": "A", "Days": []string{"Tue"}}, "", ""},
		{"checkbox not a list", map[string]any{"Name": "A", "Days": 3}, nil, "Days", ""},
		{"file of another tenant", map[string]any{"Name": "A", "CV": "/media/other/" + ref}, nil, "CV", ""},
		{"file not a reference", map[string]any{"Name": "A", "CV": "https://evil.example/x.pdf"}, nil, "CV", ""},
		{"unknown key", map[string]any{"Name": "A", "Salary": "1"}, nil, "Salary", `"Salary" is not a field of this form.`},
		{"long text", map[string]any{"Name": string(make([]byte, 501))}, nil, "Name", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ValidateSubmission(scope, testForm(), rawBody(t, c.body))
			if c.want != nil {
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Fatalf("values %#v, want %#v", got, c.want)
				}
				return
			}
			var ae *api.Error
			if !errors.As(err, &ae) || ae.Status != 400 || ae.Fields[c.errKey] == "" {
				t.Fatalf("error %v, want a 400 on %s", err, c.errKey)
			}
			if c.msg != "" && ae.Message != c.msg {
				t.Fatalf("message %q, want %q", ae.Message, c.msg)
			}
		})
	}
}
