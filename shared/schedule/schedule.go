// Package schedule is the scheduled-publishing job: it moves the stored schedule state of the
// records whose publishAt or unpublishAt has passed (collections.ScheduleAt), so the panel's
// lists, the counters kept on writes and the audit log agree with what the public reads already
// show. Public reads never wait for it: they check the dates at read time (public.Visible).
//
// It runs once a minute: an EventBridge rule calling functions/schedule in AWS, a ticker in the
// local server. What is due in every tenant is read with one Query of the due index up to now
// (GSI3 partition collections.DueIndex: only due items are read, however many tenants and records
// there are; no tenant registry, no Scan), and each due record is written through the engine's
// own update (collections.Service.Update as the scheduler), so the record's version, audit entry
// and due item follow in its transaction. Running it twice, or twice at once, moves nothing twice:
// the write names the version it read (a concurrent run's 409 is skipped) and removes the due
// item it came from in the same transaction.
package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// SchedulerID is the user id the job's writes are recorded under: a fixed ULID no real user can
// have (users get fresh ones, time-ordered from now), so the Audit Log can filter by it.
const SchedulerID = "00000000000000000000SCHED0"

// Scheduler is who the job's writes are by, in versions and the audit log.
var Scheduler = auth.User{ID: SchedulerID, Username: "scheduler", FirstName: "Scheduled", LastName: "publishing", Status: true, IsAdmin: true}

// MaxPerRun bounds the due records one run moves; the rest are still due at the next run.
const MaxPerRun = 500

// Job moves due schedule states.
type Job struct {
	svc  *collections.Service
	st   *store.Store
	only map[string]bool
	now  func() time.Time
	log  *slog.Logger
}

// New returns the job over the engine's service (linked with every scheduled collection's
// hooks); log may be nil.
func New(svc *collections.Service, log *slog.Logger) *Job {
	if log == nil {
		log = slog.Default()
	}
	return &Job{svc: svc, st: svc.Store(), now: time.Now, log: log}
}

// Only returns the job limited to the given tenants (the others' due records are left due).
func (j *Job) Only(tenants ...string) *Job {
	k := *j
	k.only = map[string]bool{}
	for _, t := range tenants {
		k.only[t] = true
	}
	return &k
}

// FromDeps builds the job of a process: the collections engine over its table, linked with the
// hooks of the scheduled collections (linked).
func FromDeps(d *app.Deps, linked collections.Linked) (*Job, error) {
	svc, err := collections.SharedService(d, linked)
	if err != nil {
		return nil, err
	}
	return New(svc, d.Log), nil
}

// Result counts what one run did.
type Result struct {
	Tenants int `json:"tenants"`
	// Due is the due items read; Moved the records written; Skipped those another write moved
	// first (a concurrent run, an edit) or that had nothing to move.
	Due     int `json:"due"`
	Moved   int `json:"moved"`
	Skipped int `json:"skipped"`
}

func (r *Result) add(o Result) {
	r.Tenants += o.Tenants
	r.Due += o.Due
	r.Moved += o.Moved
	r.Skipped += o.Skipped
}

// String is the run's log line.
func (r Result) String() string {
	return fmt.Sprintf("schedule: %d tenants, %d due, %d moved, %d skipped", r.Tenants, r.Due, r.Moved, r.Skipped)
}

// Run moves what is due now, in every tenant: one Query of the due index, then one GetItem and,
// when the state moves, one transaction per record. A record that fails is logged and reported
// in the error; the others still move.
func (j *Job) Run(ctx context.Context) (Result, error) {
	now := j.now().UTC()
	var due []collections.DueItem
	err := j.st.Table.Get("GSI3PK", collections.DueIndex).Index("GSI3").
		Range("GSI3SK", dynamo.LessOrEqual, collections.DueBound(now)).Limit(MaxPerRun).All(ctx, &due)
	if err != nil {
		return Result{}, store.Wrap("due items", err)
	}
	var res Result
	var errs []error
	reg := j.svc.Registry()
	seen := map[string]bool{}
	for _, d := range due {
		scope, err := d.Scope()
		if err != nil || (j.only != nil && !j.only[scope.Tenant()]) {
			continue
		}
		if !seen[scope.Tenant()] {
			seen[scope.Tenant()] = true
			res.Tenants++
		}
		res.Due++
		caller := &auth.Caller{Scope: scope, User: &Scheduler}
		moved, err := j.move(ctx, caller, reg[d.Collection], d, now)
		switch {
		case err != nil:
			j.log.Error("schedule: record failed", "tenant", scope.Tenant(), "collection", d.Collection, "id", d.ID, "err", err)
			errs = append(errs, err)
		case moved:
			res.Moved++
		default:
			res.Skipped++
		}
	}
	return res, errors.Join(errs...)
}

// move writes one due record's new state through the engine's update, naming the version read.
func (j *Job) move(ctx context.Context, caller *auth.Caller, c *collections.Collection, d collections.DueItem, now time.Time) (bool, error) {
	if c == nil || !c.Scheduled {
		return false, j.forget(ctx, d)
	}
	rec, err := j.svc.Load(ctx, caller.Scope, c, d.ID)
	if isStatus(err, http.StatusNotFound) {
		return false, j.forget(ctx, d) // a record deleted since; its delete took its own due item
	}
	if err != nil {
		return false, err
	}
	if collections.ScheduleAt(rec, now) == rec[collections.FieldSchedule] {
		// Moved already (by another run or an edit); an item the record no longer points at is
		// left over only if written outside the engine.
		if due, _ := collections.DueKeyOf(caller.Scope, c, rec); due.SK != d.SK {
			return false, j.forget(ctx, d)
		}
		return false, nil
	}
	_, err = j.svc.Update(ctx, caller, c, d.ID, map[string]any{"version": rec["version"]})
	if isStatus(err, http.StatusConflict) || isStatus(err, http.StatusNotFound) {
		return false, nil // written meanwhile: that write worked the state out itself
	}
	if err != nil {
		return false, fmt.Errorf("move %s %s: %w", c.Key, d.ID, err)
	}
	return true, nil
}

// forget deletes a due item that points at nothing to move.
func (j *Job) forget(ctx context.Context, d collections.DueItem) error {
	return store.Wrap("forget due item", j.st.Table.Delete("PK", d.PK).Range("SK", d.SK).Run(ctx))
}

func isStatus(err error, status int) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status == status
}
