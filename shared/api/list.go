package api

import (
	"net/http"
	"strconv"
	"strings"
)

// Page sizes a list accepts (DESIGN §2); 10 is the default.
var pageSizes = map[int]bool{5: true, 10: true, 20: true, 50: true, 100: true}

// MaxPage is the highest page a list accepts. With limit ≤ 100 the skip it implies stays far
// from int overflow, and no real paginator goes near it; past it is a 400, never a 500.
const MaxPage = 1_000_000

// ListQuery is a list request's paging, search and order: page (1-based), limit, search
// (lower-cased), sort and its direction.
type ListQuery struct {
	Page, Limit int
	Search      string
	Sort        string
	Desc        bool
	// Cursor is the opaque position of an adjacent page (nextCursor/prevCursor of the last
	// answer); empty when the caller jumps to a page by number.
	Cursor string
}

// ParseListQuery reads page, limit, search, sort and order with clear 400s. Without sort, the
// list is ordered by defaultSort, newest first; with sort (which sortable must accept), ascending
// unless order says otherwise.
func ParseListQuery(r *http.Request, defaultSort string, sortable func(field string) bool) (ListQuery, error) {
	q := r.URL.Query()
	lq := ListQuery{Page: 1, Limit: 10, Search: strings.ToLower(strings.TrimSpace(q.Get("search"))), Sort: defaultSort, Desc: true}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			return lq, BadRequest(map[string]string{"page": "Please enter a valid page!"})
		}
		lq.Page = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !pageSizes[n] {
			return lq, BadRequest(map[string]string{"limit": "limit must be one of 5, 10, 20, 50, 100."})
		}
		lq.Limit = n
	}
	if v := q.Get("sort"); v != "" {
		if !sortable(v) {
			return lq, BadRequest(map[string]string{"sort": "Cannot sort by " + strconv.Quote(v) + "."})
		}
		lq.Sort, lq.Desc = v, false
	}
	lq.Cursor = q.Get("cursor")
	switch q.Get("order") {
	case "":
	case "asc":
		lq.Desc = false
	case "desc":
		lq.Desc = true
	default:
		return lq, BadRequest(map[string]string{"order": `order must be "asc" or "desc".`})
	}
	return lq, nil
}

// Skip is how many entries come before the requested page.
func (lq ListQuery) Skip() int { return (lq.Page - 1) * lq.Limit }

// Window returns the bounds of the requested page within n matching items.
func (lq ListQuery) Window(n int) (start, end int) {
	start = min(lq.Skip(), n)
	return start, min(start+lq.Limit, n)
}
