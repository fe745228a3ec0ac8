package api

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDecodeRefusesWhatIsNotAnObject(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		message    string
	}{
		{"null", `null`, 400, "The request body must be a JSON object."},
		{"null with spaces", " \n null \t", 400, "The request body must be a JSON object."},
		{"array", `[]`, 400, "The request body must be a JSON object."},
		{"string", `"x"`, 400, "The request body must be a JSON object."},
		{"number", `1`, 400, "The request body must be a JSON object."},
		{"boolean", `true`, 400, "The request body must be a JSON object."},
		{"object", `{}`, 0, ""},
		{"NUL in a string", `{"name":"a\u0000b"}`, 400, `Field "name" must not contain control characters.`},
		{"escape char in a string", `{"name":"a\u001bb"}`, 400, `Field "name" must not contain control characters.`},
		{"raw control byte", "{\"name\":\"a\x01b\"}", 400, "Malformed JSON in request body."},
		{"tab, newline, return are fine", `{"name":"a\tb\nc\rd"}`, 0, ""},
		{"nested", `{"list":["ok","bad\u0007"]}`, 400, `Field "list" must not contain control characters.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, dst := range []any{new(map[string]any), new(struct {
				Name string   `json:"name"`
				List []string `json:"list"`
			})} {
				r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.body))
				err := Decode(r, dst)
				if c.status == 0 {
					if err != nil {
						t.Fatalf("Decode(%s) into %T: %v", c.body, dst, err)
					}
					continue
				}
				var e *Error
				if !errors.As(err, &e) || e.Status != c.status || e.Message != c.message {
					t.Fatalf("Decode(%s) into %T: %v, want %d %q", c.body, dst, err, c.status, c.message)
				}
			}
		})
	}
}
