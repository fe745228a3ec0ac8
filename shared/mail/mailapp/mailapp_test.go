package mailapp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/awsmail"
	"github.com/campuscms/panel/shared/mail/mailapp"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// TestNudgeThroughTheQueue: in AWS a module's nudge after its commit is a message on the mail
// queue (MAIL_QUEUE_URL), which invokes the mail function: the message names the mail's outbox
// key, and the function sends that mail. Here the queue is the emulator's SQS and the function's
// handler is called with what the queue delivers. Without a queue there is no nudge, and the
// dev server's own worker, set first, is the one every module gets.
func TestNudgeThroughTheQueue(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	client := sqs.NewFromConfig(d.AWS)
	q, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("mail-" + strings.ToLower(testkit.NewTenant(t).ID))})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("MAIL_QUEUE_URL", aws.ToString(q.QueueUrl))
	deps := &app.Deps{Config: d.Config, AWS: d.AWS, Store: d.Store, Log: d.Log}
	n, err := mailapp.Nudger(deps)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := n.(*awsmail.SQSNudger); !ok {
		t.Fatalf("nudger %T, want the queue's", n)
	}
	if again, _ := mailapp.Nudger(deps); again != n {
		t.Fatal("modules of one process got different nudgers")
	}

	tn := testkit.NewTenant(t)
	scope, _ := store.NewScope(tn.ID)
	msg := mail.Message{To: "queued+" + tn.ID + "@example.org", FromName: "Inst", Subject: "Queued", Kind: mail.KindPasswordReset}
	if err := msg.Render(mail.TemplateMessage, mail.Notice{Body: "Hello"}); err != nil {
		t.Fatal(err)
	}
	out, err := mail.Enqueue(d.Store, scope, msg)
	if err != nil {
		t.Fatal(err)
	}
	tx := d.Store.WriteTx()
	store.AddToTx(tx, out.Put)
	if err := tx.Run(ctx); err != nil {
		t.Fatal(err)
	}
	n.Nudge(ctx, out.Key)

	got, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2})
	if err != nil || len(got.Messages) != 1 {
		t.Fatalf("queue holds %+v %v", got, err)
	}
	batch := events.SQSEvent{}
	for _, m := range got.Messages {
		batch.Records = append(batch.Records, events.SQSMessage{MessageId: aws.ToString(m.MessageId), EventSource: "aws:sqs", Body: aws.ToString(m.Body)})
	}
	mb := testkit.Mailbox(t)
	w := mail.NewWorker(d.Store, mb.Sender(), mb.Config(), slog.New(slog.DiscardHandler))
	raw, _ := json.Marshal(batch)
	if _, err := awsmail.HandleEvent(ctx, w, slog.New(slog.DiscardHandler), raw); err != nil {
		t.Fatal(err)
	}
	if m := mb.WaitFor(t, msg.To, 1)[0]; m.Subject != "Queued" {
		t.Fatalf("mail %+v", m)
	}

	// The dev server's worker, set before the modules are built, is what they get.
	t.Setenv("MAIL_QUEUE_URL", "")
	local := &app.Deps{Config: d.Config, AWS: d.AWS, Store: d.Store, Log: d.Log}
	if _, err := app.Shared(local, mail.NudgerKey, func() (mail.Nudger, error) { return w, nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := mailapp.Nudger(local); got != mail.Nudger(w) {
		t.Fatalf("nudger %T, want the dev server's worker", got)
	}
	if got, _ := mailapp.Nudger(&app.Deps{Config: d.Config, AWS: d.AWS, Store: d.Store, Log: d.Log}); got != (mail.NoNudge{}) {
		t.Fatalf("without a queue: %T", got)
	}
}
