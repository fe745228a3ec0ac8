package tenants

import (
	"context"
	"fmt"
	"slices"

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

func reindexPartition(ctx context.Context, st *store.Store, partition, nameAttr string, names []string) (int, error) {
	var start dynamo.PagingKey
	n := 0
	for {
		var recs []map[string]any
		attrs := []string{"PK", "SK", "id", "GSI2SK", nameAttr}
		for _, name := range names {
			if !slices.Contains(attrs, name) {
				attrs = append(attrs, name)
			}
		}
		q := st.Table.Get("PK", partition).Project(attrs...).Limit(reindexPage)
		if start != nil {
			q.StartFrom(start)
		}
		next, err := q.AllWithLastEvaluatedKey(ctx, &recs)
		if err != nil {
			return n, err
		}
		var items []any
		for _, rec := range recs {
			id, _ := rec["id"].(string)
			if id == "" {
				continue // a counter or marker kept in the partition, not a record
			}
			texts := make([]string, len(names))
			for i, name := range names {
				texts[i], _ = rec[name].(string)
			}
			items = append(items, listing.WordChanges(st.Table, partition, id, nil, words.Of(texts...))...)
			if old, ok := rec["GSI2SK"].(string); ok {
				name, _ := rec[nameAttr].(string)
				if key := listing.Attributes(listing.Record{ID: id, Name: name})["GSI2SK"]; key != old {
					pk, _ := rec["PK"].(string)
					items = append(items, st.Table.Update("PK", pk).Range("SK", id).Set("GSI2SK", key).If("attribute_exists(PK)"))
				}
			}
			n++
		}
		for len(items) > 0 {
			chunk := items[:min(len(items), store.MaxTransactionItems)]
			items = items[len(chunk):]
			tx := st.WriteTx()
			store.AddToTx(tx, chunk...)
			if err := tx.Run(ctx); err != nil {
				return n, err
			}
		}
		if next == nil {
			return n, nil
		}
		start = next
	}
}
