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
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// reindexPage is how many records one read of a partition takes.
const reindexPage = 100

// Reindex writes the word index of every record of the tenant (every collection and the media
// library) and moves each record's name-order key (GSI2SK) to the current collation
// (listing.NameKey), a page of records and a transaction of index writes at a time: the one-off
// step that makes records written before the index existed searchable and sorted as people read.
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
	type fieldsOf struct {
		name   string
		search []string
	}
	fields := map[string]fieldsOf{mediaref.RecordPartition: {"name", []string{"name"}}}
	for _, key := range reg.Keys() {
		if c := reg[key]; c.Singleton == "" {
			fields[key] = fieldsOf{c.NameField, c.SearchFields()}
		}
	}
	total := 0
	for kind, f := range fields {
		n, err := reindexPartition(ctx, st, scope.Collection(kind), f.name, f.search)
		total += n
		if err != nil {
			return total, fmt.Errorf("tenants: reindex %s: %w", kind, err)
		}
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

func reindexPartition(ctx context.Context, st *store.Store, partition, nameAttr string, names []string) (int, error) {
	var start dynamo.PagingKey
	n := 0
	attrs := []string{"PK", "SK", "id", "GSI2SK"}
	for _, name := range append([]string{nameAttr}, names...) {
		if name != "" && !slices.Contains(attrs, name) {
			attrs = append(attrs, name)
		}
	}
	for {
		var recs []map[string]any
		q := st.Table.Get("PK", partition).Project(attrs...).Limit(reindexPage)
		if start != nil {
			q.StartFrom(start)
		}
		next, err := q.AllWithLastEvaluatedKey(ctx, &recs)
		if err != nil {
			return n, err
		}
		if afterRead != nil {
			afterRead(partition)
		}
		var batch []recordIndex
		for _, rec := range recs {
			id, _ := rec["id"].(string)
			if id == "" {
				continue // a counter or marker kept in the partition, not a record
			}
			if ri, ok := indexOf(st, partition, nameAttr, names, rec); ok {
				batch = append(batch, ri)
			}
			n++
		}
		if err := writeIndexes(ctx, st, partition, nameAttr, names, attrs, batch); err != nil {
			return n, err
		}
		if next == nil {
			return n, nil
		}
		start = next
	}
}

// indexOf is a record's index writes (none when it needs none): its word entries and, when the
// collation moved, its name-order key; one of them carries the condition that the record is as
// read (a transaction may hold one operation per item, so the key's update carries it when there
// is one, else a ConditionCheck).
func indexOf(st *store.Store, partition, nameAttr string, names []string, rec map[string]any) (recordIndex, bool) {
	id, _ := rec["id"].(string)
	pk, _ := rec["PK"].(string)
	if pk == "" {
		pk = partition
	}
	texts := make([]string, len(names))
	for i, name := range names {
		texts[i], _ = rec[name].(string)
	}
	ri := recordIndex{pk: pk, id: id, items: listing.WordChanges(st.Table, partition, id, nil, words.Of(texts...))}
	cond, args := unchangedCondition(nameAttr, names, rec)
	var keyUpdate *dynamo.Update
	if old, ok := rec["GSI2SK"].(string); ok {
		name, _ := rec[nameAttr].(string)
		if key := listing.Attributes(listing.Record{ID: id, Name: name})["GSI2SK"]; key != old {
			keyUpdate = st.Table.Update("PK", pk).Range("SK", id).Set("GSI2SK", key).If(cond, args...)
		}
	}
	switch {
	case keyUpdate != nil:
		ri.items = append(ri.items, keyUpdate)
	case len(ri.items) > 0:
		ri.items = append(ri.items, st.Table.Check("PK", pk).Range("SK", id).If(cond, args...))
	default:
		return ri, false
	}
	return ri, true
}

// unchangedCondition says the record exists and its name and search fields hold what was read.
func unchangedCondition(nameAttr string, names []string, rec map[string]any) (string, []any) {
	parts := []string{"attribute_exists(PK)"}
	var args []any
	seen := map[string]bool{}
	for _, name := range append([]string{nameAttr}, names...) {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
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

// writeIndexes writes a page's index entries, as many records per transaction as fit. A
// transaction refused because a record changed meanwhile is done again record by record, each
// read afresh (a record deleted since needs nothing: its delete took its entries).
func writeIndexes(ctx context.Context, st *store.Store, partition, nameAttr string, names, attrs []string, batch []recordIndex) error {
	for len(batch) > 0 {
		var chunk []recordIndex
		items := 0
		for len(batch) > 0 && (len(chunk) == 0 || items+len(batch[0].items) <= store.MaxTransactionItems) {
			chunk = append(chunk, batch[0])
			items += len(batch[0].items)
			batch = batch[1:]
		}
		err := runIndexTx(ctx, st, chunk)
		if err == nil {
			continue
		}
		if !condFailed(err) {
			return err
		}
		for _, ri := range chunk {
			if err := reindexRecord(ctx, st, partition, nameAttr, names, attrs, ri); err != nil {
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

// reindexRecord writes one record's index alone, reading it again while a write keeps changing it.
func reindexRecord(ctx context.Context, st *store.Store, partition, nameAttr string, names, attrs []string, ri recordIndex) error {
	for try := 0; ; try++ {
		err := runIndexTx(ctx, st, []recordIndex{ri})
		if err == nil || !condFailed(err) {
			return err
		}
		if try == maxReindexTries {
			return fmt.Errorf("record %s keeps changing: %w", ri.id, err)
		}
		var rec map[string]any
		err = st.Table.Get("PK", ri.pk).Range("SK", dynamo.Equal, ri.id).Project(attrs...).Consistent(true).One(ctx, &rec)
		if errors.Is(err, dynamo.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var ok bool
		if ri, ok = indexOf(st, partition, nameAttr, names, rec); !ok {
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
