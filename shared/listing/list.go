package listing

import (
	"context"
	"slices"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// Request is one list call over one partition.
type Request struct {
	Scope store.Scope
	// Kind is the record type: its partition is Scope.Collection(Kind), its counter Kind.
	Kind      string
	Partition string // set by List from Scope and Kind
	// NameAttr is the attribute searched and sorted as "name" (a FAQ's question, a media name).
	NameAttr string
	// Sort is updatedAt, createdAt, NameAttr, or another attribute (in-memory path).
	Sort string
	Desc bool
	// Search is a name prefix (case-insensitive); with Words, the words every match's indexed
	// words begin with (any order, accents and case ignored; see words.go).
	Search string
	// Words says the partition keeps a word index (WordChanges on every write).
	Words bool
	// Facet restricts the list to one GSI3 facet ("UNREAD", "TYPE#IMAGE"); FacetFilter is the
	// same restriction for the in-memory path.
	Facet       string
	FacetFilter func(map[string]any) bool
	// CountFacet names a facet whose counter the answer also carries (FacetTotal), read with
	// the list's own counter when the list is not that facet already.
	CountFacet  string
	Page, Limit int
	Cursor      string
}

// Result is one page.
type Result struct {
	Items []dynamo.Item
	Total int64
	// Capped is true when Total stopped at SearchCountMax.
	Capped     bool
	Next, Prev string
	// FacetTotal is the counter of Request.CountFacet, when asked for.
	FacetTotal *int64
}

// Lister runs list requests against the shared table.
type Lister struct{ St *store.Store }

// CounterName is the counter of a partition, or of one facet of it.
func CounterName(kind, facet string) string {
	if facet == "" {
		return kind
	}
	return kind + "#" + facet
}

// List answers one request. Its cost: one counter read (or, for a search, one COUNT query
// bounded by the matches and SearchCountMax) and one query reading the page (with a cursor)
// or the (page-1)*limit entries before it plus the page (without). The in-memory path reads the
// whole partition, and only while it holds at most SortAllMax records. A CountFacet counter is
// read with the list's own counter, or is the list's total when the list is that facet.
func (l Lister) List(ctx context.Context, r Request) (Result, error) {
	r.Partition = r.Scope.Collection(r.Kind)
	q := words.Query(r.Search)
	if r.Words && len(q) == 0 {
		r.Search = "" // only punctuation: nothing to search by
	}
	p := choose(r)
	var res Result
	var err error
	if r.Words && r.Facet == "" && len(q) > 0 {
		res, err = l.searchWords(ctx, r, q)
	} else {
		res, err = l.list(ctx, p, r)
	}
	if err != nil || r.CountFacet == "" || res.FacetTotal != nil {
		return res, err
	}
	n := res.Total
	if r.Facet != r.CountFacet || p.prefix != "" || p.index == memory {
		if n, err = l.St.Count(ctx, r.Scope, CounterName(r.Kind, r.CountFacet)); err != nil {
			return res, err
		}
	}
	res.FacetTotal = &n
	return res, nil
}

func (l Lister) list(ctx context.Context, p plan, r Request) (Result, error) {
	var res Result
	var err error
	switch {
	case p.index == memory:
		return l.inMemory(ctx, r)
	case p.prefix != "":
		res.Total, res.Capped, err = l.countPrefix(ctx, p)
	default:
		res.Total, res.FacetTotal, err = l.counters(ctx, r)
	}
	if err != nil {
		return res, err
	}
	skip := int64(r.Page-1) * int64(r.Limit)
	if skip >= res.Total {
		// Past the end (or an empty list): nothing to read.
		return res, nil
	}
	if res.Items, err = l.page(ctx, p, r, skip); err != nil {
		return res, err
	}
	if n := len(res.Items); n > 0 {
		if r.Page > 1 {
			res.Prev = p.cursorAt(res.Items[0], true)
		}
		if skip+int64(n) < res.Total {
			res.Next = p.cursorAt(res.Items[n-1], false)
		}
	}
	return res, nil
}

// counters reads the list's counter and, in the same batch, CountFacet's when the list is not
// that facet.
func (l Lister) counters(ctx context.Context, r Request) (int64, *int64, error) {
	names := []string{CounterName(r.Kind, r.Facet)}
	if r.CountFacet != "" && r.CountFacet != r.Facet {
		names = append(names, CounterName(r.Kind, r.CountFacet))
	}
	counts, err := l.St.CountMany(ctx, r.Scope, names...)
	switch {
	case err != nil:
		return 0, nil, err
	case len(counts) == 1:
		return counts[0], nil, nil
	}
	return counts[0], &counts[1], nil
}

// page reads one page: from the cursor when there is one, else by skipping the entries before it.
func (l Lister) page(ctx context.Context, p plan, r Request, skip int64) ([]dynamo.Item, error) {
	q := l.query(p)
	want := int(skip) + r.Limit
	back := false
	if r.Cursor != "" {
		start, b, err := p.decodeCursor(r.Cursor)
		if err != nil {
			return nil, err
		}
		back, want, skip = b, r.Limit, 0
		q.StartFrom(start)
		if back {
			q.Order(order(!p.desc))
		}
	}
	var items []dynamo.Item
	if err := q.Limit(want).All(ctx, &items); err != nil {
		return nil, store.Wrap("list "+p.partition, err)
	}
	items = items[min(int(skip), len(items)):]
	if back {
		slices.Reverse(items)
	}
	return items, nil
}

func (l Lister) query(p plan) *dynamo.Query {
	q := l.St.Table.Get(p.hashAttr(), p.hash)
	if p.index != "" {
		q.Index(p.index)
	}
	if p.prefix != "" {
		q.Range(p.rangeAttr(), dynamo.BeginsWith, p.prefix)
	}
	return q.Order(order(p.desc))
}

// countPrefix counts a search's matches with one Select COUNT query that examines at most
// SearchCountMax index entries.
func (l Lister) countPrefix(ctx context.Context, p plan) (int64, bool, error) {
	n, err := l.query(p).SearchLimit(SearchCountMax).Count(ctx)
	if err != nil {
		return 0, false, store.Wrap("count "+p.partition, err)
	}
	return int64(n), n >= SearchCountMax, nil
}

func order(desc bool) dynamo.Order {
	if desc {
		return dynamo.Descending
	}
	return dynamo.Ascending
}
