package testkit

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
)

// logSink receives the request logs of the test binary's handlers: nowhere unless TEST_LOG=1, and
// into every capture a test opened (CaptureLogs).
type logSink struct {
	mu       sync.Mutex
	captures map[*bytes.Buffer]bool
	out      io.Writer
}

var sink = &logSink{captures: map[*bytes.Buffer]bool{}, out: io.Discard}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for b := range s.captures {
		b.Write(p)
	}
	return s.out.Write(p)
}

// discardLogger keeps request logs out of test output unless TEST_LOG=1.
func discardLogger() *slog.Logger {
	if os.Getenv("TEST_LOG") == "1" {
		sink.out = os.Stderr
	}
	return slog.New(slog.NewJSONHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// CaptureLogs collects every log line the handlers write from now until the test ends (tests
// running in parallel write into it too); the returned func reads what was written so far.
func CaptureLogs(t testing.TB) func() string {
	b := &bytes.Buffer{}
	sink.mu.Lock()
	sink.captures[b] = true
	sink.mu.Unlock()
	t.Cleanup(func() {
		sink.mu.Lock()
		delete(sink.captures, b)
		sink.mu.Unlock()
	})
	return func() string {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		return b.String()
	}
}
