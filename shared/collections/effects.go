package collections

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// Side effects: what records an accepted write beside the record's own item. The kept version
// of the state it replaces (history.go), its audit entry (audit.go), its word index entries
// (words.go), the reference counts it moves, its collection's and facet's counters and a scheduled
// record's due item (index.go, schedule.go), and the index attributes its own item carries. One
// function works them out, effects, for every writer: the engine's commit (commit.go) calls it
// on each write of a declared collection, and SideEffects gives them to the writers that keep
// their own item outside the engine (a profile change, two-factor changes, the operator's
// password and passcode resets, mark-read, media, the menu tree, form submissions, tenant
// creation and import, reindexing), which put them in their own transaction. So a writer never
// spells an index attribute, a word entry, a counter, a version or an audit entry by hand.

// Kind is a kind of record whose writes the engine records: a declared collection (KindOf), or
// records kept beside the declared ones, which their owners describe in Go (media, the menu tree,
// form submissions). The declaration says what the engine derives: the name field and search
// fields (index attributes, words, the trash's title), the facet, the fields a version keeps
// (never a password), references and schedule. The funcs replace one part of it where such
// records differ.
type Kind struct {
	*Collection
	// FacetOf replaces the declared facet: the facet a stored record belongs to ("" for none);
	// media has one per media type.
	FacetOf func(rec Record) string
	// WordsOf replaces the search fields: the words a stored record is found by (a submission,
	// by all its values).
	WordsOf func(rec Record) []string
	// PartitionOf is the partition a record lives in (a form's submissions), where it is not
	// the collection's (store.Scope.Collection of Key).
	PartitionOf func(scope store.Scope, rec Record) string
	// AuditID names a record in the audit log where its id alone does not (a submission:
	// {formId}/{id}).
	AuditID func(rec Record) string
	// Unversioned kinds keep no version of what a write replaces: form submissions, personal data
	// kept no longer than the submission itself.
	Unversioned bool
	// Unlisted kinds have none of the engine's list index attributes and counters (a form counts
	// its own submissions, listed by their partition).
	Unlisted bool
}

// KindOf is the kind of a declared collection.
func KindOf(c *Collection) Kind { return Kind{Collection: c} }

// facet is the facet a stored record belongs to ("" for none, and for no record).
func (k Kind) facet(rec Record) string {
	switch {
	case rec == nil:
		return ""
	case k.FacetOf != nil:
		return k.FacetOf(rec)
	}
	return facetOf(k.Collection, rec)
}

// words are the words a stored record is found by (none for no record).
func (k Kind) words(rec Record) []string {
	switch {
	case rec == nil:
		return nil
	case k.WordsOf != nil:
		return k.WordsOf(rec)
	}
	return wordsOf(k.Collection, rec)
}

// Words are the words a stored record is found by: what a write indexes it under, and what the
// ops tool's reindex writes again.
func (k Kind) Words(rec Record) []string { return k.words(rec) }

// Counters are the counters a stored record counts in: what its create moved (its collection's,
// its facet's). A tenant import recounts its counters from its records with them.
func (k Kind) Counters(rec Record) []Counter {
	if k.Unlisted || k.Singleton != "" {
		return nil
	}
	return counterChanges(k, nil, rec)
}

// IndexAttributes are the list index attributes a stored record carries (rec is not changed).
func (k Kind) IndexAttributes(scope store.Scope, rec Record) map[string]any {
	return indexAttributes(scope, k, maps.Clone(rec))
}

// partition is the partition record rec lives in.
func (k Kind) partition(scope store.Scope, rec Record) string {
	if k.PartitionOf != nil {
		return k.PartitionOf(scope, rec)
	}
	return scope.Collection(k.Key)
}

// auditID is the record id rec's audit entries name.
func (k Kind) auditID(rec Record) string {
	if k.AuditID != nil {
		return k.AuditID(rec)
	}
	return toString(rec["id"])
}

// Change is one accepted write of a record, as what records it sees it.
type Change struct {
	// Caller is who writes, and in which tenant: a signed-in user, a visitor of the website (no
	// user), or a system user for tools and jobs (auth.Operator, schedule.Scheduler).
	Caller *auth.Caller
	Kind   Kind
	// Action is ActionCreate, ActionUpdate or ActionDelete.
	Action string
	// Before and After are the record as stored before and after the write, id, version and
	// times included: Before is nil on a create, After on a delete.
	Before, After Record
	// RestoredFrom is the version a restore brings back (a create: from the trash).
	RestoredFrom int
	// AlsoChanged names what the write changes beyond the kind's fields (a password,
	// two-factor sign-in), for its version and audit entry.
	AlsoChanged []string
	// Changed, when not nil, is what the version and audit entry name instead of the fields
	// that differ (the menu: its whole tree, "menuItems").
	Changed []string
	// At is when the write happens (zero: now).
	At time.Time
	// Languages are the languages the write translates texts into (code → the error key naming
	// it), each of which must be one of the site's others (Service.RequireLanguages).
	Languages map[string]string
}

// Effect is one item a write adds to its transaction, and the answer when its condition fails.
type Effect struct {
	Item     any
	Conflict *api.Error
}

// Counter is a counter a write moves (its name, as store.AddToCounter takes it) and by how much.
type Counter struct {
	Name  string
	Delta int64
}

// Reference is a record whose reference count (refCount) a write moves: the record id of
// collection Collection, by Delta. A new reference's record must exist in the tenant.
type Reference struct {
	Collection, ID string
	Delta          int64
}

// Effects are what records one write beside its own item.
type Effects struct {
	// Attributes are the index attributes the record's own item carries after the write (none
	// on a delete), and Removed those it no longer carries (it left its facet, its schedule).
	Attributes map[string]any
	Removed    []string
	// Items are the kept version, the audit entry, the word index's changes and the due item.
	Items []Effect
	// Counters are the counters the write moves: kept apart, so a writer of many records in one
	// transaction (mark-read) moves each counter once.
	Counters []Counter
	// References are the reference counts the write moves: kept apart, so a writer that creates
	// the referenced record in the same transaction counts them in its item (Fold), DynamoDB
	// taking one action per item.
	References []Reference
}

// Fold counts the references to record id of collection in item, that record's own item as the
// same transaction puts it, instead of updating it.
func (e *Effects) Fold(collection, id string, item map[string]any) {
	kept := e.References[:0]
	for _, r := range e.References {
		if r.Collection == collection && r.ID == id {
			item["refCount"] = int64(toInt(item["refCount"])) + r.Delta
			continue
		}
		kept = append(kept, r)
	}
	e.References = kept
}

// Set puts the index attributes on the record's own update.
func (e Effects) Set(upd *dynamo.Update) {
	for name, v := range e.Attributes {
		upd.Set(name, v)
	}
	if len(e.Removed) > 0 {
		upd.Remove(e.Removed...)
	}
}

// Stored is item (the record's own, as it will be put) with the index attributes.
func (e Effects) Stored(item map[string]any) map[string]any {
	for name, v := range e.Attributes {
		item[name] = v
	}
	return item
}

// AddTo queues the items, the counters' and the references' updates in tx, after what tx holds
// already (so the writer's own items keep their places, which its conflict checks name).
func (e Effects) AddTo(st *store.Store, scope store.Scope, tx *dynamo.WriteTx) {
	store.AddToTx(tx, e.TxItems(st, scope)...)
}

// TxItems are the transaction items AddTo queues: the items, then an update per counter and per
// reference.
func (e Effects) TxItems(st *store.Store, scope store.Scope) []any {
	out := make([]any, 0, e.Len())
	for _, it := range e.Items {
		out = append(out, it.Item)
	}
	for _, c := range e.Counters {
		out = append(out, st.AddToCounter(scope, c.Name, c.Delta))
	}
	for _, r := range e.References {
		k := store.Key{PK: scope.Collection(r.Collection), SK: r.ID}
		out = append(out, st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("refCount", r.Delta).If("attribute_exists(PK)"))
	}
	return out
}

// Len is how many transaction items AddTo queues.
func (e Effects) Len() int { return len(e.Items) + len(e.Counters) + len(e.References) }

// SideEffects is the one function that gives a write's side effects, for writers that keep their
// own item outside the engine: the same code the engine's commit runs on each of its writes
// (effects). It refuses, as the engine does, a state too large for a version to keep. A
// declared collection whose hooks keep more than its own item in a version (pages) is written
// through the engine only: this process links no hooks.
func SideEffects(ctx context.Context, st *store.Store, ch Change) (Effects, error) {
	reg, err := Load()
	if err != nil {
		return Effects{}, err
	}
	at := ch.At
	if at.IsZero() {
		at = time.Now()
	}
	s := &Service{st: st, reg: reg, hooks: builtinHooks(), now: func() time.Time { return at }}
	return s.SideEffects(ctx, ch)
}

// SideEffects is the package's SideEffects with the service's table, declarations, hooks,
// observers and clock (mark-read).
func (s *Service) SideEffects(ctx context.Context, ch Change) (Effects, error) {
	if ch.Caller == nil || ch.Kind.Collection == nil {
		return Effects{}, fmt.Errorf("collections: side effects of a write with no caller or kind")
	}
	switch ch.Action {
	case ActionCreate, ActionUpdate, ActionDelete:
	default:
		return Effects{}, fmt.Errorf("collections: side effects of %q: not a write", ch.Action)
	}
	if ch.At.IsZero() {
		ch.At = s.now()
	}
	wr := s.writeAs(ch.Caller, ch.Kind.Collection, ch.Before)
	wr.kind, wr.Action, wr.Rec = ch.Kind, ch.Action, ch.After
	wr.RestoredFrom, wr.AlsoChanged, wr.changed, wr.at = ch.RestoredFrom, ch.AlsoChanged, ch.Changed, ch.At
	wr.effects = &Effects{}
	if err := s.RequireLanguages(ctx, wr, ch.Languages); err != nil {
		return Effects{}, err
	}
	if err := s.effects(ctx, wr); err != nil {
		return Effects{}, err
	}
	for _, o := range s.observers {
		if err := o(ctx, wr); err != nil {
			return Effects{}, err
		}
	}
	out := *wr.effects
	for _, it := range wr.extra {
		out.Items = append(out.Items, Effect{it.item, it.conflict})
	}
	if k := wr.Kind(); ch.After != nil && ch.Action != ActionDelete && !k.Unlisted && k.Singleton == "" {
		out.Attributes, out.Removed = indexChanges(wr.Caller.Scope, k, ch.After, ch.Before != nil)
	}
	return out, nil
}

// effects adds to wr what records it: the version it replaces (keepVersion: refusing a state
// too large to keep), its audit entry (recordWrite), its words (indexWords), the reference
// counts it moves, its counters and its due item (addCounterChanges). Every write of every kind
// goes through it: the engine's commit, and SideEffects for writers outside.
func (s *Service) effects(ctx context.Context, wr *Write) error {
	if err := s.keepVersion(ctx, wr); err != nil {
		return err
	}
	if err := s.recordWrite(ctx, wr); err != nil {
		return err
	}
	if err := s.indexWords(ctx, wr); err != nil {
		return err
	}
	after := wr.Rec
	if wr.Action == ActionDelete {
		after = nil
	}
	s.addReferenceChanges(wr, wr.Old, after)
	s.addLanguageCounters(wr, wr.Old, after)
	if wr.C.Singleton == "" && !wr.Kind().Unlisted {
		s.addCounterChanges(wr, wr.Old, after)
	}
	return nil
}

// counterChanges are the counters a write of a record of kind k moves: its collection's (every
// collection has one: it is the list's totalCount) by one on a create or delete, and its facet's
// when the record enters or leaves it. before is nil on create, after is nil on delete.
func counterChanges(k Kind, before, after Record) []Counter {
	var out []Counter
	switch {
	case before == nil && after != nil:
		out = append(out, Counter{k.Key, 1})
	case after == nil && before != nil:
		out = append(out, Counter{k.Key, -1})
	}
	was, is := k.facet(before), k.facet(after)
	if was == is {
		return out
	}
	if was != "" {
		out = append(out, Counter{listing.CounterName(k.Key, was), -1})
	}
	if is != "" {
		out = append(out, Counter{listing.CounterName(k.Key, is), 1})
	}
	return out
}
