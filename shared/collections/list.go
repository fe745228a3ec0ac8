package collections

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// list serves GET /{collection}: one Query of the tenant's partition, then search, sort and page
// on the server. Admin collections hold hundreds to a few thousand small records per tenant, so
// this costs one round trip (more only past 1 MB) and allows search and sort on any listed field.
func (s *Service) list(w http.ResponseWriter, r *http.Request, c *Collection) error {
	defaultSort := c.DefaultSort
	if defaultSort == "" {
		defaultSort = "updatedAt"
	}
	lq, err := api.ParseListQuery(r, defaultSort, func(name string) bool {
		f, ok := c.Field(name)
		return (ok && f.List) || name == "createdAt" || name == "updatedAt"
	})
	if err != nil {
		return err
	}
	scope := auth.CallerFrom(r.Context()).Scope
	var all []Record
	if err := s.st.Table.Get("PK", scope.Collection(c.Key)).All(r.Context(), &all); err != nil {
		return store.Wrap("list "+c.Key, err)
	}
	unread := int64(0)
	matched := all[:0]
	for _, rec := range all {
		if c.Key == "notifications" && rec["read"] != true {
			unread++
		}
		if lq.Search == "" || strings.Contains(strings.ToLower(fmt.Sprint(rec[c.NameField])), lq.Search) {
			matched = append(matched, rec)
		}
	}
	sortRecords(matched, lq.Sort, lq.Desc, c.NameField)
	total := int64(len(matched))
	start, end := lq.Window(len(matched))
	out := make([]Record, 0, end-start)
	for _, rec := range matched[start:end] {
		out = append(out, listView(c, rec))
	}
	env := api.Envelope{Result: out, TotalCount: &total}
	if c.Key == "notifications" {
		env.UnreadCount = &unread
	}
	return api.JSON(w, http.StatusOK, env)
}

// sortRecords orders by field (numbers numerically, text case-insensitively, missing last), then
// by the name field ascending, then by id, so paging is stable.
func sortRecords(recs []Record, field string, desc bool, nameField string) {
	sort.SliceStable(recs, func(i, j int) bool {
		if c := compare(recs[i][field], recs[j][field]); c != 0 {
			if desc {
				return c > 0
			}
			return c < 0
		}
		if c := compare(recs[i][nameField], recs[j][nameField]); c != 0 {
			return c < 0
		}
		return toString(recs[i]["id"]) < toString(recs[j]["id"])
	})
}

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
