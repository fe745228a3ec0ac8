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
//
// A record whose write fails (throttling, a fault, a rule that refuses it) is moved aside rather
// than left due: its due item stays where the engine finds it (same PK and SK, so an edit still
// replaces or deletes it), but its place in the due index moves to a retry time, 1 minute after
// the first failure and doubling up to an hour (Backoff). Failing records therefore never hold
// the oldest MaxPerRun places: the next run reads what else is due. After MaxAttempts failures
// the item leaves the due index for the failed index (GSI3 partition FailedIndex), is logged at
// error level and counted in the run's result (GaveUp); Failed lists them for the operator, and
// Retry puts one back. Public reads never depended on the job: the website shows the record
// according to its dates whatever its stored state.
//
// The same index holds the purges of records in the trash whose hooks hold data back (a form's
// submissions: collections.Purger), due when their trash entry expires or, once "Delete forever"
// began, at once (collections/purge.go). A run takes one step of each purge that is due
// (collections.Service.PurgeDue: at most PurgeBatch units, a form's submissions), and moves a
// purge with more left behind the others due, for the next run; a failing one is moved aside
// with the same backoff.
package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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

// MaxAttempts is how many failed runs a due record gets before it is reported and left aside.
const MaxAttempts = 8

// FailedIndex is the GSI3 partition a due item moves to after MaxAttempts failures: out of the
// due index (no run reads it again), listed by Failed.
const FailedIndex = "DUE#FAILED"

// Backoff is how long after its n-th failure (n from 1) a due record is tried again: 1 minute,
// doubling, at most an hour.
func Backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	if n > 7 {
		return time.Hour
	}
	return min(time.Minute<<(n-1), time.Hour)
}

// Job moves due schedule states and purges what trash entries held back.
type Job struct {
	svc    *collections.Service
	st     *store.Store
	only   map[string]bool
	now    func() time.Time
	log    *slog.Logger
	perRun int
	// purgeBatch is the units one step of a purge deletes (collections.PurgeBatch).
	purgeBatch int
}

// New returns the job over the engine's service (linked with the hooks of every scheduled
// collection and of every collection whose records hold data back in the trash); log may be nil.
func New(svc *collections.Service, log *slog.Logger) *Job {
	if log == nil {
		log = slog.Default()
	}
	return &Job{svc: svc, st: svc.Store(), now: time.Now, log: log, perRun: MaxPerRun, purgeBatch: collections.PurgeBatch}
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
	// first (a concurrent run, an edit) or that had nothing to move; Deferred those that failed
	// and were moved aside to be tried again later; GaveUp those that failed for the last time
	// (MaxAttempts) and left the due index for the failed index.
	Due      int `json:"due"`
	Moved    int `json:"moved"`
	Skipped  int `json:"skipped"`
	Deferred int `json:"deferred"`
	GaveUp   int `json:"gaveUp"`
	// Purged counts the purges finished (what a trash entry held back all gone, the entry and
	// its history with it); Purging those that deleted a batch and have more left.
	Purged  int `json:"purged"`
	Purging int `json:"purging"`
	// Done counts the jobs (collections.Jobber: a newsletter's sending) that took their last
	// step; Working those that took one and have more left.
	Done    int `json:"done"`
	Working int `json:"working"`
}

// String is the run's log line.
func (r Result) String() string {
	return fmt.Sprintf("schedule: %d tenants, %d due, %d moved, %d skipped, %d deferred, %d given up, %d purged, %d purging, %d jobs done, %d working",
		r.Tenants, r.Due, r.Moved, r.Skipped, r.Deferred, r.GaveUp, r.Purged, r.Purging, r.Done, r.Working)
}

// Run moves what is due now, in every tenant: one Query of the due index, then one GetItem and,
// when the state moves, one transaction per record. A record that fails is logged and moved
// aside (tried again after Backoff, given up after MaxAttempts); the others still move. The
// error reports only what the job could not do at all: the Query, or moving a failed item aside.
func (j *Job) Run(ctx context.Context) (Result, error) {
	now := j.now().UTC()
	var due []dueItem
	err := j.st.Table.Get("GSI3PK", collections.DueIndex).Index("GSI3").
		Range("GSI3SK", dynamo.LessOrEqual, collections.DueBound(now)).Limit(j.perRun).All(ctx, &due)
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
		if d.Job {
			more, err := j.svc.RunJob(ctx, d.DueItem, now)
			if err == nil && more {
				err = j.requeue(ctx, d, now)
			}
			switch {
			case err != nil:
				errs = append(errs, j.failed(ctx, d, now, err, &res)...)
			case more:
				res.Working++
			default:
				res.Done++
			}
			continue
		}
		if d.Draft {
			// A draft's scheduled publishing (collections' workflow): published through the
			// engine as the scheduler, in one transaction with its draft's removal.
			published, err := j.svc.PublishDue(ctx, &auth.Caller{Scope: scope, User: &Scheduler}, d.DueItem)
			switch {
			case err != nil:
				errs = append(errs, j.failed(ctx, d, now, err, &res)...)
			case published:
				res.Moved++
			default:
				res.Skipped++
			}
			continue
		}
		if d.Purge {
			outcome, err := j.svc.PurgeDue(ctx, d.DueItem, j.purgeBatch, now)
			if err == nil && outcome == collections.PurgeMore {
				err = j.requeue(ctx, d, now)
			}
			switch {
			case err != nil:
				errs = append(errs, j.failed(ctx, d, now, err, &res)...)
			case outcome == collections.PurgeDone:
				res.Purged++
			case outcome == collections.PurgeMore:
				res.Purging++
			default:
				res.Skipped++
			}
			continue
		}
		caller := &auth.Caller{Scope: scope, User: &Scheduler}
		moved, err := j.move(ctx, caller, reg[d.Collection], d.DueItem, now)
		switch {
		case err != nil:
			errs = append(errs, j.failed(ctx, d, now, err, &res)...)
		case moved:
			res.Moved++
		default:
			res.Skipped++
		}
	}
	return res, errors.Join(errs...)
}

// failed moves a due item whose record failed aside (aside), logs it and counts it in res; it
// returns the errors of a failure that could not even be moved aside.
func (j *Job) failed(ctx context.Context, d dueItem, now time.Time, err error, res *Result) []error {
	tenant := ""
	if scope, serr := d.Scope(); serr == nil {
		tenant = scope.Tenant()
	}
	gaveUp, aerr := j.aside(ctx, d, now, err)
	switch {
	case aerr != nil:
		j.log.Error("schedule: record failed and could not be moved aside", "tenant", tenant,
			"collection", d.Collection, "id", d.ID, "purge", d.Purge, "err", err, "asideErr", aerr)
		return []error{err, aerr}
	case gaveUp:
		j.log.Error("schedule: record given up", "tenant", tenant, "collection", d.Collection, "id", d.ID,
			"purge", d.Purge, "attempts", d.Attempts+1, "err", err)
		res.GaveUp++
	default:
		j.log.Warn("schedule: record failed, retrying later", "tenant", tenant, "collection", d.Collection,
			"id", d.ID, "purge", d.Purge, "attempts", d.Attempts+1, "retryAt", now.Add(Backoff(d.Attempts+1)).Format(time.RFC3339), "err", err)
		res.Deferred++
	}
	return nil
}

// requeue moves a purge that deleted a batch and has more left behind the others due (its index
// place to now), its failures forgotten, if it is still the item read.
func (j *Job) requeue(ctx context.Context, d dueItem, now time.Time) error {
	at := now.UTC().Format(time.RFC3339)
	err := j.st.Table.Update("PK", d.PK).Range("SK", d.SK).Set("GSI3SK", at+"#"+d.PK+"#"+d.SK).Set("attempts", 0).
		Remove("retryAt", "lastError", "failedAt").If("GSI3PK = ? AND GSI3SK = ?", d.IndexPK, d.IndexSK).Run(ctx)
	if isCondFailed(err) {
		return nil
	}
	return store.Wrap("requeue purge", err)
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

// dueItem is a due item as the job reads it: with what its failures so far left on it.
type dueItem struct {
	collections.DueItem
	// Attempts is how many runs failed to move the record; RetryAt when it is due again (its
	// index sort key's time); LastError the last failure.
	Attempts  int    `dynamo:"attempts"`
	RetryAt   string `dynamo:"retryAt"`
	LastError string `dynamo:"lastError"`
}

// aside moves a due item whose record failed out of the way: its index place moves to the retry
// time (or, after MaxAttempts, to the failed index), on condition that it is the item that was
// read (an edit that replaced it since is left alone). gaveUp says it was the last attempt.
func (j *Job) aside(ctx context.Context, d dueItem, now time.Time, cause error) (gaveUp bool, err error) {
	n := d.Attempts + 1
	at := now.Add(Backoff(n)).UTC().Format(time.RFC3339)
	msg := cause.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	upd := j.st.Table.Update("PK", d.PK).Range("SK", d.SK).
		Set("attempts", n).Set("lastError", msg).Set("failedAt", now.Format(time.RFC3339))
	if n >= MaxAttempts {
		gaveUp = true
		upd.Set("GSI3PK", FailedIndex).Set("GSI3SK", now.Format(time.RFC3339)+"#"+d.PK+"#"+d.SK).Remove("retryAt")
	} else {
		upd.Set("GSI3SK", at+"#"+d.PK+"#"+d.SK).Set("retryAt", at)
	}
	err = upd.If("GSI3PK = ? AND GSI3SK = ?", d.IndexPK, d.IndexSK).Run(ctx)
	if isCondFailed(err) {
		return false, nil // replaced or deleted meanwhile: that write placed it again
	}
	return gaveUp, store.Wrap("move due item aside", err)
}

func isCondFailed(err error) bool {
	var cf *types.ConditionalCheckFailedException
	return errors.As(err, &cf)
}

// Failure is a due record the job gave up on.
type Failure struct {
	Tenant     string `json:"tenant"`
	Collection string `json:"collection"`
	ID         string `json:"id"`
	DueAt      string `json:"dueAt"`
	Attempts   int    `json:"attempts"`
	FailedAt   string `json:"failedAt"`
	LastError  string `json:"lastError"`
	// Purge says it is the purge of a record in the trash, not a schedule move.
	Purge bool `json:"purge,omitempty"`
	// PK and SK are the due item's key (Retry takes them).
	PK string `json:"pk"`
	SK string `json:"sk"`
}

// Failed lists the due records given up on, in every tenant (the job's own filter applies),
// oldest failure first: one Query of the failed index.
func (j *Job) Failed(ctx context.Context) ([]Failure, error) {
	var items []struct {
		dueItem
		FailedAt string `dynamo:"failedAt"`
	}
	if err := j.st.Table.Get("GSI3PK", FailedIndex).Index("GSI3").All(ctx, &items); err != nil {
		return nil, store.Wrap("failed due items", err)
	}
	out := []Failure{}
	for _, it := range items {
		scope, err := it.Scope()
		if err != nil || (j.only != nil && !j.only[scope.Tenant()]) {
			continue
		}
		out = append(out, Failure{Tenant: scope.Tenant(), Collection: it.Collection, ID: it.ID, DueAt: it.DueAt,
			Attempts: it.Attempts, FailedAt: it.FailedAt, LastError: it.LastError, Purge: it.Purge, PK: it.PK, SK: it.SK})
	}
	return out, nil
}

// Retry puts a given-up due item back in the due index, due now with its attempts reset (after
// the cause was fixed); one that is no longer there (an edit replaced it) is a no-op.
func (j *Job) Retry(ctx context.Context, f Failure) error {
	now := j.now().UTC().Format(time.RFC3339)
	err := j.st.Table.Update("PK", f.PK).Range("SK", f.SK).
		Set("GSI3PK", collections.DueIndex).Set("GSI3SK", now+"#"+f.PK+"#"+f.SK).Set("attempts", 0).
		Remove("retryAt", "failedAt", "lastError").
		If("GSI3PK = ?", FailedIndex).Run(ctx)
	if isCondFailed(err) {
		return nil
	}
	return store.Wrap("retry due item", err)
}

// forget deletes a due item that points at nothing to move.
func (j *Job) forget(ctx context.Context, d collections.DueItem) error {
	return store.Wrap("forget due item", j.st.Table.Delete("PK", d.PK).Range("SK", d.SK).Run(ctx))
}

func isStatus(err error, status int) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status == status
}
