package mail

import (
	"context"
	"time"

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
// its worker there before the modules are built; a module takes it with mailapp.Nudger.
const NudgerKey = "mail.nudger"

// NoNudge nudges nobody: the worker's own schedule sends the mail.
type NoNudge struct{}

// Nudge does nothing.
func (NoNudge) Nudge(context.Context, ...store.Key) {}

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
