package visits

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
)

// MaxDays is the longest period a report covers.
const MaxDays = 90

// TopSize is how many pages and referring sites a report lists.
const TopSize = 10

// Report is a tenant's views over its last days (GET /visits).
type Report struct {
	// Days has one entry per day, oldest first, the last today in TimeZone; a day without views
	// is 0.
	Days []DayViews `json:"days"`
	// TopPages are the most viewed paths over the period, most first (Other for the views past
	// a day's bound).
	TopPages []PageViews `json:"topPages"`
	// TopReferrers are the sites most views came from, most first.
	TopReferrers []HostViews `json:"topReferrers"`
	// TimeZone is the zone whose days these are (the site settings' time zone).
	TimeZone string `json:"timeZone"`
}

// DayViews are one day's views.
type DayViews struct {
	Date  string `json:"date"`
	Views int64  `json:"views"`
}

// PageViews are a path's views.
type PageViews struct {
	Path  string `json:"path"`
	Views int64  `json:"views"`
}

// HostViews are the views a referring site sent.
type HostViews struct {
	Host  string `json:"host"`
	Views int64  `json:"views"`
}

type countItem struct {
	SK    string `dynamo:"SK"`
	Views int64  `dynamo:"views"`
}

// Read reports the tenant's views of the days days up to today in zone (nil: UTC), 1 ≤ days ≤
// MaxDays: one Query of the days' items (paged by DynamoDB at 1 MB), eventually consistent, as
// counts a second old change nothing on a chart. Its cost is bounded by the items a day may
// hold (2 × (MaxItems + shards) + 2).
func Read(ctx context.Context, st *store.Store, scope store.Scope, days int, now time.Time, zone *time.Location) (Report, error) {
	days = min(max(days, 1), MaxDays)
	if zone == nil {
		zone = time.UTC
	}
	// Dates as UTC midnights, so adding days is calendar arithmetic whatever the zone's DST.
	today, _ := time.Parse(time.DateOnly, dayIn(now, zone))
	from := today.AddDate(0, 0, -(days - 1))
	var items []countItem
	err := st.Table.Get("PK", scope.Partition(Partition)).
		Range("SK", dynamo.Between, from.Format(time.DateOnly)+"#", today.Format(time.DateOnly)+"#~").
		Project("SK", "views").Consistent(false).All(ctx, &items)
	if err != nil {
		return Report{}, store.Wrap("read visits", err)
	}
	perDay := map[string]int64{}
	pages := map[string]int64{}
	hosts := map[string]int64{}
	for _, it := range items {
		day, kind, name, ok := parseSK(it.SK)
		if !ok {
			continue
		}
		switch kind {
		case kindPath:
			perDay[day] += it.Views
			pages[name] += it.Views
		case kindRef:
			hosts[name] += it.Views
		}
	}
	out := Report{Days: make([]DayViews, 0, days), TopPages: []PageViews{}, TopReferrers: []HostViews{}, TimeZone: zone.String()}
	for d := from; !d.After(today); d = d.AddDate(0, 0, 1) {
		date := d.Format(time.DateOnly)
		out.Days = append(out.Days, DayViews{Date: date, Views: perDay[date]})
	}
	for _, e := range top(pages) {
		out.TopPages = append(out.TopPages, PageViews{Path: e.name, Views: e.views})
	}
	for _, e := range top(hosts) {
		out.TopReferrers = append(out.TopReferrers, HostViews{Host: e.name, Views: e.views})
	}
	return out, nil
}

// parseSK splits a count item's sort key; ok is false for the bound's own items.
func parseSK(sk string) (day, kind, name string, ok bool) {
	parts := strings.SplitN(sk, "#", 4)
	if len(parts) != 4 || (parts[1] != kindPath && parts[1] != kindRef) {
		return "", "", "", false
	}
	name = parts[3]
	if name == other {
		name = Other
	}
	return parts[0], parts[1], name, true
}

type entry struct {
	name  string
	views int64
}

// top is the TopSize names with the most views, most first, ties by name.
func top(m map[string]int64) []entry {
	out := make([]entry, 0, len(m))
	for name, n := range m {
		if n > 0 {
			out = append(out, entry{name, n})
		}
	}
	slices.SortFunc(out, func(a, b entry) int {
		if c := cmp.Compare(b.views, a.views); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return out[:min(len(out), TopSize)]
}
