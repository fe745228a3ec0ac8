package a11ycheck

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/guregu/dynamo/v2"

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

// Entry is a record's index item: what the report lists.
type Entry struct {
	PK       string    `dynamo:"PK" json:"-"`
	SK       string    `dynamo:"SK" json:"-"`
	Kind     string    `dynamo:"kind" json:"kind"`
	ID       string    `dynamo:"id" json:"id"`
	Title    string    `dynamo:"title" json:"title"`
	Findings []Finding `dynamo:"findings" json:"findings"`
	// Links are its links to other sites, with what the scheduled check last found (links.go).
	Links []LinkState `dynamo:"links,omitempty" json:"-"`
	// Total is how many findings it counts for: its findings and its broken or redirected links.
	Total int `dynamo:"total" json:"-"`
	// Rules are the distinct rules it is reported under (the report's ?rule filter).
	Rules     []string `dynamo:"rules,set,omitempty" json:"-"`
	UpdatedAt string   `dynamo:"updatedAt" json:"updatedAt"`
	// Rev moves with every write of the item: the link check writes its results only over the
	// item it read.
	Rev int `dynamo:"rev" json:"-"`
	// GSI3PK/GSI3SK index an item with links in the link check's due index (links.go).
	DuePK string `dynamo:"GSI3PK,omitempty" json:"-"`
	DueSK string `dynamo:"GSI3SK,omitempty" json:"-"`
}

// AllFindings are its findings and its links' (a broken link: an error; a redirected one: a
// warning).
func (e Entry) AllFindings() []Finding {
	out := append([]Finding{}, e.Findings...)
	for _, l := range e.Links {
		if f, ok := l.finding(); ok {
			out = append(out, f)
		}
	}
	return out
}

// settle works out what the item counts for and where it is due, from its findings and links.
func (e *Entry) settle(now time.Time) {
	all := e.AllFindings()
	e.Total = len(all)
	e.Rules = rulesOf(all)
	e.DuePK, e.DueSK = "", ""
	if next, ok := nextCheck(e.Links, now); ok {
		e.DuePK, e.DueSK = linkDueIndex, next.UTC().Format(time.RFC3339)+"#"+e.PK+"#"+e.SK
	}
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

// SettingBlock is the Site settings' "Block publishing of pages with accessibility errors".
const SettingBlock = "blockOnAccessibilityErrors"

// ErrBlocked is the message of a save refused for its accessibility errors.
const ErrBlocked = "This page has accessibility errors. Fix them or turn off blocking in Site settings."

// Observe is the collections observer (collections.Linked.Observers) that checks every write of
// a record that reaches the website and keeps its index item and the counters in the write's own
// transaction (Write.Also). A signed-in user's save of a published record with errors is refused
// (422, with the findings) while the site settings block publishing with accessibility errors;
// the schedule, a restore and a delete never are.
func Observe(ctx context.Context, w *collections.Write) error {
	kind := w.C.Key
	if !w.C.OnSite {
		return nil
	}
	after, err := w.After(ctx)
	if err != nil {
		return err
	}
	st, scope := w.Store(), w.Caller.Scope
	now := time.Now()
	var findings []Finding
	var links []Link
	if Published(kind, after, now) {
		findings, links, err = CheckWithLinks(ctx, FromValues(w.C, after), StoreResolver{St: st, Scope: scope, Now: func() time.Time { return now }})
		if err != nil {
			return err
		}
	}
	if Errors(findings) > 0 && w.Caller.Session != nil && w.RestoredFrom == 0 {
		block, err := w.SiteFlag(ctx, SettingBlock)
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
	had := false
	// A created record has no entry yet (a delete removes its record's), so a create reads
	// nothing more than it did before the checker: its guard batch and its transaction.
	if w.Action != collections.ActionCreate {
		err = st.Get(ctx, k, &old)
		had = err == nil
		if err != nil && !store.IsNotFound(err) {
			return err
		}
	}
	e := Entry{PK: k.PK, SK: k.SK, Kind: kind, ID: id, Title: titleOf(w.C, rec), Findings: findings, Links: keepChecked(links, old.Links),
		UpdatedAt: now.UTC().Format(time.RFC3339), Rev: old.Rev + 1}
	e.settle(now)
	if e.Findings == nil {
		e.Findings = []Finding{}
	}
	switch {
	case len(findings) == 0 && len(links) == 0 && !had:
		return nil
	case len(findings) == 0 && len(links) == 0:
		w.Also(st.Table.Delete("PK", k.PK).Range("SK", k.SK), nil)
		e.Total = 0
	case had && sameEntry(old, e):
		return nil
	default:
		w.Also(st.Table.Put(e), nil)
	}
	if u := countsUpdate(st, scope, old, e); u != nil {
		w.Also(u, nil)
	}
	return nil
}

// countsUpdate moves the counters from what item old counted for to what item e does (nil when
// nothing moves): a record counts once while it has findings, and each finding once.
func countsUpdate(st *store.Store, scope store.Scope, old, e Entry) *dynamo.Update {
	b := func(n int) int64 {
		if n > 0 {
			return 1
		}
		return 0
	}
	dRecords, dFindings := b(e.Total)-b(old.Total), int64(e.Total-old.Total)
	if dRecords == 0 && dFindings == 0 {
		return nil
	}
	pk, sk := scope.CounterKey(CounterName)
	return st.Table.Update("PK", pk).Range("SK", sk).Add("count", dRecords).Add("findings", dFindings)
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
	if a.Title != b.Title || len(a.Findings) != len(b.Findings) || len(a.Links) != len(b.Links) || a.Total != b.Total {
		return false
	}
	for i := range a.Links {
		x, y := a.Links[i], b.Links[i]
		if x.URL != y.URL || x.Field != y.Field || x.Status != y.Status || x.CheckedAt != y.CheckedAt {
			return false
		}
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
