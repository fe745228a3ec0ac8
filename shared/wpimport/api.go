package wpimport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// Prefix is the route prefix of the Import screen's calls.
const Prefix = "wordpress-imports"

// Module serves /wordpress-imports: upload an export, check it (a dry run), import it, follow
// its progress. Administrators only: an import writes pages, notices, media, the menu and
// redirects at once.
var Module = app.Module{
	Name:     "wordpress-imports",
	Prefixes: func() []string { return []string{Prefix} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		h := &handlers{st: d.Store, s3: s3rest.New(d.AWS), bucket: d.Config.MediaBucket, uploadURL: d.Config.MediaUploadURL,
			starter: func() (Starter, error) { return StarterOf(d) }, now: time.Now}
		p := base + "/" + Prefix
		mux.Handle("POST "+p, d.Guard.Require("", h.admin(h.create)))
		mux.Handle("GET "+p, d.Guard.Require("", h.admin(h.list)))
		mux.Handle("GET "+p+"/{id}", d.Guard.Require("", h.admin(h.get)))
		mux.Handle("POST "+p+"/{id}/check", d.Guard.Require("", h.admin(h.check)))
		mux.Handle("POST "+p+"/{id}/import", d.Guard.Require("", h.admin(h.start)))
		return nil
	},
}

type handlers struct {
	st        *store.Store
	s3        *s3rest.Client
	bucket    string
	uploadURL string
	starter   func() (Starter, error)
	now       func() time.Time
}

var (
	errAdminsOnly   = &api.Error{Status: http.StatusForbidden, Message: "Only an administrator can import a website."}
	errNoJob        = &api.Error{Status: http.StatusNotFound, Message: "This import was not found."}
	errNotUploaded  = &api.Error{Status: http.StatusBadRequest, Message: "The file has not been uploaded yet."}
	errUnderWay     = &api.Error{Status: http.StatusConflict, Message: "This import is already under way."}
	errCheckFirst   = &api.Error{Status: http.StatusConflict, Message: "Check the file before importing it."}
	errNotWXR       = &api.Error{Status: http.StatusBadRequest, Message: "This file is not a WordPress export. In WordPress, use Tools → Export → All content, and upload the .xml file it downloads."}
	errExportTooBig = &api.Error{Status: http.StatusRequestEntityTooLarge, Message: "The export is larger than 100 MB."}
)

func (h *handlers) admin(next api.HandlerFunc) api.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if !auth.CallerFrom(r.Context()).User.IsAdmin {
			return errAdminsOnly
		}
		return next(w, r)
	}
}

// view is a job as the Import screen shows it, its report as sections.
type view struct {
	*Job
	Sections []Section `json:"report"`
}

func viewOf(j *Job) view {
	return view{Job: j, Sections: j.report().Sections()}
}

func (h *handlers) create(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name string `json:"name"`
		Size int64  `json:"size"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "" || len(name) > 255:
		return api.FieldError(http.StatusBadRequest, "name", "Name the file (at most 255 characters).")
	case in.Size <= 0:
		return api.FieldError(http.StatusBadRequest, "size", "The file is empty.")
	case in.Size > MaxExport:
		return errExportTooBig
	}
	caller := auth.CallerFrom(r.Context())
	now := h.now().UTC()
	id := ids.New()
	key := mediaref.UploadKey(caller.Scope, id, "export.xml")
	post, err := media.PresignWith(r.Context(), h.s3, h.bucket, h.uploadURL, media.PostPolicy{Key: key,
		ContentType: "text/xml", MinSize: 1, MaxSize: MaxExport, Expires: now.Add(30 * time.Minute)}, now)
	if err != nil {
		return err
	}
	k := JobKey(caller.Scope, id)
	job := &Job{PK: k.PK, SK: k.SK, ID: id, FileName: name, FileKey: key, Size: in.Size, State: StateUploading,
		By: caller.User.Username, ByID: caller.User.ID, Created: now, Updated: now}
	item := struct {
		*Job
		// ExpiresAt lets the table's TTL remove a job a month on (its file goes in a day).
		ExpiresAt int64 `dynamo:"expiresAt"`
	}{job, now.Add(30 * 24 * time.Hour).Unix()}
	if err := store.Wrap("put import", h.st.Table.Put(item).If("attribute_not_exists(PK)").Run(r.Context())); err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: struct {
		view
		Upload media.PresignedPost `json:"upload"`
	}{viewOf(job), post}})
}

func (h *handlers) load(ctx context.Context, scope store.Scope, id string) (*Job, error) {
	if !ids.Valid(id) {
		return nil, errNoJob
	}
	var j Job
	err := h.st.Get(ctx, JobKey(scope, id), &j)
	if store.IsNotFound(err) {
		return nil, errNoJob
	}
	return &j, err
}

func (h *handlers) get(w http.ResponseWriter, r *http.Request) error {
	j, err := h.load(r.Context(), auth.CallerFrom(r.Context()).Scope, r.PathValue("id"))
	if err != nil {
		return err
	}
	return api.OK(w, viewOf(j))
}

// list answers the tenant's ten latest imports, newest first (one bounded query).
func (h *handlers) list(w http.ResponseWriter, r *http.Request) error {
	scope := auth.CallerFrom(r.Context()).Scope
	var jobs []Job
	err := h.st.Table.Get("PK", scope.Partition(jobPartition)).Order(false).Limit(10).Consistent(true).All(r.Context(), &jobs)
	if err != nil {
		return store.Wrap("list imports", err)
	}
	out := make([]view, len(jobs))
	for i := range jobs {
		out[i] = view{Job: &jobs[i]}
	}
	return api.OK(w, out)
}

// check starts a dry run of an uploaded export.
func (h *handlers) check(w http.ResponseWriter, r *http.Request) error {
	return h.begin(w, r, true)
}

// start starts the import of a checked export; a failed import goes on from its checkpoint.
func (h *handlers) start(w http.ResponseWriter, r *http.Request) error {
	return h.begin(w, r, false)
}

func (h *handlers) begin(w http.ResponseWriter, r *http.Request, dryRun bool) error {
	if err := api.DecodeOptional(r, &struct{}{}); err != nil { // no body, or an empty object
		return err
	}
	ctx := r.Context()
	caller := auth.CallerFrom(ctx)
	j, err := h.load(ctx, caller.Scope, r.PathValue("id"))
	if err != nil {
		return err
	}
	switch {
	case j.State == StateChecking || j.State == StateImporting:
		return errUnderWay
	case !dryRun && j.State == StateUploading:
		return errCheckFirst
	}
	if j.State == StateUploading {
		if err := h.sniff(ctx, j.FileKey); err != nil {
			return err
		}
	}
	resume := !dryRun && j.State == StateFailed && !j.DryRun
	next, from := StateImporting, j.State
	if dryRun {
		next = StateChecking
	}
	k := JobKey(caller.Scope, j.ID)
	now := h.now().UTC()
	u := h.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("state", next).Set("dryRun", dryRun).
		Set("by", caller.User.Username).Set("byId", caller.User.ID).Set("updatedAt", now).
		Remove("error", "finishedAt", "lease", "leaseEnd").If("$ = ?", "state", from)
	if !resume {
		u.Set("progress", Progress{}).Set("report", "")
	}
	var updated Job
	err = store.Wrap("start import", u.Value(ctx, &updated))
	if errors.Is(err, store.ErrConflict) {
		return errUnderWay
	}
	if err != nil {
		return err
	}
	starter, err := h.starter()
	if err != nil {
		return err
	}
	if err := starter.Start(ctx, caller.Scope.Tenant(), j.ID); err != nil {
		return err
	}
	return api.JSON(w, http.StatusAccepted, api.Envelope{Result: viewOf(&updated)})
}

// sniff refuses an upload that is missing, too large or plainly not XML before any run starts.
func (h *handlers) sniff(ctx context.Context, key string) error {
	size, err := h.s3.Size(ctx, h.bucket, key)
	if err != nil {
		// Without s3:ListBucket, S3 answers a missing key's HEAD with 403, not 404.
		var e *s3rest.Error
		if errors.As(err, &e) && (e.Code == "NotFound" || e.Code == "NoSuchKey" || e.Code == "Forbidden" || e.Code == "AccessDenied") {
			return errNotUploaded
		}
		return err
	}
	if size > MaxExport {
		return errExportTooBig
	}
	body, err := h.s3.Get(ctx, h.bucket, key, 0, 1023)
	if err != nil {
		return err
	}
	defer body.Close()
	head, _ := io.ReadAll(io.LimitReader(body, 1024))
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if !bytes.HasPrefix(head, []byte("<?xml")) && !bytes.HasPrefix(head, []byte("<rss")) {
		return errNotWXR
	}
	return nil
}
