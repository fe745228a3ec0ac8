// Command devserver runs the whole panel locally: it starts the AWS emulator (unless
// AWS_ENDPOINT_URL names one), creates the table and media bucket, seeds the demo tenant, and
// serves every group's API, the media proxy and the built SPA on one origin, as CloudFront does.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/localaws"
)

type options struct {
	port         int
	motoPort     int
	siteDir      string
	demoPassword string
	// scheduleEvery is how often the scheduled-publishing job runs (SCHEDULE_INTERVAL).
	scheduleEvery time.Duration
	// dataDir keeps the emulator's tables and buckets between runs (DEV_DATA; "none": nothing kept).
	dataDir string
	// mailPort and smtpPort are the local mailbox's inbox and SMTP ports (MAIL_PORT,
	// MAIL_SMTP_PORT); mailEvery how often its worker sends what is due (MAIL_INTERVAL).
	mailPort, smtpPort int
	mailEvery          time.Duration
}

// defaultDataDir is where make dev keeps what was made locally (ignored by git).
const defaultDataDir = ".dev/data"

func readOptions() (options, error) {
	o := options{port: 8080, motoPort: 4566, siteDir: "site/dist", demoPassword: os.Getenv("DEMO_ADMIN_PASSWORD"),
		mailPort: defaultMailPort, smtpPort: defaultSMTPPort}
	for env, dst := range map[string]*int{"PORT": &o.port, "MOTO_PORT": &o.motoPort, "MAIL_PORT": &o.mailPort, "MAIL_SMTP_PORT": &o.smtpPort} {
		if v := os.Getenv(env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 65535 {
				return o, fmt.Errorf("%s=%q is not a port", env, v)
			}
			*dst = n
		}
	}
	if v := os.Getenv("SITE_DIR"); v != "" {
		o.siteDir = v
	}
	switch v, set := os.LookupEnv("DEV_DATA"); {
	case !set || v == "":
		o.dataDir = defaultDataDir
	case v != "none":
		o.dataDir = v
	}
	every, err := scheduleInterval()
	if err != nil {
		return o, err
	}
	o.scheduleEvery = every
	if o.mailEvery, err = mailInterval(); err != nil {
		return o, err
	}
	return o, nil
}

// keptNote says where local data lives and how to start afresh (before the emulator starts).
func keptNote(dataDir string) string {
	if os.Getenv("AWS_ENDPOINT_URL") != "" {
		return "Data: in the emulator at AWS_ENDPOINT_URL."
	}
	if dataDir == "" {
		return "Data: kept in memory only (DEV_DATA=none); gone when this stops."
	}
	return fmt.Sprintf("Data: kept in %s between runs (make dev-reset starts afresh with the demo).", dataDir)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts, err := readOptions()
	if err != nil {
		return err
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	note := keptNote(opts.dataDir)
	mailboxStarting := startMailbox(ctx, opts)
	defer mailboxStarting.stop()
	if os.Getenv("AWS_ENDPOINT_URL") == "" {
		emu, err := localaws.StartWith(ctx, localaws.Options{Port: opts.motoPort, DataDir: opts.dataDir})
		if err != nil {
			return err
		}
		defer emu.Stop()
		emu.UseEndpoint()
		slog.Info("emulator started", "url", emu.URL, "data", opts.dataDir)
	}
	mailbox, err := mailboxStarting.wait()
	if err != nil {
		return err
	}
	// Ports asked as 0 were picked free: the worker sends to the one the mailbox took.
	opts.mailPort, opts.smtpPort = mailbox.WebPort, mailbox.SMTPPort
	if cfg.MediaUploadURL == "" {
		// Browsers post uploads to this origin, which forwards them to the emulator (s3proxy.go).
		cfg.MediaUploadURL = uploadProxyPrefix + "/" + cfg.MediaBucket
	}
	origin := fmt.Sprintf("http://127.0.0.1:%d", opts.port)
	// Confirmed images get their resized copies in this process, as the bucket's events do in AWS.
	cfg.DeriveImagesInBackground = true
	if cfg.PanelURL == "" {
		cfg.PanelURL = origin
	}
	if cfg.WebsiteURL == "" {
		cfg.WebsiteURL = fmt.Sprintf("http://{tenant}.localhost:%d", opts.port)
	}
	// The newsletter's hooks (confirmation and unsubscribe links) read the website's address
	// from WEBSITE_URL, as a Lambda's config does.
	if err := os.Setenv("WEBSITE_URL", cfg.WebsiteURL); err != nil {
		return err
	}
	handler, login, err := setup(ctx, cfg, opts, []string{origin, fmt.Sprintf("http://localhost:%d", opts.port)})
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: fmt.Sprintf("127.0.0.1:%d", opts.port), Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	fmt.Printf("\nPanel ready at %s/  (tenant %q)\nLogin: username %q, password %q\nWebsite of %q at %s/\nMailbox at %s/  (every mail the panel sends, caught locally)\n%s\n\n",
		origin, login.tenant, login.username, login.password, login.tenant, cfg.WebsiteOf(login.tenant, nil), mailbox.URL, note)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		slog.Info("shutting down")
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}
