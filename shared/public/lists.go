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
)

// ReadMax bounds what one public list reads: a single Query of the collection's partition,
// newest first, examining at most this many records (and at most 1 MB). Website collections
// (sliders, FAQs, staff, events) hold tens to hundreds of records; past ReadMax the oldest ones
// fall out of the public lists rather than a request reading without bound.
const ReadMax = 1000

// listSpec is one public list: which collection, what else narrows it, how it is ordered.
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

// readActive reads the active records of kind that match where: one Query, newest first.
func (s *Service) readActive(ctx context.Context, scope store.Scope, kind, where string, args []any) ([]Record, error) {
	q := s.st.Table.Get("PK", scope.Collection(kind)).Order(dynamo.Descending).
		Filter("'status' = ?", true).SearchLimit(ReadMax)
	if where != "" {
		q.Filter(where, args...)
	}
	var recs []Record
	if err := q.All(ctx, &recs); err != nil {
		return nil, store.Wrap("public list "+kind, err)
	}
	return recs, nil
}

func (s *Service) list(spec listSpec) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error { return s.serveList(w, r, spec) })
}

// serveList answers one public list: the active records that match, in the list's order, one
// page of them, with totalCount.
func (s *Service) serveList(w http.ResponseWriter, r *http.Request, spec listSpec) error {
	st := siteFrom(r.Context())
	lq, err := api.ParseListQuery(r, "", func(string) bool { return false })
	if err != nil {
		return err
	}
	var where string
	var args []any
	if spec.where != nil {
		if where, args, err = spec.where(r); err != nil {
			return err
		}
	}
	now := s.now().UTC()
	keep := func(Record) bool { return true }
	if spec.keep != nil {
		if keep, err = spec.keep(r, now); err != nil {
			return err
		}
	}
	recs, err := s.readActive(r.Context(), st.scope, spec.kind, where, args)
	if err != nil {
		return err
	}
	matched := recs[:0]
	for _, rec := range recs {
		if rec["status"] != true || !keep(rec) {
			continue
		}
		if lq.Search != "" && !strings.Contains(strings.ToLower(fmt.Sprint(rec[spec.nameField])), lq.Search) {
			continue
		}
		matched = append(matched, rec)
	}
	if spec.order != nil {
		less := spec.order(now)
		sort.SliceStable(matched, func(i, j int) bool { return less(matched[i], matched[j]) })
	}
	start, end := lq.Window(len(matched))
	out := make([]Record, 0, end-start)
	for _, rec := range matched[start:end] {
		out = append(out, s.views.view(st, spec.kind, rec))
	}
	total := int64(len(matched))
	return writeJSON(w, r, api.Envelope{Result: out, TotalCount: &total})
}

// byPosition orders by position ascending (records without one last), then newest first.
func byPosition(time.Time) func(a, b Record) bool { return positionLess }

func positionLess(a, b Record) bool {
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
	return func(time.Time) func(a, b Record) bool {
		return func(a, b Record) bool {
			return strings.ToLower(fmt.Sprint(a[field])) < strings.ToLower(fmt.Sprint(b[field]))
		}
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

// popupShowing keeps the popups whose start and end dates include now (no end date: open-ended).
func popupShowing(_ *http.Request, now time.Time) (func(Record) bool, error) {
	return func(rec Record) bool {
		start, ok := dayStart(rec["startDate"])
		if !ok || now.Before(start) {
			return false
		}
		if _, has := rec["endDate"]; !has {
			return true
		}
		end, ok := dayEnd(rec["endDate"])
		return ok && !now.After(end)
	}, nil
}

// eventEnd is when an event is over: the end of its end date, else of its start date.
func eventEnd(rec Record) time.Time {
	if t, ok := dayEnd(rec["endDate"]); ok {
		return t
	}
	t, _ := dayEnd(rec["startDate"])
	return t
}

// eventsWhen narrows events by ?when=upcoming (not over yet) or past (over); without it, all.
func eventsWhen(r *http.Request, now time.Time) (func(Record) bool, error) {
	switch r.URL.Query().Get("when") {
	case "":
		return func(Record) bool { return true }, nil
	case "upcoming":
		return func(rec Record) bool { return !eventEnd(rec).Before(now) }, nil
	case "past":
		return func(rec Record) bool { return eventEnd(rec).Before(now) }, nil
	}
	return nil, api.FieldError(http.StatusBadRequest, "when", `when must be "upcoming" or "past".`)
}

// eventsOrder puts upcoming events first, soonest first, then past ones, latest first.
func eventsOrder(t time.Time) func(a, b Record) bool {
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
