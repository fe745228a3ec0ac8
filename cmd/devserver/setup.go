package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/localaws"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
)

// Demo tenant contract relied on by the README, the browser tests and scripts.
const (
	demoTenant   = "demo"
	demoName     = "Demo Institution"
	demoUsername = "admin"
)

type demoLogin struct{ tenant, username, password string }

// setup prepares the emulator's table and bucket, seeds the demo tenant and builds the handler.
func setup(ctx context.Context, cfg config.Config, opts options, origins []string) (http.Handler, demoLogin, error) {
	deps, err := app.NewDeps(ctx, cfg)
	if err != nil {
		return nil, demoLogin{}, err
	}
	if err := deps.Store.EnsureTable(ctx); err != nil {
		return nil, demoLogin{}, err
	}
	s3 := s3client.New(deps.AWS)
	if err := localaws.EnsureBucket(ctx, s3, cfg.MediaBucket, origins); err != nil {
		return nil, demoLogin{}, err
	}
	login, err := seedDemo(ctx, deps, opts.demoPassword)
	if err != nil {
		return nil, demoLogin{}, err
	}
	// The demo site's content, on every start: idempotent, and a single read once complete, so a
	// kept emulator costs nothing and a start interrupted while seeding finishes the job.
	content, err := demo.Seed(ctx, deps.Store, s3, cfg.MediaBucket, demoTenant)
	if err != nil {
		return nil, demoLogin{}, fmt.Errorf("seed demo content: %w", err)
	}
	slog.Info(content.String())
	deriveDemoImages(ctx, deps)
	if err := startMailWorker(ctx, deps, opts); err != nil {
		return nil, demoLogin{}, err
	}
	handler, err := newHandler(deps, opts.siteDir)
	if err != nil {
		return nil, login, err
	}
	return handler, login, startSchedule(ctx, deps, opts.scheduleEvery)
}

// seedDemo creates the demo tenant and its admin. An existing demo tenant (an emulator kept
// running) keeps its data; its admin password is reset to the one printed.
func seedDemo(ctx context.Context, deps *app.Deps, password string) (demoLogin, error) {
	if password == "" {
		password = "demo-" + ids.Secret(9)
	}
	login := demoLogin{tenant: demoTenant, username: demoUsername, password: password}
	_, err := tenants.Create(ctx, deps.Store, tenants.NewTenant{ID: demoTenant, Name: demoName, AdminUsername: demoUsername, AdminPassword: password})
	if errors.Is(err, tenants.ErrExists) {
		return login, tenants.ResetPassword(ctx, deps.Store, demoTenant, demoUsername, password)
	}
	if err != nil {
		return login, fmt.Errorf("seed demo tenant: %w", err)
	}
	return login, nil
}

// deriveDemoImages makes the sized copies of the demo's images in the background, as an upload's
// confirmation does: the seed only stores the originals, so that it stays quick. It derives every
// image of the demo tenant that has none yet, so a kept run stopped before they were all made
// finishes the job on its next start (one Query of the library when nothing is left).
func deriveDemoImages(ctx context.Context, deps *app.Deps) {
	scope, err := store.NewScope(demoTenant)
	if err != nil {
		return
	}
	d := media.NewDeriver(deps.Store, s3rest.New(deps.AWS), deps.Config.MediaBucket, deps.Log)
	go func() {
		start := time.Now()
		n, err := d.DeriveTenant(ctx, scope)
		switch {
		case ctx.Err() != nil:
			slog.Info("stopped making the demo images' sized copies; the next start finishes them")
			return
		case err != nil:
			slog.Error("deriving the demo images' copies failed", "err", err)
			return
		}
		if n > 0 {
			slog.Info("demo images' sized copies made", "images", n, "took", time.Since(start).Round(time.Millisecond))
		}
	}()
}
