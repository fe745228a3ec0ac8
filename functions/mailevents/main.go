// Command mailevents is the suppression handler's Lambda: SES's configuration set publishes
// bounce and complaint events to EventBridge, whose rule invokes it, and it puts the address on
// the suppression list of the tenant the mail was sent for (shared/mail: Events.Handle); the
// bounce or complaint of a newsletter's mail is also counted on that newsletter, once
// (newsletter.CountMailEvent). It serves no route and sends nothing.
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
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/store"
)

func main() {
	handle, err := build(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mailevents:", err)
		os.Exit(1)
	}
	lambda.Start(handle)
}

// build reads the configuration once (TABLE_NAME, the log level) and returns the handler.
func build(ctx context.Context) (func(context.Context, json.RawMessage) (mail.EventResult, error), error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return nil, err
	}
	awsCfg, err := awsclient.Load(ctx)
	if err != nil {
		return nil, err
	}
	st := store.New(awsCfg, cfg.TableName)
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	events := mail.Events{Store: st, Log: log, Count: newsletter.CountMailEvent(st)}
	return func(ctx context.Context, raw json.RawMessage) (mail.EventResult, error) {
		return events.Handle(ctx, raw)
	}, nil
}
