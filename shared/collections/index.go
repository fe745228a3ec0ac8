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

// indexAttributes are the attributes the engine derives from a record of kind k as it will be
// stored: the listing index attributes, and a scheduled record's state (which it also sets in
// rec, so the write's answer, version and audit entry see it; schedule.go).
func indexAttributes(scope store.Scope, k Kind, rec Record) map[string]any {
	attrs := listing.Attributes(listing.Record{Partition: k.partition(scope, rec), ID: toString(rec["id"]),
		UpdatedAt: listing.ParseTime(toString(rec["updatedAt"])), Name: toString(rec[k.NameField]), Facet: k.facet(rec)})
	deriveSchedule(k.Collection, rec)
	if state, ok := rec[FieldSchedule]; ok {
		attrs[FieldSchedule] = state
	}
	return attrs
}

// setIndexAttributes adds the index attributes to a patch's update, and removes those the
// record no longer carries (indexChanges).
func setIndexAttributes(upd *dynamo.Update, scope store.Scope, k Kind, rec Record) {
	attrs, removed := indexChanges(scope, k, rec, true)
	for name, v := range attrs {
		upd.Set(name, v)
	}
	if len(removed) > 0 {
		upd.Remove(removed...)
	}
}

// indexChanges are the index attributes a record of kind k carries as stored (indexAttributes)
// and, for an update, those it may have carried and no longer does: its facet's when it is in
// none, a scheduled record's state when it has none.
func indexChanges(scope store.Scope, k Kind, rec Record, updating bool) (map[string]any, []string) {
	attrs := indexAttributes(scope, k, rec)
	if !updating {
		return attrs, nil
	}
	var removed []string
	if _, ok := attrs[listing.FacetAttributes[0]]; !ok {
		removed = append(removed, listing.FacetAttributes...)
	}
	if _, ok := attrs[FieldSchedule]; k.Scheduled && !ok {
		removed = append(removed, FieldSchedule)
	}
	return attrs, removed
}

// addCounterChanges keeps the counters a write moves (counterChanges) and a scheduled record's due
// item (addDueChanges) in the same transaction as the write; a create's move of its collection's
// counter is conditioned on the plan's limit (enforcePlan). before is nil on create, after is nil
// on delete.
func (s *Service) addCounterChanges(wr *Write, before, after Record) {
	s.addDueChanges(wr, before, after)
	k := wr.Kind()
	for _, c := range counterChanges(k, before, after) {
		switch {
		case wr.effects != nil:
			wr.effects.Counters = append(wr.effects.Counters, c)
		case c.Name == k.Key && c.Delta > 0 && wr.countCap != nil:
			wr.add(s.st.AddToCounter(wr.Caller.Scope, c.Name, c.Delta).If("attribute_not_exists($) OR $ < ?", "count", "count", wr.countCap.max), wr.countCap.refusal)
		default:
			wr.add(s.st.AddToCounter(wr.Caller.Scope, c.Name, c.Delta), nil)
		}
	}
}
