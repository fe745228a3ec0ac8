// Package schedule is the scheduled-publishing job: it moves the stored schedule state of the
// records whose publishAt or unpublishAt has passed (collections.ScheduleAt), so the panel's
// lists, the counters kept on writes and the audit log agree with what the public reads already
// show. Public reads never wait for it: they check the dates at read time (public.Visible).
//
// It runs once a minute: an EventBridge rule calling functions/schedule in AWS, a ticker in the
// local server. Each tenant's due records are read from its own due index (one Query of
// T#{tenant}#DUE up to now, collections.DuePartition) and each is written through the engine's
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
	"sync"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
)

// SchedulerID is the user id the job's writes are recorded under: a fixed ULID no real user can
// have (users get fresh ones, time-ordered from now), so the Audit Log can filter by it.
const SchedulerID = "00000000000000000000SCHED0"

// Scheduler is who the job's writes are by, in versions and the audit log.
var Scheduler = auth.User{ID: SchedulerID, Username: "scheduler", FirstName: "Scheduled", LastName: "publishing", Status: true, IsAdmin: true}

// MaxPerTenant bounds the due records one run moves for one tenant; the rest are still due at
// the next run.
const MaxPerTenant = 200

// Tenants lists the tenant ids the job visits.
type Tenants func(ctx context.Context) ([]string, error)

// Job moves due schedule states.
type Job struct {
	svc     *collections.Service
	st      *store.Store
	tenants Tenants
	now     func() time.Time
	log     *slog.Logger
}

// New returns the job over the engine's service (linked with every scheduled collection's
// hooks) and a tenant list; log may be nil.
func New(svc *collections.Service, list Tenants, log *slog.Logger) *Job {
	if log == nil {
		log = slog.Default()
	}
	return &Job{svc: svc, st: svc.Store(), tenants: list, now: time.Now, log: log}
}

// TenantsTTL is how long a process keeps the tenant list (CachedTenants).
const TenantsTTL = 15 * time.Minute

// FromDeps builds the job of a process: the collections engine over its table, linked with the
// hooks of the scheduled collections (linked), and the tenant registry read at most once per
// TenantsTTL.
func FromDeps(d *app.Deps, linked collections.Linked) (*Job, error) {
	svc, err := collections.SharedService(d, linked)
	if err != nil {
		return nil, err
	}
	return New(svc, CachedTenants(d.Store, TenantsTTL), d.Log), nil
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

// Run visits every tenant once. A tenant that fails is logged and reported in the error; the
// others still run.
func (j *Job) Run(ctx context.Context) (Result, error) {
	ids, err := j.tenants(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("schedule: list tenants: %w", err)
	}
	var total Result
	var errs []error
	for _, id := range ids {
		scope, err := store.NewScope(id)
		if err != nil {
			continue
		}
		res, err := j.RunTenant(ctx, scope)
		total.add(res)
		if err != nil {
			j.log.Error("schedule: tenant failed", "tenant", id, "err", err)
			errs = append(errs, fmt.Errorf("tenant %s: %w", id, err))
		}
	}
	return total, errors.Join(errs...)
}

// RunTenant moves the due records of one tenant: one Query of its due index up to now, then one
// GetItem and, when the state moves, one transaction per record.
func (j *Job) RunTenant(ctx context.Context, scope store.Scope) (Result, error) {
	res := Result{Tenants: 1}
	now := j.now().UTC()
	var due []collections.DueItem
	err := j.st.Table.Get("PK", collections.DuePartition(scope)).Range("SK", dynamo.LessOrEqual, collections.DueBound(now)).
		Limit(MaxPerTenant).All(ctx, &due)
	if err != nil {
		return res, store.Wrap("due items", err)
	}
	res.Due = len(due)
	caller := &auth.Caller{Scope: scope, User: &Scheduler}
	reg := j.svc.Registry()
	for _, d := range due {
		moved, err := j.move(ctx, caller, reg[d.Collection], d, now)
		if err != nil {
			return res, err
		}
		if moved {
			res.Moved++
		} else {
			res.Skipped++
		}
	}
	return res, nil
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

// CachedTenants lists the tenants through the ops registry (tenants.List, a filtered Scan of the
// tenant items: the one Scan the stack allows, given only to this job) at most once per ttl per
// process: a warm function scans a few times an hour, not every minute. A tenant created
// meanwhile has its stored states moved from the next refresh on; what the public sees is exact
// from the start, since public reads check the dates themselves.
func CachedTenants(st *store.Store, ttl time.Duration) Tenants {
	var (
		mu   sync.Mutex
		ids  []string
		read time.Time
	)
	return func(ctx context.Context) ([]string, error) {
		mu.Lock()
		defer mu.Unlock()
		if ids != nil && time.Since(read) < ttl {
			return ids, nil
		}
		list, err := tenants.List(ctx, st)
		if err != nil {
			return nil, err
		}
		ids = make([]string, 0, len(list))
		for _, t := range list {
			ids = append(ids, t.ID)
		}
		read = time.Now()
		return ids, nil
	}
}
