package awsclient

import (
	"context"
	"sync/atomic"

	"github.com/aws/smithy-go/middleware"
)

type callCounterKey struct{}

// WithCallCounter returns a context in which every DynamoDB call is counted: the request log
// reports it and the tests measure "one round trip where possible" with it.
// A context that already counts keeps its counter.
func WithCallCounter(ctx context.Context) (context.Context, *atomic.Int64) {
	if n, ok := ctx.Value(callCounterKey{}).(*atomic.Int64); ok {
		return ctx, n
	}
	n := new(atomic.Int64)
	return context.WithValue(ctx, callCounterKey{}, n), n
}

var countCalls = middleware.InitializeMiddlewareFunc("CountCalls",
	func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if n, ok := ctx.Value(callCounterKey{}).(*atomic.Int64); ok {
			n.Add(1)
		}
		return next.HandleInitialize(ctx, in)
	})
