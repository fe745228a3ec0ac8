// Package trash serves the tenant's trash to the panel: what was deleted in the last 30 days, by
// whom and when, with Restore and Delete forever. The entries themselves are the deleted records'
// last kept versions (collections/trash.go); records of a collection come back through the
// collections engine, media files through the media service.
package trash

import (
	"net/http"
	"strconv"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
)

// PermView is the right to see the trash. It shows only the kinds the caller may also view (a
// deleted user's username or an invoice's title is not shown to someone who may not see users or
// invoices); restoring a record also takes the rights to view and to create one of its kind,
// deleting it forever the rights to view and to delete one (media files: any signed-in user, as
// in the Media Library).
const PermView = "CMS_VIEW_TRASH"

// Module serves /trash with the collections engine the process links (every collection's hooks:
// a page comes back with its sections, a form with its submissions).
func Module(linked collections.Linked) app.Module {
	return app.Module{
		Name:     "trash",
		Prefixes: func() []string { return []string{"trash"} },
		Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
			cs, err := collections.SharedService(d, linked)
			if err != nil {
				return err
			}
			h := &handlers{collections: cs, media: media.NewService(d.Store, s3rest.New(d.AWS), d.Config.MediaBucket, d.Config.MediaUploadURL, d.Guard), now: time.Now}
			mux.Handle("GET "+base+"/trash", d.Guard.Require(PermView, h.list))
			mux.Handle("POST "+base+"/trash/{kind}/{id}/{version}/restore", d.Guard.Require(PermView, h.restore))
			mux.Handle("DELETE "+base+"/trash/{kind}/{id}/{version}", d.Guard.Require(PermView, h.purge))
			return nil
		},
	}
}

type handlers struct {
	collections *collections.Service
	media       *media.Service
	now         func() time.Time
}

var errUnknownKind = &api.Error{Status: http.StatusNotFound, Message: "This item is no longer in the trash."}

// target is what a trash route names: a record of a collection (c) or a media file (c nil), at
// the version its delete kept, with the right the action needs checked.
type target struct {
	c       *collections.Collection
	id      string
	version int
}

func (h *handlers) target(r *http.Request, action string) (target, error) {
	kind, id := r.PathValue("kind"), r.PathValue("id")
	n, err := strconv.Atoi(r.PathValue("version"))
	if err != nil || n < 1 || n > 1<<30 || !ids.Valid(id) {
		return target{}, errUnknownKind
	}
	need := ""
	t := target{id: id, version: n}
	if kind != media.Kind {
		c, ok := h.collections.Registry()[kind]
		if !ok || c.Singleton != "" {
			return target{}, errUnknownKind
		}
		t.c, need = c, c.Permission(action)
	}
	if u := auth.CallerFrom(r.Context()).User; !u.Can(need) || !canView(u, t.c) {
		return target{}, api.ErrForbidden
	}
	return t, nil
}

// canView says whether u may see the trash entries of collection c (nil: media files, which
// every signed-in user sees in the Media Library).
func canView(u *auth.User, c *collections.Collection) bool {
	return c == nil || u.Can(c.Permission("VIEW"))
}

// maxListReads bounds the Queries one page of a filtered trash list costs; a page cut short
// still carries the cursor where the next one starts.
const maxListReads = 8

// list serves GET /trash?kind=&limit=&cursor=: a page of entries, newest first.
func (h *handlers) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	kind := q.Get("kind")
	if c, ok := h.collections.Registry()[kind]; kind != "" && kind != media.Kind && (!ok || c.Singleton != "") {
		return api.FieldError(http.StatusBadRequest, "kind", "kind is not something that can be in the trash.")
	}
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return api.FieldError(http.StatusBadRequest, "limit", "limit must be between 1 and 100.")
		}
		limit = n
	}
	caller := auth.CallerFrom(r.Context())
	reg := h.collections.Registry()
	visible := func(kind string) bool {
		if kind == media.Kind {
			return true
		}
		c, ok := reg[kind]
		return ok && canView(caller.User, c)
	}
	if kind != "" && !visible(kind) {
		return api.ErrForbidden
	}
	// Entries of kinds the caller may not view are left out: each Query asks for as many entries
	// as the page still lacks, so the page never holds more than limit and its cursor is exactly
	// where the next page starts.
	list := []collections.TrashEntry{}
	next := q.Get("cursor")
	for reads := 0; reads < maxListReads && len(list) < limit; reads++ {
		page, after, err := collections.TrashList(r.Context(), h.collections.Store(), caller.Scope, kind, limit-len(list), next, h.now())
		if err != nil {
			return err
		}
		for _, e := range page {
			if visible(e.Kind) {
				list = append(list, e)
			}
		}
		if next = after; next == "" {
			break
		}
	}
	return api.JSON(w, http.StatusOK, struct {
		Result     []collections.TrashEntry `json:"result"`
		NextCursor string                   `json:"nextCursor,omitempty"`
	}{list, next})
}

// restore serves POST /trash/{kind}/{id}/{version}/restore, with no body or {}.
func (h *handlers) restore(w http.ResponseWriter, r *http.Request) error {
	if err := api.DecodeOptional(r, &struct{}{}); err != nil {
		return err
	}
	t, err := h.target(r, "CREATE")
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	if t.c == nil {
		it, err := h.media.RestoreDeleted(r.Context(), caller, t.id)
		if err != nil {
			return err
		}
		return api.JSON(w, http.StatusOK, api.Envelope{Result: it, Message: "Media restored from the trash!"})
	}
	rec, msg, err := h.collections.RestoreDeleted(r.Context(), caller, t.c, t.id, t.version)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: rec, Message: msg})
}

// MsgPurging answers a "Delete forever" that the request could not finish (a form with many
// submissions): the entry stays in the trash, marked purging, until the rest is gone.
const MsgPurging = "Being deleted forever: it leaves the trash once everything it holds is deleted."

// purge serves DELETE /trash/{kind}/{id}/{version}: Delete forever. What a record holds back
// goes a bounded part per request (collections.PurgeDeleted): 200 when all of it is gone, 202
// when the rest is left to the schedule job (or to the same request again, which goes on
// where this one stopped, as after a failure).
func (h *handlers) purge(w http.ResponseWriter, r *http.Request) error {
	t, err := h.target(r, "DELETE")
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	done := true
	if t.c == nil {
		err = h.media.PurgeDeleted(r.Context(), caller, t.id)
	} else {
		done, err = h.collections.PurgeDeleted(r.Context(), caller, t.c, t.id, t.version)
	}
	if err != nil {
		return err
	}
	if !done {
		return api.JSON(w, http.StatusAccepted, api.Envelope{Result: map[string]any{"id": t.id, "purging": true}, Message: MsgPurging})
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]string{"id": t.id}, Message: "Deleted forever."})
}
