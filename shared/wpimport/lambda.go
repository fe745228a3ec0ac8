package wpimport

import (
	"context"
	"encoding/json"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// margin is the time a queue invocation keeps back from its deadline to checkpoint and requeue.
const margin = 90 * time.Second

// HandleQueue is the import function's handler: each queue message is a job, run until the
// invocation's deadline draws near, then checkpointed and sent to the queue again (the next
// invocation resumes it). A message whose run failed outright is reported back, for the queue to
// retry it (the job keeps its checkpoint either way).
func HandleQueue(ctx context.Context, rn *Runner, starter Starter, batch events.SQSEvent) (events.SQSEventResponse, error) {
	resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
	until := time.Now().Add(10 * time.Minute)
	if d, ok := ctx.Deadline(); ok {
		until = d.Add(-margin)
	}
	for _, rec := range batch.Records {
		var m Message
		if err := json.Unmarshal([]byte(rec.Body), &m); err != nil || m.Tenant == "" || m.ID == "" {
			rn.Log.Warn("wpimport: queue message is not a job; dropped", "messageId", rec.MessageId)
			continue
		}
		more, err := rn.Run(ctx, m.Tenant, m.ID, until)
		if err == nil && more {
			err = starter.Start(ctx, m.Tenant, m.ID)
		}
		if err != nil {
			rn.Log.Error("wpimport: run failed; the queue retries it", "tenant", m.Tenant, "job", m.ID, "err", err)
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
		}
	}
	return resp, nil
}
