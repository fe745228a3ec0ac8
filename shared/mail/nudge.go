package mail

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

	"github.com/campuscms/panel/shared/store"
)

// Nudger asks for mail just written to be sent now rather than at the next sweep. It is called
// after the transaction that wrote the mail has committed (never before: the mail might not
// exist), and is best effort: a nudge lost is a mail sent by the next sweep (a minute at most in
// AWS, a few seconds locally), so it returns nothing.
type Nudger interface {
	Nudge(ctx context.Context, keys ...store.Key)
}

// NudgerKey is the app.Shared key under which a process keeps its Nudger: the dev server puts
// its worker there before the modules are built; a module takes it with
// app.Shared(d, mail.NudgerKey, func() (mail.Nudger, error) { return mail.NewNudger(d.AWS, cfg, d.Log), nil }).
const NudgerKey = "mail.nudger"

// NewNudger returns the nudger of a deployment: the SQS queue of c.QueueURL (AWS), or NoNudge.
func NewNudger(awsCfg aws.Config, c Config, log *slog.Logger) Nudger {
	if c.QueueURL == "" {
		return NoNudge{}
	}
	if log == nil {
		log = slog.Default()
	}
	return &SQSNudger{client: sqs.NewFromConfig(awsCfg), url: c.QueueURL, log: log}
}

// NoNudge nudges nobody: the worker's own schedule sends the mail.
type NoNudge struct{}

// Nudge does nothing.
func (NoNudge) Nudge(context.Context, ...store.Key) {}

// SQSNudger sends the keys to the mail queue, whose messages invoke the mail function
// (Worker.HandleEvent): ten to a message batch.
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

// Nudge makes a running worker (Run) send the keys' mail now; without one, or when it has
// more nudges waiting than it can hold, the keys wait for its next tick.
func (w *Worker) Nudge(_ context.Context, keys ...store.Key) {
	if len(keys) == 0 {
		return
	}
	select {
	case w.nudges <- keys:
	default:
	}
}

// Run sends due mail every interval and at once when nudged, until ctx ends: the dev server's
// worker. Each run's outcome is logged when it did something.
func (w *Worker) Run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		var res Result
		var err error
		select {
		case <-ctx.Done():
			return
		case keys := <-w.nudges:
			res, err = w.DeliverKeys(ctx, time.Now(), keys...)
		case <-tick.C:
			res, err = w.Deliver(ctx, time.Now())
		}
		switch {
		case err != nil && ctx.Err() == nil:
			w.log.Error("mail: run failed", "err", err)
		case res.Due > 0:
			w.log.Info(res.String())
		}
	}
}

// HandleEvent is the mail function's Lambda handler: a batch of the queue's messages (each an
// outbox key, sent by a nudge) is delivered key by key, and the messages whose delivery could not
// be done at all are reported back (the queue retries them, then moves them to its dead-letter
// queue; the mail itself stays in the outbox for the sweep either way). Any other event (the
// one-minute schedule) is a sweep of the due index.
func (w *Worker) HandleEvent(ctx context.Context, raw json.RawMessage) (any, error) {
	var batch events.SQSEvent
	if err := json.Unmarshal(raw, &batch); err == nil && len(batch.Records) > 0 && batch.Records[0].EventSource == "aws:sqs" {
		resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
		var total Result
		for _, rec := range batch.Records {
			var q queued
			if err := json.Unmarshal([]byte(rec.Body), &q); err != nil {
				w.log.Warn("mail: queue message is not an outbox key; dropped", "messageId", rec.MessageId)
				continue
			}
			res, err := w.DeliverKeys(ctx, time.Now(), store.Key{PK: q.PK, SK: q.SK})
			total.add(res)
			if err != nil {
				w.log.Error("mail: delivery failed; the queue retries it", "messageId", rec.MessageId, "err", err)
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
			}
		}
		w.log.Info(total.String())
		return resp, nil
	}
	res, err := w.Deliver(ctx, time.Now())
	w.log.Info(res.String())
	return res, err
}
