package awsclient

import (
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Retry bounds for DynamoDB. A Lambda has 10 s; four attempts with jittered backoff of at most
// 300 ms each leave most of it for the work itself, and on-demand tables throttle only briefly.
const (
	dynamoAttempts   = 4
	dynamoMaxBackoff = 300 * time.Millisecond
)

// newDynamoRetryer retries, with jittered exponential backoff, what the SDK retries by default
// (throttling: ProvisionedThroughputExceeded, ThrottlingException, RequestLimitExceeded; 5xx)
// plus transaction conflicts: a TransactionConflictException, or a cancellation whose reasons
// are conflicts or throttling and no failed condition. A retry re-sends the same input, so a
// transaction keeps its ClientRequestToken and a retry of one that already succeeded is
// answered with that success, not applied twice. What is still busy after the last attempt is
// answered 503 (store.IsBusy).
func newDynamoRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = dynamoAttempts
		o.MaxBackoff = dynamoMaxBackoff
		o.Backoff = retry.NewExponentialJitterBackoff(dynamoMaxBackoff)
		// No client-wide retry budget: the attempts per call are already bounded, and a shared
		// budget would let one tenant's bad minute turn another's first throttle into a 503.
		o.RateLimiter = ratelimit.None
		o.Retryables = append(o.Retryables, retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
			if IsBusy(err) {
				return aws.TrueTernary
			}
			return aws.UnknownTernary
		}))
	})
}

// busyCodes are the DynamoDB error codes that mean "not now" rather than "no".
var busyCodes = map[string]bool{
	"ProvisionedThroughputExceededException": true,
	"ThrottlingException":                    true,
	"RequestLimitExceeded":                   true,
	"TransactionConflictException":           true,
	"TransactionInProgressException":         true,
}

// IsBusy reports whether err means DynamoDB was too busy to do the work (throttling, a
// transaction conflict), as opposed to refusing it: a cancellation with any failed condition is
// a real conflict and not busy.
func IsBusy(err error) bool {
	var txe *types.TransactionCanceledException
	if errors.As(err, &txe) {
		busy := false
		for _, r := range txe.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
				busy = true
			case "", "None":
			default:
				return false
			}
		}
		return busy
	}
	var coded interface{ ErrorCode() string }
	return errors.As(err, &coded) && busyCodes[coded.ErrorCode()]
}

// Unanswered reports whether err leaves the outcome of a request unknown: it was sent and no
// answer said whether it was applied (a 5xx from the service, a connection broken or timed out on
// the way), as opposed to an answer that refused it (a 4xx, a cancelled transaction) or a request
// that never left (invalid parameters).
func Unanswered(err error) bool {
	var res *awshttp.ResponseError
	if errors.As(err, &res) {
		return res.HTTPStatusCode() >= 500
	}
	var send *smithyhttp.RequestSendError
	return errors.As(err, &send)
}
