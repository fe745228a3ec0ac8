package testkit

import (
	"io"
	"log/slog"
	"os"
)

// discardLogger keeps request logs out of test output unless TEST_LOG=1.
func discardLogger() *slog.Logger {
	if os.Getenv("TEST_LOG") == "1" {
		return slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewJSONHandler(io.Discard, nil))
}
