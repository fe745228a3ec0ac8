package public

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/words"
)

// ReadMax bounds what one public list reads: a single Query of the collection's partition,
// newest first, examining at most this many records (and at most 1 MB). Website collections
// (sliders, FAQs, staff, events) hold tens to hundreds of records; past ReadMax the oldest ones
// fall out of the public lists rather than a request reading without bound.
const ReadMax = 1000

// listSpec is one public list of the JSON API: which collection, and how a request narrows and
// orders it.
type listSpec struct {
	kind string
	// where adds DynamoDB filter conditions beyond status (a department, an album).
	where func(r *http.Request) (expr string, args []any, err error)
	// keep filters in memory what DynamoDB cannot compare (dates in two formats).
	keep func(r *http.Request, now time.Time) (func(Record) bool, error)
	// order returns how the list is ordered at now; nil keeps newest first.
	order func(now time.Time) func(a, b Record) bool
	// nameField is searched by ?search=.
	nameField string
}

// Query is one read of a public list: the Visible records of Kind that match, in order.
type Query struct {
	Kind string
	// Where adds DynamoDB filter conditions beyond status (a department, an album).
	Where string
	Args  []any
	// Keep filters in memory what DynamoDB cannot compare (dates in two formats).
	Keep func(Record) bool
	// Less orders the list; nil keeps newest first.
	Less func(a, b Record) bool
	// Search keeps records whose SearchField has, for each word of it, a word beginning with it
	// (accents, case and punctuation ignored, as the panel's lists search: shared/words).
	Search, SearchField string
}

// List reads the Visible records of q.Kind that match q, in q's order, localized for the site's
// language (localize; the hide policy leaves out those without a translation there, and a search
// reads the language's text): one Query of the collection's partition, newest first, bounded by
// ReadMax.
func (r *Reader) List(ctx context.Context, site *Site, q Query) ([]Record, error) {
	dq := r.st.Table.Get("PK", site.Scope.Collection(q.Kind)).Order(dynamo.Descending).
		Filter("'status' = ?", true).SearchLimit(ReadMax)
	if q.Where != "" {
		dq.Filter(q.Where, q.Args...)
	}
	var recs []Record
	if err := dq.All(ctx, &recs); err != nil {
		return nil, store.Wrap("public list "+q.Kind, err)
	}
	now := r.Now()
	search := words.Query(q.Search)
	matched := recs[:0]
	for _, rec := range recs {
		if !Visible(q.Kind, rec, now) || (q.Keep != nil && !q.Keep(rec)) {
			continue
		}
		rec, ok := r.localize(site, q.Kind, rec)
		if !ok {
			continue
		}
		if len(search) > 0 && !words.Match(search, words.Split(fmt.Sprint(rec[q.SearchField]))) {
			continue
		}
		matched = append(matched, rec)
	}
	if q.Less != nil {
		sort.SliceStable(matched, func(i, j int) bool { return q.Less(matched[i], matched[j]) })
	}
	return matched, nil
}

func (s *Service) list(spec listSpec) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error { return s.serveList(w, r, spec) })
}

// serveList answers one public list: the visible records that match, in the list's order, one
// page of them, with totalCount.
func (s *Service) serveList(w http.ResponseWriter, r *http.Request, spec listSpec) error {
	st := siteFrom(r.Context())
	lq, err := api.ParseListQuery(r, "", func(string) bool { return false })
	if err != nil {
		return err
	}
	q := Query{Kind: spec.kind, Search: lq.Search, SearchField: spec.nameField}
	if spec.where != nil {
		if q.Where, q.Args, err = spec.where(r); err != nil {
			return err
		}
	}
	now := s.read.Now()
	if spec.keep != nil {
		if q.Keep, err = spec.keep(r, now); err != nil {
			return err
		}
	}
	if spec.order != nil {
		q.Less = spec.order(now)
	}
	matched, err := s.read.List(r.Context(), st, q)
	if err != nil {
		return err
	}
	start, end := lq.Window(len(matched))
	if err := s.read.LoadImages(r.Context(), st, matched[start:end]); err != nil {
		return err
	}
	out := make([]Record, 0, end-start)
	for _, rec := range matched[start:end] {
		out = append(out, s.views.view(st, spec.kind, rec))
	}
	total := int64(len(matched))
	return writeJSON(w, r, api.Envelope{Result: out, TotalCount: &total})
}

// byPosition orders by PositionLess.
func byPosition(time.Time) func(a, b Record) bool { return PositionLess }

// PositionLess orders by position ascending (records without one last), then newest first.
func PositionLess(a, b Record) bool {
	pa, oka := a["position"].(float64)
	pb, okb := b["position"].(float64)
	switch {
	case oka && okb && pa != pb:
		return pa < pb
	case oka != okb:
		return oka
	}
	return fmt.Sprint(a["id"]) > fmt.Sprint(b["id"])
}

// byName orders by the name field, case-insensitively.
func byName(field string) func(time.Time) func(a, b Record) bool {
	return func(time.Time) func(a, b Record) bool { return NameLess(field) }
}

// NameLess orders by field, case-insensitively.
func NameLess(field string) func(a, b Record) bool {
	return func(a, b Record) bool {
		return strings.ToLower(fmt.Sprint(a[field])) < strings.ToLower(fmt.Sprint(b[field]))
	}
}

// idParam is a filter on a reference field from a query parameter (?department=): 400 when it
// is not an id.
func idParam(param, field string) func(r *http.Request) (string, []any, error) {
	return func(r *http.Request) (string, []any, error) {
		v := r.URL.Query().Get(param)
		if v == "" {
			return "", nil, nil
		}
		if !ids.Valid(v) {
			return "", nil, api.FieldError(http.StatusBadRequest, param, param+" must be an id.")
		}
		return "'" + field + "' = ?", []any{v}, nil
	}
}

// dayStart and dayEnd read a stored date ("2026-11-02" or RFC 3339): a date alone covers its
// whole day (UTC). ok is false for a missing or malformed value.
func dayStart(v any) (time.Time, bool) {
	s, _ := v.(string)
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true
	}
	t, err := time.Parse(time.RFC3339, s)
	return t, err == nil
}

func dayEnd(v any) (time.Time, bool) {
	s, _ := v.(string)
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.Add(24*time.Hour - time.Nanosecond), true
	}
	t, err := time.Parse(time.RFC3339, s)
	return t, err == nil
}

// popupShowing reports whether a popup's start and end dates include now (no end date:
// open-ended).
func popupShowing(rec Record, now time.Time) bool {
	start, ok := dayStart(rec["startDate"])
	if !ok || now.Before(start) {
		return false
	}
	if end, has := rec["endDate"]; !has || end == "" || end == nil {
		return true
	}
	end, ok := dayEnd(rec["endDate"])
	return ok && !now.After(end)
}

// eventEnd is when an event is over: the end of its end date, else of its start date.
func eventEnd(rec Record) time.Time {
	if t, ok := dayEnd(rec["endDate"]); ok {
		return t
	}
	t, _ := dayEnd(rec["startDate"])
	return t
}

// EventsWhen keeps the events that are not over yet at now (upcoming) or are (past).
func EventsWhen(upcoming bool, now time.Time) func(Record) bool {
	return func(rec Record) bool { return eventEnd(rec).Before(now) != upcoming }
}

// eventsWhen narrows events by ?when=upcoming (not over yet) or past (over); without it, all.
func eventsWhen(r *http.Request, now time.Time) (func(Record) bool, error) {
	switch r.URL.Query().Get("when") {
	case "":
		return nil, nil
	case "upcoming", "past":
		return EventsWhen(r.URL.Query().Get("when") == "upcoming", now), nil
	}
	return nil, api.FieldError(http.StatusBadRequest, "when", `when must be "upcoming" or "past".`)
}

// EventsOrder puts upcoming events first, soonest first, then past ones, latest first.
func EventsOrder(t time.Time) func(a, b Record) bool {
	return func(a, b Record) bool {
		ua, ub := !eventEnd(a).Before(t), !eventEnd(b).Before(t)
		if ua != ub {
			return ua
		}
		sa, _ := dayStart(a["startDate"])
		sb, _ := dayStart(b["startDate"])
		if sa.Equal(sb) {
			return fmt.Sprint(a["id"]) < fmt.Sprint(b["id"])
		}
		if ua {
			return sa.Before(sb)
		}
		return sa.After(sb)
	}
}
