package collections

import (
	"fmt"
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// facetOf is the declared facet a record belongs to ("" for none).
func facetOf(c *Collection, rec Record) string {
	f := c.Facet
	if f.Name == "" {
		return ""
	}
	v, ok := rec[f.Field]
	if !ok || v == nil {
		field, _ := c.Field(f.Field)
		v = field.Default
	}
	if fmt.Sprint(v) != fmt.Sprint(f.Value) {
		return ""
	}
	return f.Name
}

// listFacet is the facet a list request asks for: ?{field}={value} of the declared facet
// (GET /notifications?read=false) lists only its records, from the sparse index.
func listFacet(c *Collection, r *http.Request) string {
	if f := c.Facet; f.Name != "" && r.URL.Query().Get(f.Field) == fmt.Sprint(f.Value) {
		return f.Name
	}
	return ""
}

// indexAttributes are the attributes the engine derives from a record as it will be stored: the
// listing index attributes, and a scheduled record's state (which it also sets in rec, so the
// write's answer, version and audit entry see it; schedule.go).
func indexAttributes(scope store.Scope, c *Collection, rec Record) map[string]any {
	attrs := listing.Attributes(listing.Record{Partition: scope.Collection(c.Key), ID: toString(rec["id"]),
		UpdatedAt: listing.ParseTime(toString(rec["updatedAt"])), Name: toString(rec[c.NameField]), Facet: facetOf(c, rec)})
	deriveSchedule(c, rec)
	if state, ok := rec[FieldSchedule]; ok {
		attrs[FieldSchedule] = state
	}
	return attrs
}

// setIndexAttributes adds the index attributes to a patch's update, and removes the facet's
// when the record leaves it.
func setIndexAttributes(upd *dynamo.Update, scope store.Scope, c *Collection, rec Record) {
	attrs := indexAttributes(scope, c, rec)
	for name, v := range attrs {
		upd.Set(name, v)
	}
	if _, ok := attrs[listing.FacetAttributes[0]]; !ok {
		for _, name := range listing.FacetAttributes {
			upd.Remove(name)
		}
	}
	removeScheduleAttribute(upd, c, attrs)
}

// addCounterChanges keeps the collection's counter (every collection has one: it is the list's
// totalCount), its facet's counter and a scheduled record's due item (addDueChanges) in the same
// transaction as the write. before is nil on create, after is nil on delete.
func (s *Service) addCounterChanges(wr *Write, before, after Record) {
	s.addDueChanges(wr, before, after)
	scope := wr.Caller.Scope
	switch {
	case before == nil && wr.countCap != nil:
		wr.add(s.st.AddToCounter(scope, wr.C.Key, 1).If("attribute_not_exists($) OR $ < ?", "count", "count", wr.countCap.max), wr.countCap.refusal)
	case before == nil:
		wr.add(s.st.AddToCounter(scope, wr.C.Key, 1), nil)
	case after == nil:
		wr.add(s.st.AddToCounter(scope, wr.C.Key, -1), nil)
	}
	var was, is string
	if before != nil {
		was = facetOf(wr.C, before)
	}
	if after != nil {
		is = facetOf(wr.C, after)
	}
	if was == is {
		return
	}
	if was != "" {
		wr.add(s.st.AddToCounter(scope, listing.CounterName(wr.C.Key, was), -1), nil)
	}
	if is != "" {
		wr.add(s.st.AddToCounter(scope, listing.CounterName(wr.C.Key, is), 1), nil)
	}
}
