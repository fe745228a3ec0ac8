package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/schedule"
)

// scheduleInterval is how often the local server runs the scheduled-publishing job, as the
// stack's one-minute rule does: SCHEDULE_INTERVAL (a Go duration, "1m" by default; the browser
// tests use a few seconds; "0" turns it off).
func scheduleInterval() (time.Duration, error) {
	v := os.Getenv("SCHEDULE_INTERVAL")
	if v == "" {
		return time.Minute, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("SCHEDULE_INTERVAL=%q is not a duration such as 1m or 5s", v)
	}
	return d, nil
}

// startSchedule runs the job every interval until ctx ends, on the engine the API serves (built
// by newHandler first).
func startSchedule(ctx context.Context, deps *app.Deps, every time.Duration) error {
	if every == 0 {
		return nil
	}
	svc, err := collections.BuiltService(deps)
	if err != nil {
		return err
	}
	job := schedule.New(svc, deps.Log)
	// The accessibility report's link check asks other sites whether links still work: locally
	// only when LINK_CHECK=1 (a laptop offline, or the browser tests, would see every external
	// link reported broken).
	var links *a11ycheck.LinkChecker
	if os.Getenv("LINK_CHECK") == "1" {
		links = a11ycheck.NewLinkChecker(deps.Store)
	}
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				res, err := job.Run(ctx)
				if err != nil && ctx.Err() == nil {
					slog.Error("schedule run failed", "err", err)
				} else if res.Moved > 0 {
					slog.Info(res.String())
				}
				if links != nil {
					// As the stack's schedule Lambda runs it, after the job.
					lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
					if lres, err := links.Run(lctx); err != nil && ctx.Err() == nil {
						slog.Error("link check failed", "err", err)
					} else if lres.Items > 0 {
						slog.Info(lres.String())
					}
					cancel()
				}
			}
		}
	}()
	slog.Info("scheduled publishing job", "every", every)
	return nil
}
