package wpimport

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// A job is one export uploaded through the panel: checked (a dry run), then imported, outside
// the request (Starter), in steps a function's time limit allows, each resuming at the last
// checkpoint. It lives in one item, T#{t}#WPIMPORT / {id}, with its progress and report.

// Job states.
const (
	StateUploading = "uploading" // waiting for the browser's upload
	StateChecking  = "checking"  // the dry run is under way
	StateChecked   = "checked"   // the dry run's report is ready
	StateImporting = "importing" // the import is under way
	StateImported  = "imported"  // done
	StateFailed    = "failed"    // stopped by an error; Import again resumes it
)

// jobPartition holds a tenant's import jobs.
const jobPartition = "WPIMPORT"

// MaxExport is the largest export accepted: 100 MB (a site of tens of thousands of posts).
const MaxExport = 100 << 20

// Job is an import job as stored.
type Job struct {
	PK       string `dynamo:"PK,hash" json:"-"`
	SK       string `dynamo:"SK,range" json:"-"`
	ID       string `dynamo:"id" json:"id"`
	FileName string `dynamo:"fileName" json:"fileName"`
	FileKey  string `dynamo:"fileKey" json:"-"`
	Size     int64  `dynamo:"size" json:"size"`
	State    string `dynamo:"state" json:"state"`
	// DryRun is whether the run under way (or last) is a check.
	DryRun   bool       `dynamo:"dryRun" json:"dryRun"`
	Progress Progress   `dynamo:"progress" json:"progress"`
	Report   string     `dynamo:"report" json:"-"` // the Report as JSON
	Error    string     `dynamo:"error,omitempty" json:"error,omitempty"`
	By       string     `dynamo:"by" json:"by"`             // the user who started the run
	ByID     string     `dynamo:"byId" json:"-"`            // their id: the run writes as them
	Lease    string     `dynamo:"lease,omitempty" json:"-"` // the runner holding the job
	LeaseEnd time.Time  `dynamo:"leaseEnd,omitempty" json:"-"`
	Created  time.Time  `dynamo:"createdAt" json:"createdAt"`
	Updated  time.Time  `dynamo:"updatedAt" json:"updatedAt"`
	Finished *time.Time `dynamo:"finishedAt,omitempty" json:"finishedAt,omitempty"`
}

// JobKey is the key of job id of the tenant of scope.
func JobKey(scope store.Scope, id string) store.Key {
	return store.Key{PK: scope.Partition(jobPartition), SK: id}
}

// report is the job's report, decoded (a new one if it has none).
func (j *Job) report() *Report {
	rep := NewReport(j.DryRun)
	if j.Report != "" {
		_ = json.Unmarshal([]byte(j.Report), rep)
	}
	rep.DryRun = j.DryRun
	return rep
}

// Starter starts a job's run outside the request: a queue message in AWS, a goroutine locally.
type Starter interface {
	Start(ctx context.Context, tenant, id string) error
}

// StarterKey is the app.Shared key of the process's Starter.
const StarterKey = "wpimport.starter"

// Source opens an uploaded export by its key (the media bucket's object).
type Source func(ctx context.Context, key string) (io.ReadCloser, error)

// Runner runs jobs.
type Runner struct {
	Importer *Importer
	Store    *store.Store
	Open     Source
	// Users finds the user a job runs as (its writes are theirs, in versions and the audit log).
	Users func(ctx context.Context, scope store.Scope, id string) (*auth.User, error)
	Log   *slog.Logger
	// Told, when set, is told every step's progress (cmsctl prints it).
	Told func(Progress)
	// Lease is how long a runner holds a job between checkpoints (beyond it, another may take it).
	Lease time.Duration
}

// progressEvery is how often a run's progress is written to its job.
const progressEvery = 2 * time.Second

// Run takes job id of tenant a step further: until done, or until until, when it checkpoints and
// answers more=true (run it again). A job another runner holds, or not under way, is left.
func (rn *Runner) Run(ctx context.Context, tenant, id string, until time.Time) (more bool, err error) {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return false, err
	}
	key := JobKey(scope, id)
	lease := newLease()
	now := time.Now().UTC()
	var job Job
	err = rn.Store.Table.Update("PK", key.PK).Range("SK", key.SK).
		Set("lease", lease).Set("leaseEnd", now.Add(rn.lease())).
		If("($ = ? OR $ = ?) AND (attribute_not_exists(leaseEnd) OR leaseEnd < ?)", "state", StateChecking, "state", StateImporting, now).
		Value(ctx, &job)
	if errors.Is(store.Wrap("claim import", err), store.ErrConflict) {
		return false, nil
	}
	if err != nil {
		return false, store.Wrap("claim import", err)
	}
	t, err := rn.Store.GetTenant(ctx, scope)
	if err != nil {
		return false, err
	}
	user, err := rn.Users(ctx, scope, job.ByID)
	if err != nil {
		return false, rn.fail(ctx, key, lease, fmt.Errorf("the user who started it can no longer be found: %w", err), job.report())
	}
	caller := &auth.Caller{Scope: scope, Tenant: t, User: user}
	open := func() (io.ReadCloser, error) { return rn.Open(ctx, job.FileKey) }
	last := time.Time{}
	rep := job.report()
	from := Checkpoint{Step: job.Progress.At.Step}
	_, err = rn.Importer.Run(ctx, caller, open, Options{DryRun: job.DryRun, From: from, Report: rep, Until: until,
		Progress: func(p Progress, rep *Report) error {
			if rn.Told != nil {
				rn.Told(p)
			}
			if time.Since(last) < progressEvery && p.Done < p.Total {
				return nil
			}
			last = time.Now()
			return rn.save(ctx, key, lease, p, rep, "")
		}})
	switch {
	case errors.Is(err, ErrPaused):
		return true, rn.release(ctx, key, lease)
	case err != nil:
		rn.Log.Error("wordpress import failed", "tenant", tenant, "job", id, "err", err)
		return false, rn.fail(ctx, key, lease, err, rep)
	}
	done := StateImported
	if job.DryRun {
		done = StateChecked
	}
	return false, rn.save(ctx, key, lease, Progress{Phase: PhaseDone, Done: 1, Total: 1, At: Checkpoint{Step: 0}}, rep, done)
}

func (rn *Runner) lease() time.Duration {
	if rn.Lease > 0 {
		return rn.Lease
	}
	return 2 * time.Minute
}

func newLease() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// errLeaseLost stops a run whose job another runner took (it outlived its lease).
var errLeaseLost = errors.New("wpimport: another runner took the job")

// save writes a run's progress and report while lease holds the job, extending the lease; with
// state, it finishes the run in that state.
func (rn *Runner) save(ctx context.Context, key store.Key, lease string, p Progress, rep *Report, state string) error {
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	u := rn.Store.Table.Update("PK", key.PK).Range("SK", key.SK).
		Set("progress", p).Set("report", string(raw)).Set("updatedAt", now).If("lease = ?", lease)
	if state != "" {
		u.Set("state", state).Set("finishedAt", now).Remove("lease", "leaseEnd")
	} else {
		u.Set("leaseEnd", now.Add(rn.lease()))
	}
	err = store.Wrap("save import progress", u.Run(ctx))
	if errors.Is(err, store.ErrConflict) {
		return errLeaseLost
	}
	return err
}

// release lets the job go at a checkpoint, for the next invocation to take.
func (rn *Runner) release(ctx context.Context, key store.Key, lease string) error {
	err := rn.Store.Table.Update("PK", key.PK).Range("SK", key.SK).Remove("lease", "leaseEnd").If("lease = ?", lease).Run(ctx)
	if err = store.Wrap("release import", err); errors.Is(err, store.ErrConflict) {
		return nil
	}
	return err
}

// fail ends a run with why; its checkpoint stays, so Import again goes on from there.
func (rn *Runner) fail(ctx context.Context, key store.Key, lease string, why error, rep *Report) error {
	if errors.Is(why, errLeaseLost) {
		return nil
	}
	raw, _ := json.Marshal(rep)
	now := time.Now().UTC()
	err := rn.Store.Table.Update("PK", key.PK).Range("SK", key.SK).
		Set("state", StateFailed).Set("error", failure(why)).Set("report", string(raw)).Set("updatedAt", now).
		Remove("lease", "leaseEnd").If("lease = ?", lease).Run(ctx)
	if err = store.Wrap("fail import", err); errors.Is(err, store.ErrConflict) {
		return nil
	}
	return err
}

// failure is why a run stopped, as the Import screen shows it.
func failure(err error) string {
	msg := err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	return msg
}
