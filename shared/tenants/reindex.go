package tenants

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
)

// reindexPage is how many records one read of a partition takes.
const reindexPage = 100

// Reindex writes the word index of every record of the tenant (every collection and the media
// library) and moves each record's name-order key (GSI2SK) to the current collation
// (listing.NameKey), a page of records and a transaction of index writes at a time: the one-off
// step that makes records written before the index existed searchable and sorted as people read.
// It also sets each form's reference count to the pages showing it (pages.RecountFormReferences).
// Running it again rewrites the same entries. It answers how many records it indexed.
func Reindex(ctx context.Context, st *store.Store, tenant string) (int, error) {
	scope, err := store.NewScope(tenant)
	if err != nil {
		return 0, err
	}
	reg, err := collections.Load()
	if err != nil {
		return 0, err
	}
	// Every listed kind: the declared collections and the media library, each indexed as its
	// writes index it (collections.Kind: its name field, search fields and words).
	kinds := []collections.Kind{media.RecordKind()}
	for _, key := range reg.Keys() {
		if c := reg[key]; c.Singleton == "" {
			kinds = append(kinds, collections.KindOf(c))
		}
	}
	total := 0
	for _, k := range kinds {
		n, err := reindexPartition(ctx, st, scope, k)
		total += n
		if err != nil {
			return total, fmt.Errorf("tenants: reindex %s: %w", k.Key, err)
		}
	}
	// Forms count the pages that show them, which pages saved before they did never counted.
	if _, err := pages.RecountFormReferences(ctx, st, scope); err != nil {
		return total, fmt.Errorf("tenants: reindex: %w", err)
	}
	return total, nil
}

// afterRead, when set (tests), runs after each page of records is read and before its index
// writes: where a racing write lands.
var afterRead func(partition string)

// maxReindexTries bounds how often one record is read again because a write changed it while its
// entries were being written.
const maxReindexTries = 5

// recordIndex is one record's index writes, conditioned on the record still holding what they
// were made from (its name and search fields as read): a rename that lands between the read and
// the write cancels them instead of leaving the old name's words behind.
type recordIndex struct {
	pk, id string
	items  []any
}

// reindexer writes the index of one kind's records in one tenant.
type reindexer struct {
	st        *store.Store
	scope     store.Scope
	kind      collections.Kind
	partition string
	// fields are the name and search fields: what the index is made from, and what each write
	// is conditioned on; attrs what a read of a record takes (its key, id, name key and fields).
	fields, attrs []string
}

func reindexPartition(ctx context.Context, st *store.Store, scope store.Scope, k collections.Kind) (int, error) {
	ri := reindexer{st: st, scope: scope, kind: k, partition: scope.Collection(k.Key), attrs: []string{"PK", "SK", "id", "GSI2SK"}}
	for _, name := range append([]string{k.NameField}, k.SearchFields()...) {
		if name != "" && !slices.Contains(ri.fields, name) {
			ri.fields = append(ri.fields, name)
		}
		if name != "" && !slices.Contains(ri.attrs, name) {
			ri.attrs = append(ri.attrs, name)
		}
	}
	var start dynamo.PagingKey
	n := 0
	for {
		var recs []map[string]any
		q := st.Table.Get("PK", ri.partition).Project(ri.attrs...).Limit(reindexPage)
		if start != nil {
			q.StartFrom(start)
		}
		next, err := q.AllWithLastEvaluatedKey(ctx, &recs)
		if err != nil {
			return n, err
		}
		if afterRead != nil {
			afterRead(ri.partition)
		}
		var batch []recordIndex
		for _, rec := range recs {
			id, _ := rec["id"].(string)
			if id == "" {
				continue // a counter or marker kept in the partition, not a record
			}
			if x, ok := ri.indexOf(rec); ok {
				batch = append(batch, x)
			}
			n++
		}
		if err := ri.write(ctx, batch); err != nil {
			return n, err
		}
		if next == nil {
			return n, nil
		}
		start = next
	}
}

// indexOf is a record's index writes (none when it needs none): its word entries and, when the
// collation moved, its name-order key, both as the kind's writes make them
// (collections.Kind.Words, IndexAttributes); one of them carries the condition that the record is
// as read (a transaction may hold one operation per item, so the key's update carries it when
// there is one, else a ConditionCheck).
func (ri reindexer) indexOf(rec map[string]any) (recordIndex, bool) {
	id, _ := rec["id"].(string)
	pk, _ := rec["PK"].(string)
	if pk == "" {
		pk = ri.partition
	}
	x := recordIndex{pk: pk, id: id, items: listing.WordChanges(ri.st.Table, ri.partition, id, nil, ri.kind.Words(rec))}
	cond, args := ri.unchangedCondition(rec)
	var keyUpdate *dynamo.Update
	if old, ok := rec["GSI2SK"].(string); ok {
		if key := ri.kind.IndexAttributes(ri.scope, rec)["GSI2SK"]; key != old {
			keyUpdate = ri.st.Table.Update("PK", pk).Range("SK", id).Set("GSI2SK", key).If(cond, args...)
		}
	}
	switch {
	case keyUpdate != nil:
		x.items = append(x.items, keyUpdate)
	case len(x.items) > 0:
		x.items = append(x.items, ri.st.Table.Check("PK", pk).Range("SK", id).If(cond, args...))
	default:
		return x, false
	}
	return x, true
}

// unchangedCondition says the record exists and its name and search fields hold what was read.
func (ri reindexer) unchangedCondition(rec map[string]any) (string, []any) {
	parts := []string{"attribute_exists(PK)"}
	var args []any
	for _, name := range ri.fields {
		if v, ok := rec[name]; ok && v != nil {
			parts = append(parts, "$ = ?")
			args = append(args, name, v)
		} else {
			parts = append(parts, "attribute_not_exists($)")
			args = append(args, name)
		}
	}
	return strings.Join(parts, " AND "), args
}

// write writes a page's index entries, as many records per transaction as fit. A transaction
// refused because a record changed meanwhile is done again record by record, each read afresh
// (a record deleted since needs nothing: its delete took its entries).
func (ri reindexer) write(ctx context.Context, batch []recordIndex) error {
	for len(batch) > 0 {
		var chunk []recordIndex
		items := 0
		for len(batch) > 0 && (len(chunk) == 0 || items+len(batch[0].items) <= store.MaxTransactionItems) {
			chunk = append(chunk, batch[0])
			items += len(batch[0].items)
			batch = batch[1:]
		}
		err := runIndexTx(ctx, ri.st, chunk)
		if err == nil {
			continue
		}
		if !condFailed(err) {
			return err
		}
		for _, x := range chunk {
			if err := ri.record(ctx, x); err != nil {
				return err
			}
		}
	}
	return nil
}

func runIndexTx(ctx context.Context, st *store.Store, chunk []recordIndex) error {
	tx := st.WriteTx()
	for _, ri := range chunk {
		store.AddToTx(tx, ri.items...)
	}
	return tx.Run(ctx)
}

// record writes one record's index alone, reading it again while a write keeps changing it.
func (ri reindexer) record(ctx context.Context, x recordIndex) error {
	for try := 0; ; try++ {
		err := runIndexTx(ctx, ri.st, []recordIndex{x})
		if err == nil || !condFailed(err) {
			return err
		}
		if try == maxReindexTries {
			return fmt.Errorf("record %s keeps changing: %w", x.id, err)
		}
		var rec map[string]any
		err = ri.st.Table.Get("PK", x.pk).Range("SK", dynamo.Equal, x.id).Project(ri.attrs...).Consistent(true).One(ctx, &rec)
		if errors.Is(err, dynamo.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var ok bool
		if x, ok = ri.indexOf(rec); !ok {
			return nil
		}
	}
}

// condFailed says a transaction was refused because a condition failed (a record changed).
func condFailed(err error) bool {
	var txe *types.TransactionCanceledException
	if !errors.As(err, &txe) {
		return false
	}
	for _, r := range txe.CancellationReasons {
		if r.Code != nil && *r.Code == "ConditionalCheckFailed" {
			return true
		}
	}
	return false
}
