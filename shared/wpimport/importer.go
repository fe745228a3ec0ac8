// Package wpimport moves a WordPress site in: it reads a WordPress export (WXR) as a stream and
// writes its published pages, posts (as notices), attachments (to the media library) and menu
// through the engine's own paths, as a staff member's edits are written (checks, plan limits,
// versions, audit entries, word index, counters), adds a redirect from every old address, and
// reports what it did not import. Every imported thing has an id derived from the tenant and
// the WordPress id it came from, so running the import again updates what it wrote rather than
// copying it, and a run stopped half way is resumed from its checkpoint.
package wpimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
)

// Importer imports exports into tenants.
type Importer struct {
	Svc   *collections.Service
	Media *media.Service
	// MediaPrefix is the path media is served under ("/media/"): imported images in content
	// point at MediaPrefix + tenant + "/" + reference.
	MediaPrefix string
	// Files finds attachments' files; nil finds none (each is reported missing).
	Files Files
}

// Opener opens the export from its start: an import reads it twice (its index, then its
// content), never holding it whole.
type Opener func() (io.ReadCloser, error)

// Checkpoint is how far a run got: the number of its steps done (every attachment, then every
// page and post in file order, then the menu, then the redirects).
type Checkpoint struct {
	Step int `json:"step"`
}

// Progress is where a run is, after a step.
type Progress struct {
	Phase string     `json:"phase"`
	Done  int        `json:"done"`
	Total int        `json:"total"`
	At    Checkpoint `json:"checkpoint"`
}

// Options are one run's.
type Options struct {
	DryRun bool
	// From resumes a run stopped at a checkpoint, adding to Report (nil: a new report).
	From   Checkpoint
	Report *Report
	// Progress is told after every step; an error it returns stops the run (a lost lease).
	Progress func(Progress, *Report) error
	// Until, when set, stops the run after the first step that ends past it (ErrPaused), so a
	// job in a function with a time limit checkpoints and goes on in its next invocation.
	Until time.Time
}

// ErrPaused ends a run that reached Options.Until with steps left.
var ErrPaused = errors.New("wpimport: paused with steps left")

// Phases, as Progress names them.
const (
	PhaseMedia     = "media"
	PhaseContent   = "content"
	PhaseMenu      = "menu"
	PhaseRedirects = "redirects"
	PhaseDone      = "done"
)

// run is one import of one export into one tenant.
type run struct {
	im     *Importer
	caller *auth.Caller
	scope  store.Scope
	opts   Options
	rep    *Report
	ix     *index
	plan   *plan
	step   int
	total  int
	// imported are the attachments in the library (by WordPress id), with their references.
	imported map[int]string
	// mu guards the report's counts while attachments are fetched a few at a time.
	mu sync.Mutex
}

// Run imports the export open reads into caller's tenant, as caller.
func (im *Importer) Run(ctx context.Context, caller *auth.Caller, open Opener, opts Options) (*Report, error) {
	rep := opts.Report
	if rep == nil {
		rep = NewReport(opts.DryRun)
	}
	r := &run{im: im, caller: caller, scope: caller.Scope, opts: opts, rep: rep, imported: map[int]string{}}
	if err := r.index(open); err != nil {
		return rep, err
	}
	if err := r.plan.resolveSlugs(ctx, r); err != nil {
		return rep, err
	}
	r.total = len(r.ix.attachments) + len(r.ix.content) + 2
	if err := r.media(ctx); err != nil {
		return rep, err
	}
	if err := r.content(ctx, open); err != nil {
		return rep, err
	}
	if err := r.once(ctx, PhaseMenu, r.menu); err != nil {
		return rep, err
	}
	if err := r.once(ctx, PhaseRedirects, r.redirects); err != nil {
		return rep, err
	}
	return rep, nil
}

// index reads the export's index and plans the run. A resumed run reads a fresh report's
// counts of skipped things into a scratch report (the resumed one has them already).
func (r *run) index(open Opener) error {
	f, err := open()
	if err != nil {
		return err
	}
	defer f.Close()
	into := r.rep
	if r.opts.From.Step > 0 {
		into = NewReport(r.opts.DryRun)
	}
	ix, err := readIndex(f, into)
	if err != nil {
		return err
	}
	if r.rep.Site == "" {
		r.rep.Site = ix.site.Title
	}
	r.ix = ix
	r.plan = newPlan(ix, r.scope, r.caller.Tenant.CreatedAt)
	return nil
}

// done finishes a step: the checkpoint moves, progress is told, and a run past its time pauses.
func (r *run) done(phase string) error {
	r.step++
	if r.opts.Progress != nil {
		if err := r.opts.Progress(Progress{Phase: phase, Done: r.step, Total: r.total, At: Checkpoint{Step: r.step}}, r.rep); err != nil {
			return err
		}
	}
	if !r.opts.Until.IsZero() && time.Now().After(r.opts.Until) && r.step < r.total {
		return ErrPaused
	}
	return nil
}

// skip reports whether step n was done by the run resumed.
func (r *run) skip() bool { return r.step < r.opts.From.Step }

// once runs a one-step phase.
func (r *run) once(ctx context.Context, phase string, fn func(context.Context) error) error {
	if r.skip() {
		r.step++
		return nil
	}
	if err := fn(ctx); err != nil {
		return err
	}
	return r.done(phase)
}

// outcome counts one write of a thing of kind: created, updated or found as it was.
type outcome int

const (
	unchanged outcome = iota
	created
	updated
)

func (r *run) count(kind string, o outcome) {
	switch o {
	case created:
		r.rep.Imported.add(kind, 1)
	case updated:
		r.rep.Updated.add(kind, 1)
	default:
		r.rep.Unchanged.add(kind, 1)
	}
}

// upsert writes record id of collection key through the engine: created if absent, else
// patched with the fields that differ (none: unchanged, no version kept). A dry run only reads.
func (r *run) upsert(ctx context.Context, key, id string, body map[string]any) (outcome, error) {
	c := r.im.Svc.Registry()[key]
	if c == nil {
		return unchanged, fmt.Errorf("wpimport: no collection %q", key)
	}
	cur, err := r.im.Svc.Load(ctx, r.scope, c, id)
	var ae *api.Error
	switch {
	case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
		if r.opts.DryRun {
			return created, nil
		}
		if _, err := r.im.Svc.Create(ctx, r.caller, c, id, body); err != nil {
			return unchanged, err
		}
		return created, nil
	case err != nil:
		return unchanged, err
	}
	patch := map[string]any{}
	for k, v := range body {
		if !same(cur[k], v) {
			patch[k] = v
		}
	}
	if len(patch) == 0 {
		return unchanged, nil
	}
	if r.opts.DryRun {
		return updated, nil
	}
	patch["version"] = cur["version"]
	if _, err := r.im.Svc.Update(ctx, r.caller, c, id, patch); err != nil {
		return unchanged, err
	}
	return updated, nil
}

// same compares a stored value with one the import would write.
func same(stored, v any) bool {
	if stored == nil {
		switch x := v.(type) {
		case string:
			return x == ""
		case bool:
			return !x
		}
	}
	// The engine keeps text without surrounding white space.
	return strings.TrimSpace(fmt.Sprint(stored)) == strings.TrimSpace(fmt.Sprint(v))
}

// fixedID is the id of the thing an export's item of kind and WordPress id becomes in the
// tenant: a ULID whose time is the tenant's creation and whose entropy is the first 80 bits of
// SHA-256(tenant, kind, id), so every run arrives at the same one.
func fixedID(scope store.Scope, created time.Time, kind string, wpID int) string {
	return ids.Derived(created, scope.Tenant(), "wordpress", kind, strconv.Itoa(wpID))
}

// describe is a refusal as one line of the report: its message and its field messages.
func describe(err error) string {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return err.Error()
	}
	msg := ae.Message
	for _, k := range sortedFieldKeys(ae.Fields) {
		msg += fmt.Sprintf(" (%s: %s)", k, ae.Fields[k])
	}
	return msg
}

// refused reports whether err is the engine refusing a write (a 4xx), which the report lists
// and the run goes on past, rather than a failure that stops it.
func refused(err error) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500
}
