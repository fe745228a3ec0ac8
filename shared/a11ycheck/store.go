package a11ycheck

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/store"
)

// Stored findings. A record of a collection that reaches the website, published and with
// findings, has one index item beside its own: partition T#{t}#A11Y, sort key {kind}#{id},
// holding its title and findings; a record without findings (or not published) has none. The
// counter item COUNT#a11y (the tenant's root partition) holds how many records have findings
// (count) and how many findings they have (findings). The write of the record moves both in its
// own transaction (Observe), so they are exact under every create, update, delete and restore;
// the report is a Query of the partition, never a scan.

// partitionName is the index partition's name under the tenant.
const partitionName = "A11Y"

// CounterName is the counter of records with findings (store.Scope.CounterKey).
const CounterName = "a11y"

// SiteKinds are the collections whose records reach the website (public.Visible reads them, the
// website shows them): their saves are checked and their findings stored.
var SiteKinds = map[string]bool{
	"pages": true, "notices": true, "events": true, "albums": true, "photos": true, "testimonials": true, "sliders": true,
	"resources": true, "departments": true, "staff-members": true, "popups": true, "faqs": true, "custom-forms": true,
	"header": true, "footer": true,
}

// siteSettingsKey is the sort key of the site settings singleton (collections.json site-settings).
const siteSettingsKey = "SITE"

// Entry is a record's index item: what the report lists.
type Entry struct {
	PK       string    `dynamo:"PK" json:"-"`
	SK       string    `dynamo:"SK" json:"-"`
	Kind     string    `dynamo:"kind" json:"kind"`
	ID       string    `dynamo:"id" json:"id"`
	Title    string    `dynamo:"title" json:"title"`
	Findings []Finding `dynamo:"findings" json:"findings"`
	// Rules are the distinct rules of its findings (the report's ?rule filter).
	Rules     []string `dynamo:"rules,set" json:"-"`
	UpdatedAt string   `dynamo:"updatedAt" json:"updatedAt"`
}

// entryKey is the key of record id of kind's index item.
func entryKey(scope store.Scope, kind, id string) store.Key {
	return store.Key{PK: scope.Partition(partitionName), SK: kind + "#" + id}
}

// Published reports whether rec of kind is shown on the website, or will be by its schedule: a
// singleton always; a record when it is active (status), and a page when it is also published
// (isPublished). A record whose unpublishAt has passed is not.
func Published(kind string, rec collections.Record, now time.Time) bool {
	if rec == nil {
		return false
	}
	if kind == "header" || kind == "footer" {
		return true
	}
	if v, ok := rec["status"]; ok && v != true {
		return false
	}
	if kind == "pages" && rec["isPublished"] != true {
		return false
	}
	return collections.ScheduleAt(rec, now) != collections.ScheduleExpired
}

// ErrBlocked is the message of a save refused for its accessibility errors.
const ErrBlocked = "This page has accessibility errors. Fix them or turn off blocking in Site settings."

// Observe is the collections observer (collections.Linked.Observers) that checks every write of
// a record that reaches the website and keeps its index item and the counters in the write's own
// transaction (Write.Also). A signed-in user's save of a published record with errors is refused
// (422, with the findings) while the site settings block publishing with accessibility errors;
// the schedule, a restore and a delete never are.
func Observe(ctx context.Context, w *collections.Write) error {
	kind := w.C.Key
	if !SiteKinds[kind] {
		return nil
	}
	after, err := w.After(ctx)
	if err != nil {
		return err
	}
	st, scope := w.Store(), w.Caller.Scope
	now := time.Now()
	var findings []Finding
	if Published(kind, after, now) {
		findings, err = Check(ctx, FromValues(w.C, after), StoreResolver{St: st, Scope: scope, Now: func() time.Time { return now }})
		if err != nil {
			return err
		}
	}
	if Errors(findings) > 0 && w.Caller.Session != nil && w.RestoredFrom == 0 {
		block, err := blocking(ctx, st, scope)
		if err != nil {
			return err
		}
		if block {
			return &api.Error{Status: http.StatusUnprocessableEntity, Message: ErrBlocked, Extra: map[string]any{"findings": findings}}
		}
	}
	rec := after
	if rec == nil {
		rec = w.Old
	}
	id, _ := rec["id"].(string)
	if kind == "header" || kind == "footer" {
		id = kind
	}
	if id == "" {
		return nil
	}
	k := entryKey(scope, kind, id)
	var old Entry
	err = st.Get(ctx, k, &old)
	had := err == nil
	if err != nil && !store.IsNotFound(err) {
		return err
	}
	dRecords, dFindings := int64(0), int64(len(findings)-len(old.Findings))
	switch {
	case len(findings) == 0 && !had:
		return nil
	case len(findings) == 0:
		w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
		dRecords = -1
	default:
		e := Entry{PK: k.PK, SK: k.SK, Kind: kind, ID: id, Title: titleOf(w.C, rec), Findings: findings, Rules: rulesOf(findings),
			UpdatedAt: now.UTC().Format(time.RFC3339)}
		if had && sameEntry(old, e) {
			return nil
		}
		w.Also(st.Table.Put(e), nil)
		if !had {
			dRecords = 1
		}
	}
	if dRecords != 0 || dFindings != 0 {
		pk, sk := scope.CounterKey(CounterName)
		w.Also(st.Table.Update("PK", pk).Range("SK", sk).Add("count", dRecords).Add("findings", dFindings), nil)
	}
	return nil
}

// blocking reads the site settings' blockOnAccessibilityErrors (one GetItem of one field).
func blocking(ctx context.Context, st *store.Store, scope store.Scope) (bool, error) {
	var s struct {
		Block bool `dynamo:"blockOnAccessibilityErrors"`
	}
	err := st.Get(ctx, store.Key{PK: scope.Root(), SK: siteSettingsKey}, &s)
	if store.IsNotFound(err) {
		return false, nil
	}
	return s.Block, err
}

func titleOf(c *collections.Collection, rec collections.Record) string {
	if c.Singleton != "" {
		return c.Title
	}
	s, _ := rec[c.NameField].(string)
	return clip(s, 200)
}

func rulesOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	slices.Sort(out)
	return out
}

// sameEntry reports whether two index items say the same (times aside).
func sameEntry(a, b Entry) bool {
	if a.Title != b.Title || len(a.Findings) != len(b.Findings) {
		return false
	}
	for i := range a.Findings {
		x, y := a.Findings[i], b.Findings[i]
		if x.Rule != y.Rule || x.Severity != y.Severity || x.Message != y.Message || x.Field != y.Field || x.Context != y.Context ||
			(x.Section == nil) != (y.Section == nil) || (x.Section != nil && *x.Section != *y.Section) {
			return false
		}
	}
	return true
}

// Counts are the tenant's counters: records with findings, and their findings.
type Counts struct {
	Records  int64 `dynamo:"count" json:"totalCount"`
	Findings int64 `dynamo:"findings" json:"findingsCount"`
}

// ReadCounts reads the counter item (strongly consistent; zero when never written).
func ReadCounts(ctx context.Context, st *store.Store, scope store.Scope) (Counts, error) {
	pk, sk := scope.CounterKey(CounterName)
	var c Counts
	err := st.Get(ctx, store.Key{PK: pk, SK: sk}, &c)
	if store.IsNotFound(err) {
		return Counts{}, nil
	}
	return c, err
}
