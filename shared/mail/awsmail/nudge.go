package awsmail

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/store"
)

// NewNudger returns the nudger of a deployment: the SQS queue of c.QueueURL (AWS), or
// mail.NoNudge.
func NewNudger(awsCfg aws.Config, c mail.Config, log *slog.Logger) mail.Nudger {
	if c.QueueURL == "" {
		return mail.NoNudge{}
	}
	if log == nil {
		log = slog.Default()
	}
	return &SQSNudger{client: sqs.NewFromConfig(awsCfg), url: c.QueueURL, log: log}
}

// SQSNudger sends the keys to the mail queue, whose messages invoke the mail function
// (HandleEvent): ten to a message batch.
type SQSNudger struct {
	client *sqs.Client
	url    string
	log    *slog.Logger
}

// queued is the body of a queue message: one outbox key.
type queued struct {
	PK string `json:"pk"`
	SK string `json:"sk"`
}

// Nudge sends one message per key; a failure is logged, not returned.
func (n *SQSNudger) Nudge(ctx context.Context, keys ...store.Key) {
	for start := 0; start < len(keys); start += 10 {
		var entries []sqstypes.SendMessageBatchRequestEntry
		for i, k := range keys[start:min(start+10, len(keys))] {
			body, _ := json.Marshal(queued{PK: k.PK, SK: k.SK})
			entries = append(entries, sqstypes.SendMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), MessageBody: aws.String(string(body))})
		}
		out, err := n.client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(n.url), Entries: entries})
		if err != nil {
			n.log.Warn("mail: nudge failed; the sweep sends it", "err", err)
			continue
		}
		if len(out.Failed) > 0 {
			n.log.Warn("mail: nudge partly failed; the sweep sends the rest", "failed", len(out.Failed))
		}
	}
}

// HandleEvent is the mail function's Lambda handler: a batch of the queue's messages (each an
// outbox key, sent by a nudge) is delivered key by key, and the messages whose delivery could not
// be done at all are reported back (the queue retries them, then moves them to its dead-letter
// queue; the mail itself stays in the outbox for the sweep either way). Any other event (the
// one-minute schedule) is a sweep of the due index.
func HandleEvent(ctx context.Context, w *mail.Worker, log *slog.Logger, raw json.RawMessage) (any, error) {
	var batch events.SQSEvent
	if err := json.Unmarshal(raw, &batch); err == nil && len(batch.Records) > 0 && batch.Records[0].EventSource == "aws:sqs" {
		resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
		var total mail.Result
		for _, rec := range batch.Records {
			var q queued
			if err := json.Unmarshal([]byte(rec.Body), &q); err != nil {
				log.Warn("mail: queue message is not an outbox key; dropped", "messageId", rec.MessageId)
				continue
			}
			res, err := w.DeliverKeys(ctx, time.Now(), store.Key{PK: q.PK, SK: q.SK})
			total.Add(res)
			if err != nil {
				log.Error("mail: delivery failed; the queue retries it", "messageId", rec.MessageId, "err", err)
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
			}
		}
		log.Info(total.String())
		return resp, nil
	}
	res, err := w.Deliver(ctx, time.Now())
	log.Info(res.String())
	return res, err
}
