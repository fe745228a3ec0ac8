package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// MaxBodyBytes is the largest JSON body a write accepts (files go straight to S3, never here).
const MaxBodyBytes = 1 << 20

// Decode reads a JSON object into dst, refusing bodies over MaxBodyBytes, anything but an object
// at the top (null, arrays, strings, numbers), unknown fields, wrong types, a non-JSON content
// type, trailing data and strings holding control characters, each with a clear 4xx. Every
// route decodes through here, so each of these holds everywhere.
func Decode(r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return Errorf(http.StatusUnsupportedMediaType, "Send the request body as JSON (Content-Type: application/json).")
		}
	}
	raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodyBytes))
	if err != nil {
		return decodeError(err)
	}
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return decodeError(io.EOF)
	case trimmed[0] != '{':
		// json would happily decode null into a map or struct as "nothing", leaving a write
		// with no fields at all; a list or a scalar is no request either.
		if json.Valid(trimmed) {
			return errNotObject
		}
		return decodeError(&json.SyntaxError{})
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return Errorf(http.StatusBadRequest, "Malformed JSON: the body must hold a single JSON object.")
	}
	if field, ok := controlChar(raw); ok {
		return FieldError(http.StatusBadRequest, field, fmt.Sprintf("Field %q must not contain control characters.", field))
	}
	return nil
}

// DecodeOptional is Decode for routes whose body may be left out (logout): no body at all is
// fine, anything sent must still be a well-formed object that dst accepts.
func DecodeOptional(r *http.Request, dst any) error {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil
	}
	err := Decode(r, dst)
	var e *Error
	if errors.As(err, &e) && e.Message == "Request body is required." {
		return nil
	}
	return err
}

var errNotObject = Errorf(http.StatusBadRequest, "The request body must be a JSON object.")

// controlChar reports the top-level field of the first string (key or value, at any depth) that
// holds a C0 control character other than tab, newline and carriage return. A NUL or an escape
// sequence has no place in any text this API stores, and some would end up in HTML, logs or CSV
// exports where they do harm; refusing them here covers every route at once.
func controlChar(raw []byte) (string, bool) {
	type frame struct{ object, wantKey bool }
	var stack []frame
	field := ""
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		top := len(stack) - 1
		inObject := top >= 0 && stack[top].object
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				if inObject {
					stack[top].wantKey = true // after this value, a key
				}
				stack = append(stack, frame{object: v == '{', wantKey: v == '{'})
			} else {
				stack = stack[:top]
			}
			continue
		case string:
			if inObject && stack[top].wantKey {
				if top == 0 {
					field = v
				}
				stack[top].wantKey = false
				if hasControl(v) {
					return field, true
				}
				continue
			}
			if hasControl(v) {
				return field, true
			}
		}
		if inObject {
			stack[top].wantKey = true
		}
	}
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return false
}

func decodeError(err error) error {
	var (
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
		tooBig    *http.MaxBytesError
	)
	switch {
	case errors.Is(err, io.EOF):
		return Errorf(http.StatusBadRequest, "Request body is required.")
	case errors.As(err, &tooBig):
		return Errorf(http.StatusRequestEntityTooLarge, "Request body is too large (limit %d KB).", MaxBodyBytes/1024)
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return Errorf(http.StatusBadRequest, "Malformed JSON in request body.")
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return Errorf(http.StatusBadRequest, "The request body must be a JSON object.")
		}
		return FieldError(http.StatusBadRequest, typeErr.Field,
			fmt.Sprintf("Field %q must be of type %s.", typeErr.Field, jsonType(typeErr.Type.Kind().String())))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return FieldError(http.StatusBadRequest, field, fmt.Sprintf("Field %q is not allowed here.", field))
	default:
		return Errorf(http.StatusBadRequest, "Could not read the request body.")
	}
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	case "map", "struct":
		return "object"
	default:
		return "number"
	}
}
