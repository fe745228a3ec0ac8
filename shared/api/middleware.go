package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/lazyre"
)

type loggerKey struct{}

// Logger returns the request-scoped logger (carrying the request id), or the default one.
func Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// WithLogger attaches attributes to the request's logger.
func WithLogger(r *http.Request, args ...any) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), loggerKey{}, Logger(r.Context()).With(args...)))
}

var requestIDPattern = lazyre.New(`^[A-Za-z0-9._-]{1,64}$`)

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Middleware wraps a group's mux: request id (from X-Request-Id when well-formed), a JSON log line
// per request, panic recovery as a 500, and security headers on every API response.
func Middleware(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rid := r.Header.Get("X-Request-Id")
		if !requestIDPattern().MatchString(rid) {
			rid = ids.New()
		}
		w.Header().Set("X-Request-Id", rid)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		rec := &statusRecorder{ResponseWriter: w}
		reqLog := log.With("requestId", rid)
		ctx, calls := awsclient.WithCallCounter(r.Context())
		r = r.WithContext(context.WithValue(ctx, loggerKey{}, reqLog))
		defer func() {
			if p := recover(); p != nil {
				reqLog.Error("panic", "panic", p)
				if rec.status == 0 {
					_ = JSON(rec, http.StatusInternalServerError, failure{Message: "Some error occured!"})
				}
			}
			reqLog.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
				"durationMs", time.Since(start).Milliseconds(), "dynamoCalls", calls.Load())
		}()
		next.ServeHTTP(rec, r)
	})
}
