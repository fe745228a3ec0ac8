package redirects

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// idTime is the time part of RecordID's ids: fixed, so an id depends on the tenant and the path
// alone.
var idTime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// RecordID is the id Upsert gives the redirect from fromPath (normalised) in the scope's tenant:
// a ULID whose entropy is the first 80 bits of SHA-256(tenant, path), so a second run of an
// import finds the redirect it made with one read, and tells it from one a person made.
func RecordID(scope store.Scope, fromPath string) string {
	return ids.Derived(idTime, scope.Tenant(), Kind, fromPath)
}

// Result is what Put did.
type Result struct {
	// ID is the redirect from the path: the one Put made or updated, or the one it kept.
	ID string
	// Changed: a redirect was created, or its target or status updated.
	Changed bool
	// Kept: a redirect from the path that a person made (or one Put made whose path a person
	// changed since) was left alone.
	Kept bool
}

// Upsert creates or updates the redirect from fromPath (normalised as on save) through the engine
// (svc.Create / update path, versions, audit) as caller; an existing redirect from the same path
// that a person made is left alone and reported (changed=false, and Put's Result says Kept).
func Upsert(ctx context.Context, svc *collections.Service, caller *auth.Caller, fromPath, to string, status int) (changed bool, err error) {
	res, err := Put(ctx, svc, caller, fromPath, to, status)
	return res.Changed, err
}

// Put is Upsert saying what it did. The redirect it makes has the id RecordID gives the path:
// one from the same path under another id is a person's and is kept; its own is updated when the
// target or status differ, and left as it is otherwise. Bad input is the field error a save
// would give (fromPath, to, statusCode), and nothing is written.
func Put(ctx context.Context, svc *collections.Service, caller *auth.Caller, fromPath, to string, status int) (Result, error) {
	from, err := Normalize(fromPath)
	if err != nil {
		return Result{}, err
	}
	target, err := NormalizeTo(to)
	if err != nil {
		return Result{}, err
	}
	if status != Permanent && status != Temporary {
		return Result{}, api.FieldError(http.StatusBadRequest, fieldStatus, msgStatus)
	}
	if loops(from, target) {
		return Result{}, api.FieldError(http.StatusBadRequest, fieldTo, msgLoop)
	}
	c, ok := svc.Registry()[Kind]
	if !ok {
		return Result{}, fmt.Errorf("redirects: the %s collection is not declared", Kind)
	}
	id := RecordID(caller.Scope, from)
	code := strconv.Itoa(status)
	// Twice at most: a create refused because a redirect from the path appeared meanwhile reads
	// the marker again and takes the path of an existing one.
	for range 2 {
		var m Marker
		err := svc.Store().Get(ctx, MarkerKey(caller.Scope, from), &m)
		switch {
		case store.IsNotFound(err):
			_, err = svc.Create(ctx, caller, c, id, map[string]any{"fromPath": from, "to": target, "statusCode": code})
			switch {
			case err == nil:
				return Result{ID: id, Changed: true}, nil
			case errors.Is(err, errTaken):
				continue
			case isStatus(err, http.StatusConflict):
				// The record is there without its path's marker: a person gave it another path.
				return Result{ID: id, Kept: true}, nil
			}
			return Result{}, err
		case err != nil:
			return Result{}, err
		case m.RedirectID != id:
			return Result{ID: m.RedirectID, Kept: true}, nil
		case m.To == target && m.StatusCode == status:
			return Result{ID: id}, nil
		}
		if _, err := svc.Update(ctx, caller, c, id, map[string]any{"to": target, "statusCode": code}); err != nil {
			return Result{}, err
		}
		return Result{ID: id, Changed: true}, nil
	}
	return Result{}, api.ErrConflict
}

func isStatus(err error, status int) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Status == status
}
