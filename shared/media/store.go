package media

import (
	"context"
	"time"

	"github.com/guregu/dynamo/v2"

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
	PK        string    `dynamo:"PK,hash" json:"-"`
	SK        string    `dynamo:"SK,range" json:"-"`
	ID        string    `dynamo:"id" json:"id"`
	Name      string    `dynamo:"name" json:"name"`
	FileURL   string    `dynamo:"fileUrl" json:"fileUrl"`
	FileSize  int64     `dynamo:"fileSize" json:"fileSize"`
	MimeType  string    `dynamo:"mimeType" json:"mimeType"`
	MediaType string    `dynamo:"mediaType" json:"mediaType"`
	CreatedAt time.Time `dynamo:"createdAt" json:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt" json:"updatedAt"`
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
	PutPending(ctx context.Context, p pendingUpload) error
	GetPending(ctx context.Context, scope store.Scope, id string) (pendingUpload, error)
	DeletePending(ctx context.Context, scope store.Scope, id string) error
	// Confirm stores the record and removes its pending upload in one transaction; ErrConflict
	// if the upload was already confirmed.
	Confirm(ctx context.Context, scope store.Scope, it Item) error
	Get(ctx context.Context, scope store.Scope, id string) (Item, error)
	List(ctx context.Context, scope store.Scope) ([]Item, error)
	Delete(ctx context.Context, scope store.Scope, id string) error
}

// dynamoRecords implements Records with guregu/dynamo on the shared table.
type dynamoRecords struct{ st *store.Store }

var _ Records = dynamoRecords{}

func (d dynamoRecords) PutPending(ctx context.Context, p pendingUpload) error {
	return store.Wrap("put pending upload", d.st.Table.Put(p).Run(ctx))
}

func (d dynamoRecords) GetPending(ctx context.Context, scope store.Scope, id string) (pendingUpload, error) {
	var p pendingUpload
	err := d.st.Get(ctx, store.Key{PK: scope.Collection(kindUpload), SK: id}, &p)
	return p, err
}

func (d dynamoRecords) DeletePending(ctx context.Context, scope store.Scope, id string) error {
	return store.Wrap("delete pending upload", d.st.Table.Delete("PK", scope.Collection(kindUpload)).Range("SK", id).Run(ctx))
}

func (d dynamoRecords) Confirm(ctx context.Context, scope store.Scope, it Item) error {
	it.PK, it.SK = scope.Collection(kindMedia), it.ID
	err := d.st.DB.WriteTx().
		Put(d.st.Table.Put(it).If("attribute_not_exists(PK)")).
		Delete(d.st.Table.Delete("PK", scope.Collection(kindUpload)).Range("SK", it.ID).If("attribute_exists(PK)")).
		Run(ctx)
	return store.Wrap("confirm media", err)
}

func (d dynamoRecords) Get(ctx context.Context, scope store.Scope, id string) (Item, error) {
	var it Item
	err := d.st.Get(ctx, store.Key{PK: scope.Collection(kindMedia), SK: id}, &it)
	return it, err
}

// List returns every media record of the tenant, newest first. A media library stays in the
// hundreds to low thousands of items per tenant; search and paging happen in memory.
func (d dynamoRecords) List(ctx context.Context, scope store.Scope) ([]Item, error) {
	var items []Item
	err := d.st.Table.Get("PK", scope.Collection(kindMedia)).Order(dynamo.Descending).All(ctx, &items)
	return items, store.Wrap("list media", err)
}

func (d dynamoRecords) Delete(ctx context.Context, scope store.Scope, id string) error {
	err := d.st.Table.Delete("PK", scope.Collection(kindMedia)).Range("SK", id).If("attribute_exists(PK)").Run(ctx)
	if dynamo.IsCondCheckFailed(err) {
		return store.Wrap("delete media", dynamo.ErrNotFound)
	}
	return store.Wrap("delete media", err)
}
