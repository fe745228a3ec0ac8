package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
)

// HandlerFunc is an HTTP handler that returns its error instead of writing it.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP writes the handler's error, if any, as the failure envelope.
func (fn HandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := fn(w, r); err != nil {
		WriteError(w, r, err)
	}
}

// Envelope is the success body: {"result": ..., "message": ...} plus extra top-level fields.
type Envelope struct {
	Result  any    `json:"result"`
	Message string `json:"message,omitempty"`
	// TotalCount is set on lists.
	TotalCount *int64 `json:"totalCount,omitempty"`
	// ObjectURLPrefix is set by tenant-info.
	ObjectURLPrefix string `json:"objectUrlPrefix,omitempty"`
}

// OK writes a 200 with {"result": result}.
func OK(w http.ResponseWriter, result any) error {
	return JSON(w, http.StatusOK, Envelope{Result: result})
}

// JSON writes any body with the given status.
func JSON(w http.ResponseWriter, status int, body any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(body)
}

type failure struct {
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors,omitempty"`
}

// WriteError maps err to its status and safe message, logs the cause, and writes the failure body.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := AsError(err)
	level := slog.LevelInfo
	if e.Status >= 500 {
		level = slog.LevelError
	}
	Logger(r.Context()).Log(r.Context(), level, "request failed", "status", e.Status, "message", e.Message, "cause", errString(e.Cause))
	if len(e.Extra) > 0 {
		body := map[string]any{}
		for k, v := range e.Extra {
			body[k] = v
		}
		body["message"] = e.Message
		if len(e.Fields) > 0 {
			body["errors"] = e.Fields
		}
		_ = JSON(w, e.Status, body)
		return
	}
	_ = JSON(w, e.Status, failure{Message: e.Message, Errors: e.Fields})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Mux is where a service declares its routes with Go 1.22 patterns ("PATCH /faqs/{id}"): an
// *http.ServeMux, or app's recorder that also lists them for the adversarial suite.
type Mux interface {
	Handle(pattern string, handler http.Handler)
}
