package public

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// SearchKinds are the collections the website's search looks in, in the order it shows them.
var SearchKinds = []string{pagesKind, "events", "notices", "staff-members", "resources", "faqs"}

// searchExamineMax bounds the records one Search reads to find a page of visible ones: matches a
// visitor may not see (a draft, an inactive record, one not yet published) are read and passed
// over, at most this many per call; past it the page ends early and More says where to go on.
const searchExamineMax = 100

// searchRounds bounds the batch reads of one Search.
const searchRounds = 3

// SearchQuery is one read of a kind's search results.
type SearchQuery struct {
	Kind string
	// Words are the typed words (words.Query): every one must begin a word of a record's
	// indexed name (the panel's list search and its word index: shared/listing/words.go).
	Words []string
	// After is the id of the last result already shown (SearchPage.More); "" from the newest.
	After string
	// Limit is how many results the page shows.
	Limit int
}

// SearchPage is one page of a kind's search results.
type SearchPage struct {
	// Records are the matches a visitor may see (Visible; a page also indexable), newest first.
	Records []Record
	// More is the After of the next page; "" when there is none.
	More string
}

// Search finds the visible records of q.Kind whose indexed words match q.Words, newest first, a
// page at a time, through the word index the panel's search keeps in each write's transaction:
// what is trashed or deleted has no entries, and a record of another tenant lives under another
// key. Its cost: the index's read (a probe of each word at once, then the rarest word's entries,
// at most listing.SearchCountMax), then at most searchRounds batch reads of at most
// searchExamineMax records in all, the first of about one page.
func (r *Reader) Search(ctx context.Context, site *Site, q SearchQuery) (SearchPage, error) {
	var out SearchPage
	c, ok := r.reg[q.Kind]
	if !ok || c.Singleton != "" {
		return out, fmt.Errorf("public: search: %q is no collection of records", q.Kind)
	}
	if q.Limit <= 0 || len(q.Words) == 0 {
		return out, nil
	}
	partition := site.Scope.Collection(q.Kind)
	ids, _, err := listing.Lister{St: r.st}.MatchIDs(ctx, partition, q.Words)
	if err != nil {
		return out, err
	}
	if q.After != "" {
		// Newest first: the page goes on from the first id older than the last one shown, so a
		// record deleted in between loses nobody their place.
		i, _ := slices.BinarySearchFunc(ids, q.After, func(id, after string) int {
			switch {
			case id > after:
				return -1
			case id < after:
				return 1
			}
			return 0
		})
		for i < len(ids) && ids[i] >= q.After {
			i++
		}
		ids = ids[i:]
	}
	now := r.Now()
	examined := 0
	for round := 0; round < searchRounds && examined < len(ids) && examined < searchExamineMax; round++ {
		// One more than the page, to know whether there is more: at first exactly that, then
		// twice what is still missing (the matches so far were partly hidden ones).
		want := q.Limit + 1 - len(out.Records)
		if round > 0 {
			want *= 2
		}
		n := min(want, len(ids)-examined, searchExamineMax-examined)
		batch := ids[examined : examined+n]
		keys := make([]store.Key, len(batch))
		for i, id := range batch {
			keys[i] = store.Key{PK: partition, SK: id}
		}
		found, err := r.st.GetMany(ctx, keys...)
		if err != nil {
			return out, err
		}
		for _, k := range keys {
			examined++
			var rec Record
			if ok, err := store.Decode(found, k, &rec); err != nil {
				return out, err
			} else if !ok || !Searchable(q.Kind, rec, now) {
				continue
			}
			if rec, ok = r.localize(site, q.Kind, rec); !ok {
				continue
			}
			if len(out.Records) == q.Limit {
				// A visible one past the page: there is more, after the page's last.
				out.More = fmt.Sprint(out.Records[len(out.Records)-1]["id"])
				return out, nil
			}
			out.Records = append(out.Records, rec)
		}
	}
	if examined < len(ids) && examined > 0 {
		// The reads stopped before the matches did: the next page goes on from the last read.
		out.More = ids[examined-1]
	}
	return out, nil
}

// Searchable is whether the website's search shows a record: Visible, and a page not marked
// noIndex (its staff asked search engines to leave it out; the site's own search does too).
func Searchable(kind string, rec Record, now time.Time) bool {
	if !Visible(kind, rec, now) {
		return false
	}
	return kind != pagesKind || rec["noIndex"] != true
}
