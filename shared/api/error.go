// Package api is the HTTP layer every group shares: the {result} / {message, errors} envelope,
// errors mapped to status codes in one place, JSON decoding with limits, and middleware.
package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/campuscms/panel/shared/store"
)

// Error is an error with a status and a message that is safe to show to the user.
// Cause is logged, never sent.
type Error struct {
	Status  int
	Message string
	Fields  map[string]string
	// Extra are more top-level fields of the failure body (a refused save's accessibility
	// findings); they never replace message or errors.
	Extra map[string]any
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Message, e.Cause)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an Error with the given status and formatted message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// BadRequest is a 400 carrying the first message and every field's message.
func BadRequest(fields map[string]string, order ...string) *Error {
	e := &Error{Status: http.StatusBadRequest, Fields: fields}
	for _, f := range order {
		if msg, ok := fields[f]; ok {
			e.Message = msg
			return e
		}
	}
	for _, msg := range fields {
		e.Message = msg
		break
	}
	return e
}

// StatusClientClosed is logged when the client cancelled the request (nginx's 499).
const StatusClientClosed = 499

// FieldError is a 4xx about one field: its message is both the toast and the field's inline error.
func FieldError(status int, field, message string) *Error {
	return &Error{Status: status, Message: message, Fields: map[string]string{field: message}}
}

// Common errors.
var (
	ErrUnknownTenant = &Error{Status: http.StatusNotFound, Message: "Could not find institution!"}
	ErrUnauthorized  = &Error{Status: http.StatusUnauthorized, Message: "Please log in again."}
	ErrForbidden     = &Error{Status: http.StatusForbidden, Message: "You do not have permission to do this."}
	ErrNotFound      = &Error{Status: http.StatusNotFound, Message: "Record not found!"}
	ErrConflict      = &Error{Status: http.StatusConflict, Message: "This record was changed by someone else. Reload and try again."}
	ErrBusy          = &Error{Status: http.StatusServiceUnavailable, Message: "The service is busy, please try again."}
	ErrSuspended     = &Error{Status: http.StatusForbidden, Message: "This institution's account is suspended. Please contact support."}
)

// AsError maps any error to the Error sent to the client: API errors pass through, store
// sentinels get their status, everything else is a 500 with a generic message.
func AsError(err error) *Error {
	var apiErr *Error
	switch {
	case errors.As(err, &apiErr):
		return apiErr
	case errors.Is(err, context.Canceled):
		// The client went away (a browser navigating mid-request): not a server fault.
		return &Error{Status: StatusClientClosed, Message: "Request cancelled.", Cause: err}
	case store.IsBusy(err):
		// Throttling or a transaction conflict that outlasted the retries: not a fault, and
		// nothing was written, so the client may simply try again.
		return &Error{Status: ErrBusy.Status, Message: ErrBusy.Message, Cause: err}
	case errors.Is(err, store.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Message: ErrNotFound.Message, Cause: err}
	case errors.Is(err, store.ErrConflict):
		return &Error{Status: http.StatusConflict, Message: ErrConflict.Message, Cause: err}
	default:
		return &Error{Status: http.StatusInternalServerError, Message: "Some error occured!", Cause: err}
	}
}
