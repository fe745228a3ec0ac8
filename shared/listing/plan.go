package listing

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
)

// SortAllMax is the largest partition a sort by a non-indexed column may read whole. Past it
// such a sort is a 400 naming the columns that are indexed.
const SortAllMax = 1000

// SearchCountMax caps the count of a name search's matches: counting reads every match's
// index entry, so a search as broad as "a" over 100,000 records would otherwise read a
// fifth of them. Past the cap, totalCount is SearchCountMax and totalCountCapped is true.
const SearchCountMax = 1000

// plan is how one list request is answered: a query of the base table or of one index, or
// (index == memory) a read of the whole partition, sorted in memory.
type plan struct {
	partition string // base-table PK of the records
	index     string // "" for the base table, an index name, or memory
	hash      string // the hash key value queried
	prefix    string // begins_with on the index's range key (name search)
	desc      bool
}

const memory = "memory"

func (p plan) hashAttr() string {
	if p.index == "" {
		return "PK"
	}
	return p.index + "PK"
}

// keyAttrs are the attributes of a start key in this query: the index's keys and the table's.
func (p plan) keyAttrs() []string {
	if p.index == "" {
		return []string{"PK", "SK"}
	}
	return []string{p.index + "PK", p.index + "SK", "PK", "SK"}
}

func (p plan) rangeAttr() string {
	if p.index == "" {
		return "SK"
	}
	return p.index + "SK"
}

// choose picks the query for a request. Search and name order use GSI2; updatedAt uses GSI1;
// createdAt uses the base table (ULID sort keys are creation-ordered); a facet uses GSI3 in
// creation order. Anything else is the in-memory path.
func choose(r Request) plan {
	p := plan{partition: r.Partition, desc: r.Desc}
	explicitOther := r.Sort != r.NameAttr && r.Sort != "updatedAt" && r.Sort != "createdAt"
	switch {
	case explicitOther:
		p.index = memory
	case r.Facet != "" && (r.Search != "" || r.Sort != "createdAt"):
		p.index = memory
	case r.Facet != "":
		p.index, p.hash = ByFacet, r.Partition+"#"+r.Facet
	case r.Search != "":
		// Matches come in name order: GSI2 holds them together, nothing else does.
		p.index, p.hash, p.prefix = ByName, r.Partition+"#NAME", NameKey(r.Search)
		p.desc = r.Sort == r.NameAttr && r.Desc
	case r.Sort == r.NameAttr:
		p.index, p.hash = ByName, r.Partition+"#NAME"
	case r.Sort == "updatedAt":
		p.index, p.hash = ByUpdated, r.Partition
	default:
		p.index, p.hash = "", r.Partition
	}
	return p
}

// tooLargeToSort answers a sort by a non-indexed column over a partition past SortAllMax.
func tooLargeToSort(r Request) *api.Error {
	cols := []string{"updatedAt", "createdAt", r.NameAttr}
	return api.FieldError(http.StatusBadRequest, "sort", fmt.Sprintf(
		"Sorting by %s is available up to %d records; this list has more. Sort by %s instead.",
		r.Sort, SortAllMax, strings.Join(cols, ", ")))
}

// Sortable reports the columns a list of the given size can sort by without reading all of
// it: nil when every listed column can still be sorted.
func Sortable(nameAttr string, count int64) []string {
	if count <= SortAllMax {
		return nil
	}
	return []string{"updatedAt", "createdAt", nameAttr}
}
