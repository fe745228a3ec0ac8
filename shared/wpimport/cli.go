package wpimport

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// errHeld is a file import another run holds.
var errHeld = errors.New("another run is importing this file right now; try again when it ends (or in two minutes, if it was stopped)")

// RunFile imports the export at path into tenant as the operator's tool: a job like the Import
// screen's, whose id comes from the tenant and the file's SHA-256, so running the same file again
// resumes a stopped import (or, once done, updates what it wrote). It answers the job's report.
func (rn *Runner) RunFile(ctx context.Context, tenant, path string, dryRun bool) (*Report, error) {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return nil, err
	}
	t, err := rn.Store.GetTenant(ctx, scope)
	if err != nil {
		return nil, fmt.Errorf("tenant %q: %w", tenant, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	size, err := io.Copy(h, f)
	f.Close()
	if err != nil {
		return nil, err
	}
	sum := h.Sum(nil)
	id := ids.At(t.CreatedAt, [10]byte(sum[:10]))
	key := JobKey(scope, id)
	rn.Open = func(context.Context, string) (io.ReadCloser, error) { return os.Open(path) }
	rn.Users = func(context.Context, store.Scope, string) (*auth.User, error) {
		u := auth.Operator
		return &u, nil
	}
	var job Job
	err = rn.Store.Get(ctx, key, &job)
	if err != nil && !store.IsNotFound(err) {
		return nil, err
	}
	resume := err == nil && !dryRun && !job.DryRun && (job.State == StateImporting || job.State == StateFailed)
	if err == nil && job.LeaseEnd.After(time.Now()) {
		return nil, errHeld
	}
	now := time.Now().UTC()
	state := StateImporting
	if dryRun {
		state = StateChecking
	}
	if !resume {
		job = Job{PK: key.PK, SK: key.SK, ID: id, FileName: filepath.Base(path), Created: now}
	}
	job.State, job.DryRun, job.Size, job.FileKey, job.Error = state, dryRun, size, "", ""
	job.By, job.ByID, job.Updated, job.Lease, job.LeaseEnd, job.Finished = auth.Operator.Username, auth.Operator.ID, now, "", time.Time{}, nil
	if err := store.Wrap("put import", rn.Store.Table.Put(job).Run(ctx)); err != nil {
		return nil, err
	}
	for {
		more, err := rn.Run(ctx, tenant, id, time.Time{})
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
	}
	if err := rn.Store.Get(ctx, key, &job); err != nil {
		return nil, err
	}
	rep := job.report()
	if job.State == StateFailed {
		return rep, fmt.Errorf("the import stopped: %s (run the same command again to go on from where it stopped)", job.Error)
	}
	return rep, nil
}
