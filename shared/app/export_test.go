package app

import "net/http"

// NewRouter is newRouter for the external tests.
var NewRouter = func() interface {
	Handle(string, http.Handler)
	http.Handler
} {
	return newRouter()
}
