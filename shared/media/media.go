// Package media serves /media: the tenant's media library and its uploads. Files never pass
// through a Lambda: the browser posts them straight to S3 with a presigned POST, then confirms;
// the confirmation reads the object's real size and first bytes before anything is kept.
package media

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// MaxSize is the largest file accepted: 5,242,880 bytes (SPEC §9).
const MaxSize = 5 << 20

// Lifetimes of an upload: the presigned POST's, and the pending record's (matching the bucket's
// lifecycle rule that expires unconfirmed objects under uploads/ after a day).
const (
	postExpiry    = 10 * time.Minute
	pendingExpiry = 24 * time.Hour
	sniffBytes    = 512
	maxNameChars  = 255
	maxMimeLen    = 255 // RFC 6838 caps type and subtype at 127 characters each
)

// User-facing messages.
const (
	MsgTooLarge = "Maximum file size is 5 MB"
	MsgMismatch = "The file's contents do not match its type."
	MsgDeleted  = "Media Deleted"
	MsgUploaded = "File Uploaded successfully!"
)

var (
	errTooLarge    = &api.Error{Status: http.StatusRequestEntityTooLarge, Message: MsgTooLarge}
	errEmpty       = &api.Error{Status: http.StatusBadRequest, Message: "The file is empty."}
	errMismatch    = &api.Error{Status: http.StatusUnsupportedMediaType, Message: MsgMismatch}
	errUnknownLoad = &api.Error{Status: http.StatusNotFound, Message: "This upload was not found or has expired. Please upload the file again."}
	errNotUploaded = &api.Error{Status: http.StatusBadRequest, Message: "The file has not been uploaded yet."}
)

// Service serves /media.
type Service struct {
	records Records
	objects Objects
	guard   *auth.Guard
	now     func() time.Time
	// deriveInBackground, when set, starts making a confirmed image's variants in this process
	// (the local server); in AWS the bucket's events do it (Deriver).
	deriveInBackground func(scope store.Scope, id string)
}

// DeriveInBackground makes the service derive each confirmed image's variants itself, in a
// goroutine of this process, as the stack's bucket events do in AWS: the local server's way.
func (s *Service) DeriveInBackground(d *Deriver, log *slog.Logger) *Service {
	s.deriveInBackground = func(scope store.Scope, id string) {
		go func() {
			if err := d.Derive(context.Background(), scope, id); err != nil {
				log.Error("deriving image variants failed", "tenant", scope.Tenant(), "id", id, "err", err)
			}
		}()
	}
	return s
}

// NewService returns the media service over the shared table and the media bucket. uploadURL,
// when set, replaces the bucket's endpoint as the address browsers post uploads to.
func NewService(st *store.Store, client *s3rest.Client, bucket, uploadURL string, guard *auth.Guard) *Service {
	return &Service{records: dynamoRecords{st: st}, objects: s3Objects{client: client, bucket: bucket, uploadURL: uploadURL, now: time.Now},
		guard: guard, now: time.Now}
}

// Register declares the routes of /media under base. SPEC §6: the Media Library is open to all
// signed-in users.
func (s *Service) Register(mux api.Mux, base string) {
	mux.Handle("POST "+base+"/media/uploads", s.guard.Require("", s.requestUpload))
	mux.Handle("POST "+base+"/media", s.guard.Require("", s.confirm))
	mux.Handle("GET "+base+"/media", s.guard.Require("", s.list))
	mux.Handle("PATCH "+base+"/media/{id}", s.guard.Require("", s.patchDetails))
	mux.Handle("DELETE "+base+"/media/{id}", s.guard.Require("", s.remove))
}

// uploadTicket is the answer to an upload request: where and how to post the file, and the key
// to confirm afterwards.
type uploadTicket struct {
	URL       string            `json:"url"`
	Fields    map[string]string `json:"fields"`
	Key       string            `json:"key"`
	ExpiresAt time.Time         `json:"expiresAt"`
}

func (s *Service) requestUpload(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name     string `json:"name"`
		Size     int64  `json:"size"`
		MimeType string `json:"mimeType"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	name, err := displayName(in.Name)
	if err != nil {
		return err
	}
	if len(in.MimeType) > maxMimeLen {
		// Bounded before it is parsed, stored in the pending record or signed into a policy.
		return api.FieldError(http.StatusBadRequest, "mimeType", "The file type is not valid.")
	}
	switch {
	case in.Size > MaxSize:
		return errTooLarge
	case in.Size <= 0:
		return errEmpty
	}
	mt, err := acceptedType(in.MimeType)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	scope := caller.Scope
	q, plan, err := quotaOf(caller.Tenant.PlanID)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	id := ids.New()
	key := mediaref.UploadKey(scope, id, mediaref.SafeName(name))
	expires := now.Add(postExpiry)
	post, err := s.objects.Presign(r.Context(), PostPolicy{Key: key, ContentType: mt, MinSize: 1, MaxSize: MaxSize, Expires: expires})
	if err != nil {
		return err
	}
	err = s.records.PutPending(r.Context(), scope, pendingUpload{PK: scope.Collection(kindUpload), SK: id, Name: name, Key: key,
		MimeType: mt, Size: in.Size, CreatedAt: now, ExpiresAt: now.Add(pendingExpiry)}, q)
	if err != nil {
		return quotaRefusal(err, plan)
	}
	return api.OK(w, uploadTicket{URL: post.URL, Fields: post.Fields, Key: key, ExpiresAt: expires})
}

// acceptedType is a declared MIME type's base type, or the refusal of a type the library does
// not take (script-capable images and the like).
func acceptedType(declared string) (string, error) {
	mt := baseType(declared)
	if mt == "" {
		mt = "application/octet-stream"
	}
	if !AcceptableType(mt) {
		if strings.HasPrefix(mt, "image/") {
			return "", api.Errorf(http.StatusUnsupportedMediaType, "SVG and other script-capable images are not accepted. Please upload a PNG, JPEG, GIF or WebP image.")
		}
		return "", api.Errorf(http.StatusUnsupportedMediaType, "This file type is not accepted.")
	}
	return mt, nil
}

// confirm turns an uploaded object into a media record. Browsers post to uploads/{tenant}/...,
// which is never served; only after the real size and first bytes pass is the object copied to
// media/{tenant}/... (served under /media/*) and the upload removed. An image is not copied but
// written there as read and checked, without its metadata (cleanImage); the record and the bytes
// counter take the stored size, in the confirmation's one transaction. Uploading straight to the
// served key would publish a file before it is checked (the local emulator enforces no policy at
// all), and an abandoned upload would stay public; under uploads/ a lifecycle rule expires it.
func (s *Service) confirm(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Key  string `json:"key"`
		Name string `json:"name"`
		detailsInput
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	var details Details
	if err := in.detailsInput.apply(&details); err != nil {
		return err
	}
	item, err := s.confirmUpload(r.Context(), auth.CallerFrom(r.Context()), in.Key, in.Name, details)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: item, Message: MsgUploaded})
}

// confirmUpload checks the uploaded object at key and makes it a media record named name (the
// pending upload's name when empty), with details.
func (s *Service) confirmUpload(ctx context.Context, caller *auth.Caller, key, rename string, details Details) (Item, error) {
	scope := caller.Scope
	q, plan, err := quotaOf(caller.Tenant.PlanID)
	if err != nil {
		return Item{}, err
	}
	id, safe, ok := mediaref.ParseUploadKey(scope, key)
	if !ok {
		return Item{}, mediaref.ErrForeignKey
	}
	pending, err := s.records.GetPending(ctx, scope, id)
	if store.IsNotFound(err) || (err == nil && pending.Key != key) {
		return Item{}, errUnknownLoad
	}
	if err != nil {
		return Item{}, err
	}
	if !pending.ExpiresAt.After(s.now()) {
		// No longer held in the quota: its file and record go.
		return Item{}, s.refuse(ctx, scope, pending, errUnknownLoad)
	}
	name := pending.Name
	if strings.TrimSpace(rename) != "" {
		if name, err = displayName(rename); err != nil {
			return Item{}, err
		}
	}
	size, err := s.objects.Size(ctx, key)
	if store.IsNotFound(err) {
		return Item{}, errNotUploaded
	}
	if err != nil {
		return Item{}, err
	}
	switch {
	case size > MaxSize:
		return Item{}, s.refuse(ctx, scope, pending, errTooLarge)
	case size == 0:
		return Item{}, s.refuse(ctx, scope, pending, errEmpty)
	}
	head, err := s.objects.Head(ctx, key, sniffBytes)
	if store.IsNotFound(err) {
		return Item{}, errNotUploaded
	}
	if err != nil {
		return Item{}, err
	}
	if !ContentMatches(pending.MimeType, head) {
		return Item{}, s.refuse(ctx, scope, pending, errMismatch)
	}
	ref := id + "/" + safe
	var shown imaging.Size
	stripped := 0
	if MediaTypeOf(pending.MimeType) == TypeImage {
		// An image is stored as the bytes checked, without their metadata (the public API links
		// originals): its GPS position never reaches the served key. Its size is what is stored.
		var clean []byte
		clean, shown, err = s.cleanImage(ctx, key)
		if err == nil && !ContentMatches(pending.MimeType, clean) {
			err = errMismatch // the upload was replaced since its first bytes were read
		}
		if err != nil {
			var refused *api.Error
			if errors.As(err, &refused) {
				return Item{}, s.refuse(ctx, scope, pending, refused)
			}
			return Item{}, err
		}
		if err := s.objects.Put(ctx, mediaref.ObjectKey(scope, ref), pending.MimeType, CacheControl, clean); err != nil {
			return Item{}, err
		}
		if err := s.objects.Delete(ctx, key); err != nil {
			return Item{}, err
		}
		size, stripped = int64(len(clean)), strippedVersion
	} else if err := s.objects.Promote(ctx, key, mediaref.ObjectKey(scope, ref), pending.MimeType); err != nil {
		return Item{}, err
	}
	now := s.now().UTC()
	// mediaType comes from the declared type once the bytes have been checked against it: the
	// sniffer cannot tell a .docx from any zip, SPEC §5 needs that difference.
	item := Item{ID: id, Name: name, FileURL: ref, FileSize: size, MimeType: pending.MimeType,
		MediaType: MediaTypeOf(pending.MimeType), Width: shown.Width, Height: shown.Height, Stripped: stripped,
		Alt: details.Alt, Caption: details.Caption, Decorative: details.Decorative, CreatedAt: now, UpdatedAt: now}
	if err := s.records.Confirm(ctx, caller, item, pending, q); err != nil {
		var over quotaExceeded
		switch {
		case errors.As(err, &over):
			// Settled by the real size: past the quota, the file and its upload go.
			_ = s.objects.Delete(context.WithoutCancel(ctx), mediaref.ObjectKey(scope, ref))
			_ = s.records.DeletePending(context.WithoutCancel(ctx), scope, pending)
			return Item{}, quotaRefusal(err, plan)
		case errors.Is(err, store.ErrConflict):
			return Item{}, errUnknownLoad
		}
		_ = s.objects.Delete(context.WithoutCancel(ctx), mediaref.ObjectKey(scope, ref))
		return Item{}, err
	}
	if s.deriveInBackground != nil && item.MediaType == TypeImage {
		s.deriveInBackground(scope, id)
	}
	return item, nil
}

// refuse deletes a refused upload and its pending record, then returns why.
func (s *Service) refuse(ctx context.Context, scope store.Scope, p pendingUpload, why *api.Error) error {
	ctx = context.WithoutCancel(ctx)
	if err := s.objects.Delete(ctx, p.Key); err != nil {
		return err
	}
	if err := s.records.DeletePending(ctx, scope, p); err != nil {
		return err
	}
	return why
}

func displayName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	switch {
	case name == "":
		return "", api.BadRequest(map[string]string{"name": "Name is required!"})
	case len([]rune(name)) > maxNameChars:
		return "", api.BadRequest(map[string]string{"name": "Name must be at most 255 characters!"})
	}
	return name, nil
}

// sortFields are the columns the library sorts by; fileSize only while the library is small
// (listing.SortAllMax), the others through the indexes.
var sortFields = map[string]bool{"createdAt": true, "updatedAt": true, "name": true, "fileSize": true}

// list answers GET /media?page=1&limit=20&search=...&mediaType=IMAGE&sort=createdAt&order=desc,
// newest first by default, with the total count of matches, through the shared listing.
func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	lq, err := api.ParseListQuery(r, "createdAt", func(field string) bool { return sortFields[field] })
	if err != nil {
		return err
	}
	req := listing.Request{Scope: auth.CallerFrom(r.Context()).Scope, NameAttr: "name", Sort: lq.Sort, Desc: lq.Desc,
		Search: lq.Search, Words: true, Page: lq.Page, Limit: lq.Limit, Cursor: lq.Cursor}
	if kind := strings.ToUpper(r.URL.Query().Get("mediaType")); kind != "" {
		req.Facet = Item{MediaType: kind}.facet()
		req.FacetFilter = func(rec map[string]any) bool { return rec["mediaType"] == kind }
	}
	res, err := s.records.List(r.Context(), req)
	if err != nil {
		return err
	}
	out, err := listing.NewPage(req, res, func(raw dynamo.Item) (Item, error) {
		var it Item
		return it, dynamo.UnmarshalItem(raw, &it)
	})
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, out)
}

func (s *Service) remove(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	scope := auth.CallerFrom(ctx).Scope
	id := r.PathValue("id")
	if !ids.Valid(id) {
		// Never a key: a malformed or overlong id cannot name a record.
		return api.ErrNotFound
	}
	it, err := s.records.Get(ctx, scope, id)
	if err != nil {
		return err
	}
	// A file still shown somewhere is deleted only when asked again with ?force=1 (usage.go).
	if r.URL.Query().Get("force") != "1" {
		uses, err := s.usedBy(ctx, scope, id)
		if err != nil {
			return err
		}
		if len(uses) > 0 {
			return writeInUse(w, uses)
		}
	}
	// The files (original and variants) move to the trash first (no longer served): if the
	// record's move then fails, a retry still finds the record, and a file already moved is no error.
	if err := s.moveFiles(ctx, it, mediaref.ObjectKey, mediaref.TrashKey, scope); err != nil {
		return err
	}
	if err := s.records.Delete(ctx, auth.CallerFrom(ctx), it); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]string{"id": id}, Message: MsgDeleted})
}

// moveFiles moves every file of a record (original and variants) from one key layout to the
// other; a file already moved is no error.
func (s *Service) moveFiles(ctx context.Context, it Item, from, to func(store.Scope, string) string, scope store.Scope) error {
	for _, ref := range it.files() {
		if err := s.objects.Move(ctx, from(scope, ref), to(scope, ref)); err != nil && !store.IsNotFound(err) {
			return err
		}
	}
	return nil
}
