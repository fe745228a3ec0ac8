package collections

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/store"
)

// Trash: a delete keeps the record's last state as a version (history.go), and that version item
// is also the record's entry in the tenant's trash: it carries trash index attributes (GSI1 by
// deletion time, GSI2 by kind and time) and expires after TrashTTL instead of VersionTTL. So a
// delete costs no item beyond its version and audit entry, and the record itself is really gone
// (its counters, reference counts, slug and username markers, menu links and public reads see
// nothing). Restoring writes it again through the create path, under its own id, with every rule
// of a create re-checked; purging deletes the entry and the rest of its history at once.
const TrashTTL = 30 * 24 * time.Hour

// ActionPurge is the audit action of "Delete forever".
const ActionPurge = "purge"

var errNotInTrash = &api.Error{Status: http.StatusNotFound, Message: "This item is no longer in the trash."}

// trashPartition is the index partition of the tenant's trash, or of one kind of it.
func trashPartition(scope store.Scope, kind ...string) string {
	return scope.Partition(append([]string{"TRASH"}, kind...)...)
}

// titleOf is what the Trash screen calls a record: its name field, shortened.
func titleOf(c *Collection, rec Record) string {
	t := strings.TrimSpace(fmt.Sprint(rec[c.NameField]))
	if rec[c.NameField] == nil || t == "" {
		return c.Title
	}
	return formats.Shorten(t, 120)
}

// TrashEntry is a deleted record as the Trash screen lists it.
type TrashEntry struct {
	Kind      string `json:"kind" dynamo:"kind"`
	ID        string `json:"id" dynamo:"recordId"`
	Title     string `json:"title" dynamo:"title"`
	Version   int    `json:"version" dynamo:"version"`
	DeletedAt string `json:"deletedAt" dynamo:"replacedAt"`
	By        string `json:"by" dynamo:"by"`
	ByName    string `json:"byName" dynamo:"byName"`
	ExpiresAt int64  `json:"-" dynamo:"expiresAt"`
	// PurgedAt is when the entry leaves the trash for good (RFC 3339): when it expires, or, for
	// one being purged, when its purge began.
	PurgedAt string `json:"purgedAt" dynamo:"-"`
	// Purging says "Delete forever" began and what the record holds back is still being deleted
	// (PurgeDeleted): the entry stays listed, and cannot be restored, until it is all gone.
	Purging      bool   `json:"purging,omitempty" dynamo:"-"`
	PurgingSince string `json:"-" dynamo:"purging"`
}

// ErrBadTrashCursor is a cursor this list did not make.
var ErrBadTrashCursor = api.FieldError(http.StatusBadRequest, "cursor", "The cursor is not valid; start from the first page.")

// TrashList reads one page of the tenant's trash, newest first, of one kind or all: a Query of
// at most limit index entries, whatever the trash holds. Entries past their time that DynamoDB's
// TTL has not removed yet are left out, unless they are being purged (they have no time then:
// they leave when their purge ends).
func TrashList(ctx context.Context, st *store.Store, scope store.Scope, kind string, limit int, cursor string, now time.Time) ([]TrashEntry, string, error) {
	q := st.Table.Get("GSI1PK", trashPartition(scope)).Index("GSI1")
	if kind != "" {
		q = st.Table.Get("GSI2PK", trashPartition(scope, kind)).Index("GSI2")
	}
	q.Order(dynamo.Descending).Limit(limit).Filter("'expiresAt' > ? OR attribute_exists('purging')", now.Unix()).
		Project("PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", // the next page's cursor is read from them
			"kind", "recordId", "title", "version", "replacedAt", "by", "byName", "expiresAt", "purging")
	if cursor != "" {
		start, ok := store.DecodeCursor(cursor, scope)
		if !ok {
			return nil, "", ErrBadTrashCursor
		}
		q.StartFrom(start)
	}
	out := []TrashEntry{}
	next, err := q.AllWithLastEvaluatedKey(ctx, &out)
	if err != nil {
		return nil, "", store.Wrap("trash", err)
	}
	for i := range out {
		out[i].PurgedAt = time.Unix(out[i].ExpiresAt, 0).UTC().Format(time.RFC3339)
		if out[i].PurgingSince != "" {
			out[i].Purging, out[i].PurgedAt = true, out[i].PurgingSince
		}
	}
	return out, store.EncodeCursor(next), nil
}

// TrashedState reads the state a trash entry keeps: record id of kind deleted at version; a
// record not in the trash (restored, purged, expired, or never deleted) is a 404, one being
// purged a 409.
func TrashedState(ctx context.Context, st *store.Store, scope store.Scope, kind, id string, version int, now time.Time) (Record, error) {
	it, err := readVersion(ctx, st, scope, kind, id, version, now)
	if err == errNoVersion {
		// A purging entry has no expiry (it leaves when its purge ends).
		if t, found, err := readTrashItem(ctx, st, scope, kind, id, version); err == nil && found && t.Purging != "" {
			return nil, errBeingPurged
		}
	}
	if err == errNoVersion || (err == nil && it.TrashPK == "") {
		return nil, errNotInTrash
	}
	if err != nil {
		return nil, err
	}
	return it.state()
}

// Untrash is the transaction item that takes a trash entry out of the trash as its record comes
// back: it stays in the record's history as an ordinary version. Its condition fails (so the
// restore is refused, errNotInTrash) when another restore or a purge took it first, or a purge
// began (claimPurge).
func Untrash(st *store.Store, scope store.Scope, kind, id string, version int, now time.Time) (*dynamo.Update, *api.Error) {
	k := versionKey(scope, kind, id, version)
	return st.Table.Update("PK", k.PK).Range("SK", k.SK).
		Remove("GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "kind", "recordId", "title").
		Set("expiresAt", now.Add(VersionTTL).Unix()).
		If("attribute_exists(GSI1PK) AND version = ? AND attribute_not_exists(purging)", version), errNotInTrash
}

// Purge deletes a trash entry for good with the rest of the record's history (at most
// KeptVersions items) and the audit entry that records it, in one transaction: for records that
// hold nothing back (a record whose hooks do, Purger, is purged by PurgeDeleted and PurgeDue).
func Purge(ctx context.Context, st *store.Store, caller *auth.Caller, kind, id string, version int, now time.Time) error {
	scope := caller.Scope
	entry := versionKey(scope, kind, id, version)
	var keys []store.Key
	if err := st.Table.Get("PK", historyPartition(scope, kind, id)).Project("PK", "SK").Limit(KeptVersions).All(ctx, &keys); err != nil {
		return store.Wrap("purge history of "+kind, err)
	}
	e := AuditEntry(caller, now, ActionPurge, kind, id)
	tx := st.WriteTx().
		Delete(st.Table.Delete("PK", entry.PK).Range("SK", entry.SK).If("attribute_exists(GSI1PK) AND version = ?", version)).
		Put(st.Table.Put(audit.Item(scope, e)))
	for _, k := range keys {
		if k != entry {
			tx.Delete(st.Table.Delete("PK", k.PK).Range("SK", k.SK))
		}
	}
	err := tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return errNotInTrash
	}
	return store.Wrap("purge "+kind, err)
}

// Purger is implemented by hooks whose records hold data back beyond their items while they
// are in the trash (a form's submissions, kept under its id and out of reach until it comes
// back), which must go when the trash entry goes (purge.go's rules: PurgeDeleted, PurgeDue).
type Purger interface {
	// PurgeSome deletes at most n units of what record id holds back (a form: n submissions,
	// each with its search index entries), and says whether nothing is left; what is left of its
	// own beside them (a counter) goes with the last batch. Each unit's items go in one
	// transaction, so a failure half way leaves whole units, which the next call takes up.
	PurgeSome(ctx context.Context, s *Service, scope store.Scope, id string, n int) (done bool, err error)
}

// RestoreDeleted brings record id of c back from the trash, where its delete at version put it:
// written again under its own id through the create path (the caller's rights, validation, hooks,
// references, markers and counters, as for a new record), with the trash entry taken out in the
// same transaction. What had to change says so in the message (a slug taken meanwhile, given the
// next free one).
func (s *Service) RestoreDeleted(ctx context.Context, caller *auth.Caller, c *Collection, id string, version int) (Record, string, error) {
	if c.Singleton != "" {
		return nil, "", errNotInTrash
	}
	kept, err := TrashedState(ctx, s.st, caller.Scope, c.Key, id, version, s.now())
	if err != nil {
		return nil, "", err
	}
	in, err := keptInput(c, kept, true)
	if err != nil {
		return nil, "", err
	}
	values, err := s.conv.values(caller.Scope, c, in, true)
	if err != nil {
		return nil, "", err
	}
	wr, err := s.createRecord(ctx, caller, c, id, values, &restoring{version: version, createdAt: toString(kept["createdAt"])})
	if err != nil {
		return nil, "", err
	}
	out, err := s.writtenView(ctx, wr)
	return out, c.Title + " restored from the trash!" + takenMeanwhile(c, kept, wr.Rec), err
}

// takenMeanwhile says which text fields a restore could not bring back as kept because the value
// was taken meanwhile (a slug, given the next free one by its hook).
func takenMeanwhile(c *Collection, kept, rec Record) string {
	msg := ""
	for _, f := range c.Fields {
		was, now := toString(kept[f.Name]), toString(rec[f.Name])
		if f.Type == TypeText && was != "" && now != "" && was != now {
			msg += fmt.Sprintf(" Its %s %q was taken meanwhile, so it is now %q.", strings.ToLower(f.Label), was, now)
		}
	}
	return msg
}

// restoring is what a create that brings a record back from the trash carries.
type restoring struct {
	version   int
	createdAt string
}
