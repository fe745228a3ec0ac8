// Package redirects holds the rules of the redirects collection (issue 34): an old address of the
// institution's website (fromPath, a path with at most one WordPress query such as /?p=123) that
// the website answers, when nothing of the new site is there, with a 301 or 302 to a path of the
// site or an https:// address. The generic collections engine serves /redirects and calls these
// hooks; a redirect's fromPath is unique in its tenant through a marker item written in the
// redirect's own transaction, which also holds what the website answers with (target, status
// and the redirect's id), so the website finds a redirect with one GetItem (public.Reader). The
// WordPress import adds its redirects through Upsert.
package redirects

import (
	"context"
	"net/http"
	"strconv"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// Kind is the collection's key (its path and partition).
const Kind = "redirects"

// HooksName is the name collections.json gives the redirects' hooks.
const HooksName = "redirects"

// markerPartition is the partition of the markers: T#{t}#REDIRECT / {fromPath}.
const markerPartition = "REDIRECT"

// MarkerKey is the marker of one (normalised) fromPath in the tenant.
func MarkerKey(scope store.Scope, fromPath string) store.Key {
	return store.Key{PK: scope.Partition(markerPartition), SK: fromPath}
}

// MarkerPartition is the tenant's partition of markers (a tenant's deletion and export read it).
func MarkerPartition(scope store.Scope) string { return scope.Partition(markerPartition) }

// Marker is what the website answers a fromPath with: the redirect's target, status (301 or 302)
// and id, and whether it is switched off (its Status switch: the path stays taken, the website
// answers as if there were no redirect).
type Marker struct {
	PK         string `dynamo:"PK,hash"`
	SK         string `dynamo:"SK,range"`
	RedirectID string `dynamo:"redirectId"`
	To         string `dynamo:"to"`
	StatusCode int    `dynamo:"statusCode"`
	Off        bool   `dynamo:"off,omitempty"`
}

// Statuses a redirect answers with.
const (
	Permanent = http.StatusMovedPermanently
	Temporary = http.StatusFound
)

// errTaken answers a second redirect from the same path (or a restore of one whose path was
// taken meanwhile).
var errTaken = api.FieldError(http.StatusConflict, fieldFrom, "A redirect from this path already exists.")

// Hooks returns the hooks this package implements, by the name collections.json declares; every
// process that writes redirects (the navigation group, the trash, the local server) links them.
func Hooks() map[string]collections.Hooks {
	return map[string]collections.Hooks{HooksName: hooks{}}
}

type hooks struct{}

var _ collections.Hooks = hooks{}

// BeforeWrite normalises and checks what the write sets (fromPath, to and the pair: no loop),
// then keeps the marker in step in the write's own transaction: put (refused when the path is
// another redirect's) on create, on restore and on a new fromPath (the old one's deleted), and
// written again when the target, the status code or the Status switch changes.
func (hooks) BeforeWrite(_ context.Context, s *collections.Service, w *collections.Write) error {
	creating := w.Old == nil
	errs := map[string]string{}
	from, to := str(w.Rec["fromPath"]), str(w.Rec["to"])
	if _, set := w.Values["fromPath"]; creating || set {
		n, msg := normalizeFrom(from)
		if msg != "" {
			errs[fieldFrom] = msg
		}
		from = n
	}
	if _, set := w.Values["to"]; creating || set {
		n, msg := normalizeTo(to)
		if msg != "" {
			errs[fieldTo] = msg
		}
		to = n
	}
	status, err := strconv.Atoi(str(w.Rec["statusCode"]))
	if err != nil || (status != Permanent && status != Temporary) {
		errs[fieldStatus] = msgStatus
	}
	if len(errs) == 0 && loops(from, to) {
		errs[fieldTo] = msgLoop
	}
	if len(errs) > 0 {
		return api.BadRequest(errs, fieldFrom, fieldTo, fieldStatus)
	}
	w.Rec["fromPath"], w.Rec["to"] = from, to

	st, scope, id := s.Store(), w.Caller.Scope, str(w.Rec["id"])
	k := MarkerKey(scope, from)
	m := Marker{PK: k.PK, SK: k.SK, RedirectID: id, To: to, StatusCode: status, Off: w.Rec["status"] != true}
	oldFrom := str(w.Old["fromPath"])
	switch {
	case creating || oldFrom != from:
		w.Also(st.Table.Put(m).If("attribute_not_exists(PK)"), errTaken)
		if oldFrom != "" {
			w.Also(deleteMarker(st, MarkerKey(scope, oldFrom), id), nil)
		}
	case to != str(w.Old["to"]) || strconv.Itoa(status) != str(w.Old["statusCode"]) || m.Off != (w.Old["status"] != true):
		w.Also(st.Table.Put(m).If("attribute_not_exists(PK) OR redirectId = ?", id), errTaken)
	}
	return nil
}

// BeforeDelete frees the redirect's fromPath with it (a delete moves it to the trash; a restore
// puts the marker back, or is refused when the path was taken meanwhile).
func (hooks) BeforeDelete(_ context.Context, s *collections.Service, w *collections.Write) error {
	from := str(w.Old["fromPath"])
	if from == "" {
		return nil
	}
	k := MarkerKey(w.Caller.Scope, from)
	w.Also(deleteMarker(s.Store(), k, str(w.Old["id"])), nil)
	return nil
}

// deleteMarker deletes a marker only while it is the redirect's own.
func deleteMarker(st *store.Store, k store.Key, id string) *dynamo.Delete {
	return st.Table.Delete("PK", k.PK).Range("SK", k.SK).If("attribute_not_exists(PK) OR redirectId = ?", id)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
