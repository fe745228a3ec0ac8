package mail

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// The outbox's items. A mail waiting to be sent is an item of its tenant's outbox partition,
// also indexed in one global GSI3 partition by the time it is due (DueIndex), as the
// scheduler's due items are: the worker reads what is due in every tenant with one Query, and
// only due items are ever read (no tenant registry, no Scan). A mail given up on moves to the
// tenant's failed partition, out of every index.
const (
	// DueIndex is the GSI3 partition of the mail waiting to be sent, by {due time}#{PK}#{SK}.
	DueIndex = "MAIL#DUE"
	// timeLayout is the index's time: RFC 3339 UTC to the second, so it sorts as it reads.
	timeLayout = time.RFC3339
)

// OutboxPartition is the tenant's mail waiting to be sent (SK: the mail's id, a ULID).
func OutboxPartition(scope store.Scope) string { return scope.Partition("MAILOUT") }

// FailedPartition is the tenant's mail given up on (SK: the mail's id).
func FailedPartition(scope store.Scope) string { return scope.Partition("MAILFAILED") }

// Partitions are every partition of the tenant's mail (outbox, failed, suppressions, handled
// events), for the tools that find a tenant's items by Query (tenant deletion and export).
func Partitions(scope store.Scope) []string {
	return []string{OutboxPartition(scope), FailedPartition(scope), SuppressionPartition(scope), EventPartition(scope)}
}

// InDueIndex reports whether an item of tenant with the given keys is an outbox item in the due
// index, whose GSI3 key ends in its own key (the tenant archive's check admits it, as it admits
// the scheduler's due items).
func InDueIndex(tenant, pk, sk, gsi3pk, gsi3sk string) bool {
	scope, err := store.NewScope(tenant)
	return err == nil && gsi3pk == DueIndex && pk == OutboxPartition(scope) && strings.HasSuffix(gsi3sk, "#"+pk+"#"+sk)
}

// item is an outbox or failed item.
type item struct {
	PK string `dynamo:"PK,hash"`
	SK string `dynamo:"SK,range"`
	// IndexPK and IndexSK place an outbox item in the due index; a failed item has neither.
	IndexPK string `dynamo:"GSI3PK,omitempty"`
	IndexSK string `dynamo:"GSI3SK,omitempty"`
	Message
	CreatedAt string `dynamo:"createdAt"`
	// DueAt is when it is (next) due: when it was written, or the retry time after a failure.
	DueAt    string `dynamo:"dueAt"`
	Attempts int    `dynamo:"attempts"`
	// LastError is the last failure; FailedAt when it was given up on (failed items).
	LastError string `dynamo:"lastError,omitempty"`
	FailedAt  string `dynamo:"failedAt,omitempty"`
	// Claim names the worker run holding the item's lease; the lease is the index time it
	// moved the item to (LeaseFor from its claim), when the item is due again if the run died.
	Claim string `dynamo:"claim,omitempty"`
}

func indexSK(at time.Time, pk, sk string) string {
	return at.UTC().Format(timeLayout) + "#" + pk + "#" + sk
}

// dueBound is the index sort key bound of what is due at or before now: "{now}#~" sorts after
// every key of that second and before the next.
func dueBound(now time.Time) string { return now.UTC().Format(timeLayout) + "#~" }

// Outgoing is a message on its way into the outbox: the Put to add to the transaction of what
// causes it (store.AddToTx, or collections Write.Also), and the key of its item, to Nudge a
// worker with once that transaction has committed.
type Outgoing struct {
	Put *dynamo.Put
	Key store.Key
}

// Enqueue checks msg (Validate: an invalid message wraps ErrInvalid, nothing is written) and
// returns the Put of its outbox item, due now, for the caller's own transaction: the mail is
// written exactly when what causes it is (a submission, a signup, a reset request), and a
// refused transaction leaves no mail behind.
func Enqueue(st *store.Store, scope store.Scope, msg Message) (Outgoing, error) {
	return EnqueueAt(st, scope, msg, time.Now())
}

// EnqueueAt is Enqueue for a mail due at a given time (a newsletter paces its batches so).
func EnqueueAt(st *store.Store, scope store.Scope, msg Message, at time.Time) (Outgoing, error) {
	if err := msg.Validate(); err != nil {
		return Outgoing{}, err
	}
	k := store.Key{PK: OutboxPartition(scope), SK: ids.New()}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	it := item{PK: k.PK, SK: k.SK, IndexPK: DueIndex, IndexSK: indexSK(at, k.PK, k.SK), Message: msg,
		CreatedAt: now, DueAt: at.UTC().Format(timeLayout)}
	return Outgoing{Put: st.Table.Put(it), Key: k}, nil
}

// Entry is one mail of a tenant's outbox or failed list, as Pending and Failed show it.
type Entry struct {
	ID string `json:"id"`
	Message
	CreatedAt string `json:"createdAt"`
	DueAt     string `json:"dueAt,omitempty"`
	Attempts  int    `json:"attempts"`
	LastError string `json:"lastError,omitempty"`
	FailedAt  string `json:"failedAt,omitempty"`
}

func (it item) entry() Entry {
	return Entry{ID: it.SK, Message: it.Message, CreatedAt: it.CreatedAt, DueAt: it.DueAt, Attempts: it.Attempts,
		LastError: it.LastError, FailedAt: it.FailedAt}
}

// MaxList bounds Pending and Failed.
const MaxList = 100

// Pending lists a tenant's mail waiting to be sent (oldest first, at most limit, 1..MaxList):
// one Query of its outbox partition.
func Pending(ctx context.Context, st *store.Store, scope store.Scope, limit int) ([]Entry, error) {
	return list(ctx, st, OutboxPartition(scope), limit, true)
}

// Failed lists a tenant's mail given up on (newest first, at most limit, 1..MaxList): one Query
// of its failed partition. Nothing there is ever deleted by the worker; Retry sends one again.
func Failed(ctx context.Context, st *store.Store, scope store.Scope, limit int) ([]Entry, error) {
	return list(ctx, st, FailedPartition(scope), limit, false)
}

func list(ctx context.Context, st *store.Store, pk string, limit int, oldestFirst bool) ([]Entry, error) {
	limit = max(1, min(limit, MaxList))
	var items []item
	q := st.Table.Get("PK", pk).Consistent(st.Consistent()).Limit(limit)
	if !oldestFirst {
		q = q.Order(dynamo.Descending)
	}
	if err := q.All(ctx, &items); err != nil {
		return nil, store.Wrap("list mail", err)
	}
	out := make([]Entry, len(items))
	for i, it := range items {
		out[i] = it.entry()
	}
	return out, nil
}

// Retry puts a failed mail back in the outbox, due now, its attempts reset (after the cause was
// fixed): one transaction, so it is in exactly one of the two. store.ErrNotFound when the tenant
// has no such failed mail.
func Retry(ctx context.Context, st *store.Store, scope store.Scope, id string, now time.Time) error {
	if !ids.Valid(id) {
		return fmt.Errorf("mail: retry %q: %w", id, store.ErrNotFound)
	}
	var it item
	if err := st.Get(ctx, store.Key{PK: FailedPartition(scope), SK: id}, &it); err != nil {
		return err
	}
	failedPK := it.PK
	it.PK = OutboxPartition(scope)
	it.IndexPK, it.IndexSK = DueIndex, indexSK(now, it.PK, it.SK)
	it.DueAt, it.Attempts, it.FailedAt, it.Claim = now.UTC().Format(timeLayout), 0, "", ""
	err := st.WriteTx().
		Delete(st.Table.Delete("PK", failedPK).Range("SK", id).If("attribute_exists(PK)")).
		Put(st.Table.Put(it)).Run(ctx)
	if store.CondFailedAt(err, 0) {
		return fmt.Errorf("mail: retry %s: %w", id, store.ErrNotFound)
	}
	return store.Wrap("retry mail", err)
}

// scopeOf is the tenant an outbox or failed item belongs to, from its key.
func scopeOf(pk string) (store.Scope, error) {
	rest, ok := strings.CutPrefix(pk, "T#")
	tenant, _, found := strings.Cut(rest, "#")
	if !ok || !found {
		return store.Scope{}, store.ErrBadTenant
	}
	return store.NewScope(tenant)
}
