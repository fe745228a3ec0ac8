package media

import (
	"context"
	"encoding/json"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// Partitions of the tenant holding media records and pending (unconfirmed) uploads.
const (
	kindMedia  = mediaref.RecordPartition
	kindUpload = "upload"
)

// Item is a media record (SPEC §3 media item). FileURL is the object's key relative to the
// tenant's objectUrlPrefix: "{ulid}/{safe-name}".
type Item struct {
	PK        string `dynamo:"PK,hash" json:"-"`
	SK        string `dynamo:"SK,range" json:"-"`
	ID        string `dynamo:"id" json:"id"`
	Name      string `dynamo:"name" json:"name"`
	FileURL   string `dynamo:"fileUrl" json:"fileUrl"`
	FileSize  int64  `dynamo:"fileSize" json:"fileSize"`
	MimeType  string `dynamo:"mimeType" json:"mimeType"`
	MediaType string `dynamo:"mediaType" json:"mediaType"`
	// Width and Height are an image's size as shown (EXIF orientation applied), read at upload.
	Width  int `dynamo:"width,omitempty" json:"width,omitempty"`
	Height int `dynamo:"height,omitempty" json:"height,omitempty"`
	// Variants are an image's resized copies, smallest first, once they are made (variants.go);
	// until then readers use the original.
	Variants []Variant `dynamo:"variants,omitempty" json:"variants,omitempty"`
	// Stripped is the version of metadata stripping (imaging.Strip) the stored original has been
	// through: strippedVersion since confirmation strips it, 0 for an image recorded before
	// (StripMetadata's one-off job does those) or restored from the trash.
	Stripped int `dynamo:"stripped,omitempty" json:"-"`
	// Alt is an image's text alternative and Caption its caption, when they were given (an
	// import brings them along; Details).
	Alt     string `dynamo:"altText,omitempty" json:"altText,omitempty"`
	Caption string `dynamo:"caption,omitempty" json:"caption,omitempty"`
	// Decorative marks an image that adds nothing to the text around it: the website gives it
	// an empty text alternative (alt=""), and the accessibility check asks it for none.
	Decorative bool      `dynamo:"decorative,omitempty" json:"decorative"`
	CreatedAt  time.Time `dynamo:"createdAt" json:"createdAt"`
	UpdatedAt  time.Time `dynamo:"updatedAt" json:"updatedAt"`
}

// Variant is one resized copy of an image: its size and its reference ("{ulid}/w/{width}.{ext}",
// relative to the tenant's objectUrlPrefix like FileURL).
type Variant struct {
	Width   int    `dynamo:"width" json:"width"`
	Height  int    `dynamo:"height" json:"height"`
	FileURL string `dynamo:"fileUrl" json:"fileUrl"`
}

// files are the references of every object of the record: the original, then its variants.
func (it Item) files() []string {
	out := []string{it.FileURL}
	for _, v := range it.Variants {
		out = append(out, v.FileURL)
	}
	return out
}

// facet is the sparse-index facet of a media record: its media type, so a library filtered to
// images pages through GSI3 like an unfiltered one.
func (it Item) facet() string { return "TYPE#" + it.MediaType }

// mediaKind is the media library's records as the engine records their writes (collections.Kind):
// found by name, listed by name and time, one facet per media type (the picker's images), their
// trash entry keeping the record as the API shows it.
var mediaKind = collections.Kind{
	Collection: &collections.Collection{Key: Kind, Title: "Media", TitlePlural: "Media", NameField: "name", Fields: []collections.Field{
		{Name: "name", Label: "Name", Type: collections.TypeText}, {Name: "fileUrl", Label: "File", Type: collections.TypeText},
		{Name: "fileSize", Label: "File Size", Type: collections.TypeNumber}, {Name: "mimeType", Label: "MIME Type", Type: collections.TypeText},
		{Name: "mediaType", Label: "Media Type", Type: collections.TypeText}, {Name: "width", Label: "Width", Type: collections.TypeNumber},
		{Name: "height", Label: "Height", Type: collections.TypeNumber}, {Name: "variants", Label: "Variants", Type: collections.TypeJSON},
		{Name: "altText", Label: "Alt text", Type: collections.TypeText}, {Name: "caption", Label: "Caption", Type: collections.TypeText},
		{Name: "decorative", Label: "Decorative", Type: collections.TypeBoolean}}},
	FacetOf: func(rec collections.Record) string {
		t, _ := rec["mediaType"].(string)
		return "TYPE#" + t
	},
}

// RecordKind is the media library's records as the engine records their writes (the tenant
// ops' reindex writes their words and name keys again from it).
func RecordKind() collections.Kind { return mediaKind }

// record is the item as the engine reads a stored record: the API's view, at version 1 (media
// records are never edited, so their one kept state, in the trash, is version 1).
func (it Item) record() (collections.Record, error) {
	rec, err := it.state()
	if err != nil {
		return nil, err
	}
	rec["version"] = trashedVersion
	return rec, nil
}

// effects are the side effects of a write of the record as caller (collections.SideEffects):
// created (restoredFrom: back from the trash) or deleted.
func (it Item) effects(ctx context.Context, st *store.Store, caller *auth.Caller, action string, restoredFrom int) (collections.Effects, error) {
	rec, err := it.record()
	if err != nil {
		return collections.Effects{}, err
	}
	ch := collections.Change{Caller: caller, Kind: mediaKind, Action: action, After: rec, RestoredFrom: restoredFrom}
	if action == collections.ActionDelete {
		ch.Before, ch.After = rec, nil
	}
	return collections.SideEffects(ctx, st, ch)
}

// stored is the item as written: the record plus its index attributes (fx's).
func (it Item) stored(fx collections.Effects) map[string]any {
	item, err := dynamo.MarshalItem(it)
	if err != nil {
		panic("media: marshal item: " + err.Error()) // a plain struct of strings, numbers and times
	}
	var out map[string]any
	if err := dynamo.UnmarshalItem(item, &out); err != nil {
		panic("media: unmarshal item: " + err.Error())
	}
	return fx.Stored(out)
}

// pendingUpload is what an upload request promised: it lets confirmation know the declared type
// and name, makes an upload confirmable once, and expires (TTL) with the unconfirmed object.
type pendingUpload struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	Name      string    `dynamo:"name"`
	Key       string    `dynamo:"key"`
	MimeType  string    `dynamo:"mimeType"`
	Size      int64     `dynamo:"size"`
	CreatedAt time.Time `dynamo:"createdAt"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

// Records is the media group's store access.
type Records interface {
	// PutPending records an upload request if its declared size fits the quota (quota.go):
	// quotaExceeded otherwise.
	PutPending(ctx context.Context, scope store.Scope, p pendingUpload, q quota) error
	GetPending(ctx context.Context, scope store.Scope, id string) (pendingUpload, error)
	// DeletePending removes an upload request, giving back what it held of the quota.
	DeletePending(ctx context.Context, scope store.Scope, p pendingUpload) error
	// Confirm stores the record as caller and removes its pending upload p in one transaction
	// with what records it (its counters, words and audit entry), if its real size fits the quota
	// (quotaExceeded otherwise); ErrConflict if the upload was already confirmed or has expired.
	Confirm(ctx context.Context, caller *auth.Caller, it Item, p pendingUpload, q quota) error
	Get(ctx context.Context, scope store.Scope, id string) (Item, error)
	List(ctx context.Context, req listing.Request) (listing.Result, error)
	// Delete moves the record to the trash as caller: it leaves the library and its counters, and
	// its trash entry and audit entry are written, in one transaction.
	Delete(ctx context.Context, caller *auth.Caller, it Item) error
	// Restore brings a record back from the trash (its entry at version 1) as caller, in one
	// transaction with its counters, the entry's removal and the audit entry, if its size fits
	// the quota (quotaExceeded otherwise: a downgraded plan refuses restores past it like uploads).
	Restore(ctx context.Context, caller *auth.Caller, it Item, q quota) error
	// SetVariants lists an image's variants and size on its record, if the record is still there
	// with the same file (store.ErrNotFound otherwise).
	SetVariants(ctx context.Context, scope store.Scope, it Item, width, height int, vs []Variant) error
	// SetStripped records that the original of it was stripped of its metadata and is now size
	// bytes: the record's fileSize and the library's bytes counter move by the difference, in one
	// transaction, if the record is still there with the same file and size (store.ErrNotFound
	// otherwise).
	SetStripped(ctx context.Context, scope store.Scope, it Item, size int64) error
	// Store is the table, for reads of the trash.
	Store() *store.Store
}

// dynamoRecords implements Records with guregu/dynamo on the shared table.
type dynamoRecords struct{ st *store.Store }

var _ Records = dynamoRecords{}

func (d dynamoRecords) PutPending(ctx context.Context, scope store.Scope, p pendingUpload, q quota) error {
	err := d.checked(ctx, scope, q, need{held: p.Size, uploads: 1}, 1, func(counter *dynamo.Update) *dynamo.WriteTx {
		return d.st.WriteTx().Put(d.st.Table.Put(p)).Update(counter)
	})
	return store.Wrap("put pending upload", err)
}

func (d dynamoRecords) GetPending(ctx context.Context, scope store.Scope, id string) (pendingUpload, error) {
	var p pendingUpload
	err := d.st.Get(ctx, store.Key{PK: scope.Collection(kindUpload), SK: id}, &p)
	return p, err
}

func (d dynamoRecords) DeletePending(ctx context.Context, scope store.Scope, p pendingUpload) error {
	err := d.st.WriteTx().Delete(d.removePending(scope, p.SK)).Update(bytesCounter(d.st, scope, need{held: -p.Size, uploads: -1})).Run(ctx)
	if store.CondFailedAt(err, 0) {
		// Expired (no longer held) or gone: only the record goes.
		err = d.st.Table.Delete("PK", scope.Collection(kindUpload)).Range("SK", p.SK).Run(ctx)
	}
	return store.Wrap("delete pending upload", err)
}

// removePending deletes an upload request that is there and has not expired: what holds it in
// the quota's held bytes.
func (d dynamoRecords) removePending(scope store.Scope, id string) *dynamo.Delete {
	return d.st.Table.Delete("PK", scope.Collection(kindUpload)).Range("SK", id).
		If("attribute_exists(PK) AND $ > ?", "expiresAt", time.Now().Unix())
}

func (d dynamoRecords) Confirm(ctx context.Context, caller *auth.Caller, it Item, p pendingUpload, q quota) error {
	fx, err := it.effects(ctx, d.st, caller, collections.ActionCreate, 0)
	if err != nil {
		return err
	}
	// The bytes counter's update is item 1 (addRecordWith): the real size replaces the declared
	// one in held.
	n := need{used: it.FileSize, held: it.FileSize - p.Size, uploads: -1}
	err = d.checked(ctx, caller.Scope, q, n, 1, func(counter *dynamo.Update) *dynamo.WriteTx {
		tx := addRecordWith(d.st.WriteTx(), d.st, caller.Scope, it, counter, fx)
		return tx.Delete(d.removePending(caller.Scope, it.ID))
	})
	return store.Wrap("confirm media", err)
}

// addRecordWith is the transaction that adds a media record: the item with its index attributes
// (first, put only if absent), the library's bytes (second: bytes, a confirmation's checked), then
// what records it (fx: its counters, words and audit entry).
func addRecordWith(tx *dynamo.WriteTx, st *store.Store, scope store.Scope, it Item, bytes *dynamo.Update, fx collections.Effects) *dynamo.WriteTx {
	it.PK, it.SK = scope.Collection(kindMedia), it.ID
	tx.Put(st.Table.Put(it.stored(fx)).If("attribute_not_exists(PK)")).Update(bytes)
	fx.AddTo(st, scope, tx)
	return tx
}

// Add records a file a tool placed in the bucket itself (the demo content, tests) as the
// library's confirmation does, by the operator's tool, only if the record is not there yet:
// created is false when it was.
func Add(ctx context.Context, st *store.Store, scope store.Scope, it Item) (created bool, err error) {
	caller := auth.OperatorCaller(scope)
	fx, err := it.effects(ctx, st, caller, collections.ActionCreate, 0)
	if err != nil {
		return false, err
	}
	err = addRecordWith(st.WriteTx(), st, scope, it, bytesCounter(st, scope, need{used: it.FileSize, held: it.FileSize}), fx).Run(ctx)
	if store.CondFailedAt(err, 0) {
		return false, nil
	}
	return err == nil, store.Wrap("add media "+it.Name, err)
}

func (d dynamoRecords) Get(ctx context.Context, scope store.Scope, id string) (Item, error) {
	var it Item
	err := d.st.Get(ctx, store.Key{PK: scope.Collection(kindMedia), SK: id}, &it)
	return it, err
}

// List answers one page of the library through the shared listing.
func (d dynamoRecords) List(ctx context.Context, req listing.Request) (listing.Result, error) {
	req.Kind = kindMedia
	return listing.Lister{St: d.st}.List(ctx, req)
}

// Kind is the trash and audit log's name for media records.
const Kind = "media"

// Delete moves the record to the trash: its item goes, and what records a delete comes
// (collections.SideEffects: its trash entry, a kept version, its counters and words, its audit
// entry), with the library's bytes, in one transaction.
func (d dynamoRecords) Delete(ctx context.Context, caller *auth.Caller, it Item) error {
	scope := caller.Scope
	fx, err := it.effects(ctx, d.st, caller, collections.ActionDelete, 0)
	if err != nil {
		return err
	}
	tx := d.st.WriteTx().
		Delete(d.st.Table.Delete("PK", scope.Collection(kindMedia)).Range("SK", it.ID).If("attribute_exists(PK)")).
		Update(bytesCounter(d.st, scope, need{used: -it.FileSize, held: -it.FileSize}))
	fx.AddTo(d.st, scope, tx)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return store.Wrap("delete media", dynamo.ErrNotFound)
	}
	return store.Wrap("delete media", err)
}

// Restore puts the record back with what records it (as a create restored from its trash
// version) and takes its trash entry out, in one transaction; errNotInTrash (the entry's
// condition) when another restore or a purge came first.
func (d dynamoRecords) Restore(ctx context.Context, caller *auth.Caller, it Item, q quota) error {
	scope, now := caller.Scope, time.Now()
	fx, err := it.effects(ctx, d.st, caller, collections.ActionCreate, trashedVersion)
	if err != nil {
		return err
	}
	untrash, gone := collections.Untrash(d.st, scope, Kind, it.ID, trashedVersion, now)
	// The trash entry first: its condition is item 0, the record's (already there) item 1, the
	// checked bytes counter item 2 (addRecordWith's second).
	err = d.checked(ctx, scope, q, need{used: it.FileSize, held: it.FileSize}, 2, func(counter *dynamo.Update) *dynamo.WriteTx {
		return addRecordWith(d.st.WriteTx().Update(untrash), d.st, scope, it, counter, fx)
	})
	switch {
	case store.CondFailedAt(err, 0):
		return gone
	case store.CondFailedAt(err, 1):
		return api.ErrConflict
	}
	return store.Wrap("restore media", err)
}

func (d dynamoRecords) Store() *store.Store { return d.st }

func (d dynamoRecords) SetVariants(ctx context.Context, scope store.Scope, it Item, width, height int, vs []Variant) error {
	err := d.st.Table.Update("PK", scope.Collection(kindMedia)).Range("SK", it.ID).
		Set("variants", vs).Set("width", width).Set("height", height).
		If("attribute_exists(PK) AND fileUrl = ?", it.FileURL).Run(ctx)
	if dynamo.IsCondCheckFailed(err) {
		return store.Wrap("set media variants", dynamo.ErrNotFound)
	}
	return store.Wrap("set media variants", err)
}

func (d dynamoRecords) SetStripped(ctx context.Context, scope store.Scope, it Item, size int64) error {
	tx := d.st.WriteTx().Update(d.st.Table.Update("PK", scope.Collection(kindMedia)).Range("SK", it.ID).
		Set("fileSize", size).Set("stripped", strippedVersion).
		If("attribute_exists(PK) AND fileUrl = ? AND fileSize = ?", it.FileURL, it.FileSize))
	if delta := size - it.FileSize; delta != 0 {
		// Stripping only shrinks a file: room is freed, so the update needs no quota check.
		tx = tx.Update(bytesCounter(d.st, scope, need{used: delta, held: delta}))
	}
	err := tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return store.Wrap("record stripped media", dynamo.ErrNotFound)
	}
	return store.Wrap("record stripped media", err)
}

// state is the record as its trash entry keeps it.
func (it Item) state() (collections.Record, error) {
	raw, err := json.Marshal(it)
	if err != nil {
		return nil, err
	}
	var out collections.Record
	return out, json.Unmarshal(raw, &out)
}
