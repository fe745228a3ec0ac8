package awsclient

import (
	"context"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

type callCounterKey struct{}

type itemCounterKey struct{}

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

// WithItemCounter returns a context in which the items every DynamoDB read examines are
// counted: a Query's or Scan's ScannedCount (what DynamoDB bills, filters or Select COUNT
// notwithstanding), a found GetItem, a BatchGetItem's returned items. The list benchmarks
// report it as "items read per call".
func WithItemCounter(ctx context.Context) (context.Context, *atomic.Int64) {
	if n, ok := ctx.Value(itemCounterKey{}).(*atomic.Int64); ok {
		return ctx, n
	}
	n := new(atomic.Int64)
	return context.WithValue(ctx, itemCounterKey{}, n), n
}

var countCalls = middleware.InitializeMiddlewareFunc("CountCalls",
	func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if n, ok := ctx.Value(callCounterKey{}).(*atomic.Int64); ok {
			n.Add(1)
		}
		out, md, err := next.HandleInitialize(ctx, in)
		if n, ok := ctx.Value(itemCounterKey{}).(*atomic.Int64); ok && err == nil {
			n.Add(itemsRead(out.Result))
		}
		return out, md, err
	})

func itemsRead(result any) int64 {
	switch r := result.(type) {
	case *dynamodb.QueryOutput:
		return int64(r.ScannedCount)
	case *dynamodb.ScanOutput:
		return int64(r.ScannedCount)
	case *dynamodb.GetItemOutput:
		if r.Item != nil {
			return 1
		}
	case *dynamodb.BatchGetItemOutput:
		n := 0
		for _, items := range r.Responses {
			n += len(items)
		}
		return int64(n)
	}
	return 0
}
