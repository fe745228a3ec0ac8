package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/maildev"
)

// Default ports of the local mailbox (MAIL_PORT, MAIL_SMTP_PORT), as Mailpit's and the README's.
const (
	defaultMailPort = 8025
	defaultSMTPPort = mail.DefaultSMTPPort
)

// mailInterval is how often the local mail worker sends what is due besides the nudges after
// each commit: MAIL_INTERVAL (a Go duration, "3s" by default; the one-minute sweep of AWS).
func mailInterval() (time.Duration, error) {
	v := os.Getenv("MAIL_INTERVAL")
	if v == "" {
		return 3 * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("MAIL_INTERVAL=%q is not a duration such as 3s", v)
	}
	return d, nil
}

// mailboxStart is the local mailbox starting beside the emulator: wait reads how it went.
type mailboxStart struct {
	done   chan struct{}
	server *maildev.Server
	err    error
}

// startMailbox launches MailDev (tools/mailbox) on 127.0.0.1, SMTP on opts.smtpPort and its
// inbox on opts.mailPort, without waiting: node takes a few seconds, the emulator as long.
func startMailbox(ctx context.Context, opts options) *mailboxStart {
	s := &mailboxStart{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.server, s.err = maildev.Start(ctx, maildev.Options{SMTPPort: opts.smtpPort, WebPort: opts.mailPort})
	}()
	return s
}

// wait returns the started mailbox.
func (s *mailboxStart) wait() (*maildev.Server, error) {
	<-s.done
	return s.server, s.err
}

// stop ends the mailbox once it has started (the server stopping, or failing to start).
func (s *mailboxStart) stop() {
	if m, err := s.wait(); err == nil {
		m.Stop()
	}
}

// startMailWorker sends the outbox's mail to the mailbox: every interval, and at once when a
// module nudges it after a commit (it is the process's mail.Nudger, so it must be set before
// the modules are built).
func startMailWorker(ctx context.Context, deps *app.Deps, opts options) error {
	cfg, err := mail.ConfigFromEnv()
	if err != nil {
		return err
	}
	cfg.Transport, cfg.SMTPAddr = mail.TransportSMTP, fmt.Sprintf("127.0.0.1:%d", opts.smtpPort)
	w := mail.NewWorker(deps.Store, mail.NewSMTP(cfg.SMTPAddr, cfg.Domain), cfg, deps.Log)
	if _, err := app.Shared(deps, mail.NudgerKey, func() (mail.Nudger, error) { return w, nil }); err != nil {
		return err
	}
	go w.Run(ctx, opts.mailEvery)
	slog.Info("mail worker", "every", opts.mailEvery, "smtp", cfg.SMTPAddr, "from", cfg.FromAddress())
	return nil
}
