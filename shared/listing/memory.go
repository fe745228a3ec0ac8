package listing

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// inMemory reads the whole partition, then searches, filters, sorts and pages it: the only way
// to sort by a column no index holds. It refuses partitions past SortAllMax (by their counter,
// before reading anything), so its cost is bounded too.
func (l Lister) inMemory(ctx context.Context, r Request) (Result, error) {
	size, err := l.St.Count(ctx, r.Scope, CounterName(r.Kind, ""))
	if err != nil {
		return Result{}, err
	}
	if size > SortAllMax {
		return Result{}, tooLargeToSort(r)
	}
	var raw []dynamo.Item
	if err := l.St.Table.Get("PK", r.Partition).All(ctx, &raw); err != nil {
		return Result{}, store.Wrap("list "+r.Partition, err)
	}
	type row struct {
		raw dynamo.Item
		rec map[string]any
	}
	query := words.Query(r.Search)
	rows := make([]row, 0, len(raw))
	for _, it := range raw {
		var rec map[string]any
		if err := dynamo.UnmarshalItem(it, &rec); err != nil {
			return Result{}, fmt.Errorf("listing: decode %s: %w", r.Partition, err)
		}
		if len(query) > 0 && !words.Match(query, words.Split(fmt.Sprint(rec[r.NameAttr]))) {
			continue
		}
		if r.Facet != "" && r.FacetFilter != nil && !r.FacetFilter(rec) {
			continue
		}
		rows = append(rows, row{it, rec})
	}
	// By the column, then by name ascending, then by id, so paging is stable.
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].rec, rows[j].rec
		if c := compare(a[r.Sort], b[r.Sort]); c != 0 {
			return (c > 0) == r.Desc
		}
		if c := strings.Compare(NameKey(fmt.Sprint(a[r.NameAttr])), NameKey(fmt.Sprint(b[r.NameAttr]))); c != 0 {
			return c < 0
		}
		return fmt.Sprint(a["id"]) < fmt.Sprint(b["id"])
	})
	res := Result{Total: int64(len(rows))}
	start := min(int64(r.Page-1)*int64(r.Limit), res.Total)
	end := min(start+int64(r.Limit), res.Total)
	for _, rw := range rows[start:end] {
		res.Items = append(res.Items, rw.raw)
	}
	return res, nil
}

// compare orders two values: numbers numerically, booleans false first, text case-insensitively,
// missing values first.
func compare(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	if x, ok := a.(bool); ok {
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}
	}
	return strings.Compare(strings.ToLower(fmt.Sprint(a)), strings.ToLower(fmt.Sprint(b)))
}
