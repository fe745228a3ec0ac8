package api

import (
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

// Decode reads a JSON object into dst, refusing bodies over MaxBodyBytes, unknown fields,
// wrong types, a non-JSON content type and trailing data, each with a clear 4xx.
func Decode(r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return Errorf(http.StatusUnsupportedMediaType, "Send the request body as JSON (Content-Type: application/json).")
		}
	}
	body := http.MaxBytesReader(nil, r.Body, MaxBodyBytes)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return Errorf(http.StatusBadRequest, "Malformed JSON: the body must hold a single JSON object.")
	}
	return nil
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
