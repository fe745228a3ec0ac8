package media

import (
	"context"
	"encoding/json"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
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
	Stripped  int       `dynamo:"stripped,omitempty" json:"-"`
	CreatedAt time.Time `dynamo:"createdAt" json:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt" json:"updatedAt"`
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

// stored is the item as written: the record plus its listing index attributes.
func (it Item) stored(scope store.Scope) map[string]any {
	item, err := dynamo.MarshalItem(it)
	if err != nil {
		panic("media: marshal item: " + err.Error()) // a plain struct of strings, numbers and times
	}
	var out map[string]any
	if err := dynamo.UnmarshalItem(item, &out); err != nil {
		panic("media: unmarshal item: " + err.Error())
	}
	for k, v := range listing.Attributes(listing.Record{Partition: scope.Collection(kindMedia), ID: it.ID,
		UpdatedAt: it.UpdatedAt, Name: it.Name, Facet: it.facet()}) {
		out[k] = v
	}
	return out
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
	// Confirm stores the record and removes its pending upload p in one transaction, if its real
	// size fits the quota (quotaExceeded otherwise); ErrConflict if the upload was already
	// confirmed or has expired.
	Confirm(ctx context.Context, scope store.Scope, it Item, p pendingUpload, q quota) error
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

func (d dynamoRecords) Confirm(ctx context.Context, scope store.Scope, it Item, p pendingUpload, q quota) error {
	// The bytes counter's update is item 3 (addRecordWith): the real size replaces the declared
	// one in held.
	n := need{used: it.FileSize, held: it.FileSize - p.Size, uploads: -1}
	err := d.checked(ctx, scope, q, n, 3, func(counter *dynamo.Update) *dynamo.WriteTx {
		return addRecordWith(d.st.WriteTx(), d.st, scope, it, counter).Delete(d.removePending(scope, it.ID))
	})
	return store.Wrap("confirm media", err)
}

// addRecord is the transaction that adds a media record: the item with its index attributes
// (first, put only if absent), its two counters and the library's bytes (fourth).
func addRecord(tx *dynamo.WriteTx, st *store.Store, scope store.Scope, it Item) *dynamo.WriteTx {
	return addRecordWith(tx, st, scope, it, bytesCounter(st, scope, need{used: it.FileSize, held: it.FileSize}))
}

// addRecordWith is addRecord with the bytes counter's update given (a confirmation's is checked).
func addRecordWith(tx *dynamo.WriteTx, st *store.Store, scope store.Scope, it Item, bytes *dynamo.Update) *dynamo.WriteTx {
	it.PK, it.SK = scope.Collection(kindMedia), it.ID
	tx.Put(st.Table.Put(it.stored(scope)).If("attribute_not_exists(PK)")).
		Update(st.AddToCounter(scope, kindMedia, 1)).
		Update(st.AddToCounter(scope, listing.CounterName(kindMedia, it.facet()), 1)).
		Update(bytes)
	return addWords(tx, st, scope, it, nil, words.Of(it.Name))
}

// addWords queues the word index's changes of a media record (the library's search by name).
func addWords(tx *dynamo.WriteTx, st *store.Store, scope store.Scope, it Item, before, after []string) *dynamo.WriteTx {
	store.AddToTx(tx, listing.WordChanges(st.Table, scope.Collection(kindMedia), it.ID, before, after)...)
	return tx
}

// Add records a file a tool placed in the bucket itself (the demo content) as the library's
// confirmation does, only if the record is not there yet: created is false when it was.
func Add(ctx context.Context, st *store.Store, scope store.Scope, it Item) (created bool, err error) {
	err = addRecord(st.WriteTx(), st, scope, it).Run(ctx)
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

// Delete moves the record to the trash: its item and counters go, its trash entry (a kept version)
// and audit entry come, in one transaction.
func (d dynamoRecords) Delete(ctx context.Context, caller *auth.Caller, it Item) error {
	scope, now := caller.Scope, time.Now()
	state, err := it.state()
	if err != nil {
		return err
	}
	entry, err := collections.VersionItem(scope, Kind, it.ID, 1, state,
		collections.Replaced{At: now, By: caller.User, Action: collections.ActionDelete, Trash: true, Title: it.Name})
	if err != nil {
		return err
	}
	tx := d.st.WriteTx().
		Delete(d.st.Table.Delete("PK", scope.Collection(kindMedia)).Range("SK", it.ID).If("attribute_exists(PK)")).
		Update(d.st.AddToCounter(scope, kindMedia, -1)).
		Update(d.st.AddToCounter(scope, listing.CounterName(kindMedia, it.facet()), -1)).
		Update(bytesCounter(d.st, scope, need{used: -it.FileSize, held: -it.FileSize})).
		Put(d.st.Table.Put(entry)).
		Put(d.st.Table.Put(audit.Item(scope, collections.AuditEntry(caller, now, collections.ActionDelete, Kind, it.ID))))
	err = addWords(tx, d.st, scope, it, words.Of(it.Name), nil).Run(ctx)
	if store.CondFailedAt(err, 0) {
		return store.Wrap("delete media", dynamo.ErrNotFound)
	}
	return store.Wrap("delete media", err)
}

// Restore puts the record back with its counters and takes its trash entry out, in one
// transaction; errNotInTrash (the entry's condition) when another restore or a purge came first.
func (d dynamoRecords) Restore(ctx context.Context, caller *auth.Caller, it Item, q quota) error {
	scope, now := caller.Scope, time.Now()
	untrash, gone := collections.Untrash(d.st, scope, Kind, it.ID, 1, now)
	// The trash entry first: its condition is item 0, the record's (already there) item 2, the
	// checked bytes counter item 5 (addRecordWith's fourth).
	err := d.checked(ctx, scope, q, need{used: it.FileSize, held: it.FileSize}, 5, func(counter *dynamo.Update) *dynamo.WriteTx {
		tx := d.st.WriteTx().Update(untrash).
			Put(d.st.Table.Put(audit.Item(scope, collections.AuditEntry(caller, now, collections.ActionRestore, Kind, it.ID))))
		return addRecordWith(tx, d.st, scope, it, counter)
	})
	switch {
	case store.CondFailedAt(err, 0):
		return gone
	case store.CondFailedAt(err, 2):
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
