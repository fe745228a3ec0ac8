package audit

import (
	"context"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// Filter narrows the log: by user, collection, action and time (From and To inclusive; zero
// means open).
type Filter struct {
	UserID, Collection, Action string
	From, To                   time.Time
}

// ErrBadCursor is a cursor this package did not make.
var ErrBadCursor = api.FieldError(http.StatusBadRequest, "cursor", "The cursor is not valid; start from the first page.")

// View is an entry as the Audit Log screen and its export show it.
type View = item

// maxScan bounds the entries one page examines when a second filter narrows the first one's
// index in memory (by user and by action, say): the page may then come back short, with a
// cursor to go on.
const maxScan = 1000

// List reads one page of the log, newest first, from the index of its most selective filter
// (user, then collection, then action, else the whole log), over the time range as a key
// condition: a page costs the same whatever the log holds. cursor continues a previous page.
func List(ctx context.Context, st *store.Store, scope store.Scope, f Filter, limit int, cursor string) ([]View, string, error) {
	hash, rangeAttr, index, hashValue := "PK", "SK", "", partition(scope)
	switch {
	case f.UserID != "":
		hash, rangeAttr, index, hashValue = "GSI1PK", "GSI1SK", "GSI1", partition(scope, "USER", f.UserID)
	case f.Collection != "":
		hash, rangeAttr, index, hashValue = "GSI2PK", "GSI2SK", "GSI2", partition(scope, "COLL", f.Collection)
	case f.Action != "":
		hash, rangeAttr, index, hashValue = "GSI3PK", "GSI3SK", "GSI3", partition(scope, "ACT", f.Action)
	}
	q := st.Table.Get(hash, hashValue).Order(dynamo.Descending).Limit(limit).SearchLimit(maxScan)
	if index != "" {
		q.Index(index)
	}
	lo, hi := "0", "~"
	if !f.From.IsZero() {
		lo = listing.TimeKey(f.From)
	}
	if !f.To.IsZero() {
		hi = listing.TimeKey(f.To) + "~"
	}
	q.Range(rangeAttr, dynamo.Between, lo, hi)
	if f.UserID != "" && index != "GSI1" {
		q.Filter("'userId' = ?", f.UserID)
	}
	if f.Collection != "" && index != "GSI2" {
		q.Filter("'collection' = ?", f.Collection)
	}
	if f.Action != "" && index != "GSI3" {
		q.Filter("'action' = ?", f.Action)
	}
	if cursor != "" {
		start, ok := store.DecodeCursor(cursor, scope)
		if !ok {
			return nil, "", ErrBadCursor
		}
		q.StartFrom(start)
	}
	var out []View
	next, err := q.AllWithLastEvaluatedKey(ctx, &out)
	if err != nil {
		return nil, "", store.Wrap("audit log", err)
	}
	if len(out) == 0 && next == nil {
		return []View{}, "", nil
	}
	return out, store.EncodeCursor(next), nil
}
