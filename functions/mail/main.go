// Command mail is the mail sender's Lambda: the mail queue's messages (each the outbox key of a
// mail a request just committed) and a one-minute EventBridge rule (the sweep of the due index,
// so no mail waits for a lost nudge) invoke it, and it sends what is due through SES
// (shared/mail, shared/mail/awsmail: HandleEvent). It serves no route.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/awsmail"
	"github.com/campuscms/panel/shared/store"
)

func main() {
	handle, err := build(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mail:", err)
		os.Exit(1)
	}
	lambda.Start(handle)
}

// build reads the configuration once: the table (TABLE_NAME), how mail is sent (MAIL_TRANSPORT,
// MAIL_DOMAIN, MAIL_CONFIGURATION_SET) and the log level.
func build(ctx context.Context) (func(context.Context, json.RawMessage) (any, error), error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return nil, err
	}
	mcfg, err := mail.ConfigFromEnv()
	if err != nil {
		return nil, err
	}
	awsCfg, err := awsclient.Load(ctx)
	if err != nil {
		return nil, err
	}
	sender, err := awsmail.NewSender(awsCfg, mcfg)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	w := mail.NewWorker(store.New(awsCfg, cfg.TableName), sender, mcfg, log)
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		return awsmail.HandleEvent(ctx, w, log, raw)
	}, nil
}
