// Package listing is the one list implementation of collections and media: the index attributes
// every listed record carries, and a query planner that answers the default order, name order,
// name search and page-by-page navigation by reading about one page of index entries, whatever
// the partition's size. Only a sort by some other column reads the whole partition, and only
// while the partition is small (SortAllMax).
package listing

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/campuscms/panel/shared/words"
)

// Index names. GSI1 orders a partition by updatedAt, GSI2 by name (and serves prefix search),
// GSI3 is sparse: only records in a facet (an unread notification, an image) carry its keys.
const (
	ByUpdated = "GSI1"
	ByName    = "GSI2"
	ByFacet   = "GSI3"
)

// TimeLayout is the fixed-width UTC form of updatedAt in GSI1SK. RFC3339Nano trims trailing
// zeros ("…:05.1Z" sorts after "…:05.12Z"), so it cannot be compared as a string.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// nameKeyRunes caps the name part of GSI2SK, well under DynamoDB's 1,024-byte sort-key limit
// even in 4-byte runes; longer names still sort and match by their first 200 characters.
const nameKeyRunes = 200

// TimeKey formats t for GSI1SK.
func TimeKey(t time.Time) string { return t.UTC().Format(TimeLayout) }

// UpdatedIndex is the attribute, and its value, that sorts record id by last update at t: what a
// write that moves a record's updatedAt without rewriting the whole item must set with it.
func UpdatedIndex(t time.Time, id string) (attr, value string) {
	return "GSI1SK", TimeKey(t) + "#" + id
}

// NameKey is the collation key of a name, as the name index sorts it: its words folded (accents
// and case ignored, punctuation dropped: words.Split) joined by "+", capped at 200 characters.
// "+" sorts below every letter and digit, and the key ends with "!" (nameEnd), lower still, so
// "Émile" sorts between "Emil" and "Emma", and "About Us" before "About Us (edited)". Search
// prefixes go through it too.
func NameKey(name string) string {
	s := strings.Join(words.Split(name), "+")
	if utf8.RuneCountInString(s) > nameKeyRunes {
		s = string([]rune(s)[:nameKeyRunes])
	}
	return s
}

// nameEnd separates a name key from the id in GSI2SK: below "+" and every letter and digit.
const nameEnd = "!"

// Record describes one listed record for its index attributes.
type Record struct {
	// Partition is the record's base-table PK, e.g. T#acme#faqs.
	Partition string
	ID        string
	UpdatedAt time.Time
	Name      string
	// Facet, when set, puts the record in the sparse GSI3 under Partition#Facet.
	Facet string
}

// Attributes returns the index attributes to write with the record on every create and patch.
// GSI3PK/GSI3SK are present only with a facet; a patch that leaves the facet must remove them
// (see FacetAttributes).
func Attributes(r Record) map[string]any {
	out := map[string]any{
		"GSI1PK": r.Partition,
		"GSI1SK": TimeKey(r.UpdatedAt) + "#" + r.ID, // UpdatedIndex
		"GSI2PK": r.Partition + "#NAME",
		"GSI2SK": NameKey(r.Name) + nameEnd + r.ID,
	}
	if r.Facet != "" {
		out["GSI3PK"], out["GSI3SK"] = r.Partition+"#"+r.Facet, r.ID
	}
	return out
}

// FacetAttributes are the names of the sparse index's attributes, removed when a record leaves
// its facet.
var FacetAttributes = []string{"GSI3PK", "GSI3SK"}

// ParseTime reads a stored RFC 3339 timestamp; a malformed one sorts as the zero time rather
// than failing a write.
func ParseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
