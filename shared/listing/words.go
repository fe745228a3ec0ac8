package listing

import (
	"context"
	"encoding/base64"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// The word index: beside a partition's records, one item per (word, record), keyed
// {partition}#WORDS / {word}#{id}, holding the record's id and all its indexed words. A search
// reads the entries of its rarest word (a begins_with on the sort key: every record having a
// word that begins with it, not the partition; driveSearch) and keeps those whose words match
// every typed word; then it reads the page's records. The entries are written in the
// transaction of each create, rename and delete (WordChanges), so the index never disagrees with
// the records.

// WordPartition is the word index of a partition of records.
func WordPartition(partition string) string { return partition + "#WORDS" }

// WordEntry is one entry of the word index.
type WordEntry struct {
	PK    string   `dynamo:"PK"`
	SK    string   `dynamo:"SK"`
	ID    string   `dynamo:"id"`
	Words []string `dynamo:"words"`
}

// WordEntries are the entries of record id of partition, found by its words.
func WordEntries(partition, id string, words []string) []WordEntry {
	out := make([]WordEntry, len(words))
	for i, w := range words {
		out[i] = WordEntry{PK: WordPartition(partition), SK: w + "#" + id, ID: id, Words: words}
	}
	return out
}

// WordChanges are the index writes (*dynamo.Put and *dynamo.Delete) that move record id of
// partition from the words before to the words after (words.Of of its names; nil when it does
// not exist): none when they are the same, else every entry of after (each holds the whole
// list) and a delete of each word it lost: at most words.MaxWords of each.
func WordChanges(table dynamo.Table, partition, id string, before, after []string) []any {
	if slices.Equal(before, after) {
		return nil
	}
	var out []any
	for _, w := range before {
		if !slices.Contains(after, w) {
			out = append(out, table.Delete("PK", WordPartition(partition)).Range("SK", w+"#"+id))
		}
	}
	for _, e := range WordEntries(partition, id, after) {
		out = append(out, table.Put(e))
	}
	return out
}

var errBadSearchCursor = api.FieldError(http.StatusBadRequest, "cursor", "The cursor is not valid; start from the first page.")

// searchWords answers a search of a partition with a word index: matches newest first (ULIDs
// are creation-ordered), counted exactly up to SearchCountMax entries read, a page at a time by
// page number or cursor (the last id shown). Its cost: a probe of each typed word (at most
// searchProbe entries each, at once), the rarest word's entries (at most SearchCountMax) and one
// batch read of the page's records.
func (l Lister) searchWords(ctx context.Context, r Request, query []string) (Result, error) {
	var res Result
	entries, err := l.driveSearch(ctx, r.Partition, query)
	if err != nil {
		return res, err
	}
	res.Capped = len(entries) >= SearchCountMax
	names := map[string]string{}
	var ids []string
	for _, e := range entries {
		if _, seen := names[e.ID]; !seen && words.Match(query, e.Words) {
			names[e.ID] = strings.Join(e.Words, " ")
			ids = append(ids, e.ID)
		}
	}
	// Newest first (oldest first when asked by createdAt ascending); sorted by name, by the words
	// of the name (accents and case folded), ties newest first.
	byName := r.NameAttr != "" && r.Sort == r.NameAttr
	oldestFirst := r.Sort == "createdAt" && !r.Desc
	slices.SortFunc(ids, func(a, b string) int {
		if byName {
			if c := strings.Compare(names[a], names[b]); c != 0 {
				if r.Desc {
					return -c
				}
				return c
			}
		}
		if oldestFirst {
			return strings.Compare(a, b)
		}
		return strings.Compare(b, a)
	})
	res.Total = int64(len(ids))
	start := min(len(ids), (r.Page-1)*r.Limit)
	if r.Cursor != "" {
		after, ok := decodeSearchCursor(r.Cursor)
		if !ok {
			return res, errBadSearchCursor
		}
		i := slices.Index(ids, after)
		if i < 0 {
			return res, errBadSearchCursor
		}
		start = i + 1
	}
	page := ids[start:min(len(ids), start+r.Limit)]
	if len(page) == 0 {
		return res, nil
	}
	keys := make([]store.Key, len(page))
	for i, id := range page {
		keys[i] = store.Key{PK: r.Partition, SK: id}
	}
	found, err := l.St.GetMany(ctx, keys...)
	if err != nil {
		return res, err
	}
	for _, k := range keys {
		if it, ok := found[k]; ok {
			res.Items = append(res.Items, it)
		}
	}
	if start+len(page) < len(ids) {
		res.Next = encodeSearchCursor(page[len(page)-1])
	}
	return res, nil
}

// MatchIDs are the ids of partition's records whose indexed words match query (words.Query of
// what was typed), newest first: the search's read without its page, for a caller that reads
// the records itself and keeps only some of them (the website's search, which shows a visitor
// only what the website shows). Its cost is a search's: a probe of each typed word, at once,
// then the rarest word's entries (at most SearchCountMax; capped says the read stopped there).
func (l Lister) MatchIDs(ctx context.Context, partition string, query []string) ([]string, bool, error) {
	if len(query) == 0 {
		return nil, false, nil
	}
	entries, err := l.driveSearch(ctx, partition, query)
	if err != nil {
		return nil, false, err
	}
	seen := map[string]bool{}
	var ids []string
	for _, e := range entries {
		if !seen[e.ID] && words.Match(query, e.Words) {
			seen[e.ID] = true
			ids = append(ids, e.ID)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return strings.Compare(b, a) })
	return ids, len(entries) >= SearchCountMax, nil
}

// searchProbe is how many entries of each typed word a search reads first, all at once (a page's
// worth): the word whose entries end within it is the rarest, and its entries are the search's.
// Only when every word is that common does the longest drive a longer read (up to
// SearchCountMax).
const searchProbe = 20

// driveSearch reads the entries a search matches among: those of its rarest word.
func (l Lister) driveSearch(ctx context.Context, partition string, query []string) ([]WordEntry, error) {
	type probe struct {
		entries []WordEntry
		next    dynamo.PagingKey
		err     error
	}
	probes := make([]probe, len(query))
	var wg sync.WaitGroup
	for i, w := range query {
		wg.Go(func() {
			p := &probes[i]
			p.next, p.err = l.wordQuery(partition, w).Limit(searchProbe).AllWithLastEvaluatedKey(ctx, &p.entries)
		})
	}
	wg.Wait()
	best := -1
	for i, p := range probes {
		if p.err != nil {
			return nil, store.Wrap("search "+partition, p.err)
		}
		if p.next == nil && (best < 0 || len(p.entries) < len(probes[best].entries)) {
			best = i
		}
	}
	if best >= 0 {
		return probes[best].entries, nil
	}
	// Every word has more than a probe's worth: read on from the longest word's probe.
	entries := probes[0].entries
	var more []WordEntry
	err := l.wordQuery(partition, query[0]).StartFrom(probes[0].next).Limit(SearchCountMax-len(entries)).All(ctx, &more)
	if err != nil {
		return nil, store.Wrap("search "+partition, err)
	}
	return append(entries, more...), nil
}

func (l Lister) wordQuery(partition, word string) *dynamo.Query {
	return l.St.Table.Get("PK", WordPartition(partition)).Range("SK", dynamo.BeginsWith, word).Project("PK", "SK", "id", "words")
}

// Search answers a word search of r.Partition (set by the caller: a partition that keeps a word
// index but is no collection, a form's submissions) as List answers a collection's.
func (l Lister) Search(ctx context.Context, r Request) (Result, error) {
	return l.searchWords(ctx, r, words.Query(r.Search))
}

func encodeSearchCursor(id string) string {
	return "w" + base64.RawURLEncoding.EncodeToString([]byte(id))
}

func decodeSearchCursor(s string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(s, "w"))
	if !strings.HasPrefix(s, "w") || err != nil || len(raw) > 40 {
		return "", false
	}
	return string(raw), true
}
