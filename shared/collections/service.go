package collections

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Record is a stored record: id, version, createdAt, updatedAt and the declared fields.
type Record = map[string]any

// Service serves the generic CRUD routes of every collection.
type Service struct {
	st        *store.Store
	guard     *auth.Guard
	reg       Registry
	catalogue func() *catalogueIndex
	conv      *converter
	hooks     map[string]Hooks
	observers []Observer
	now       func() time.Time
}

// Linked is what a process links into the engine beside the declarations; a group's main passes
// what its collections need, and a collection whose declaration needs something missing is a
// start-up error (Register).
type Linked struct {
	// Hooks are the hooks of collections other packages own (pages, forms), by declared name.
	Hooks map[string]Hooks
	// RichText sanitises rich-text fields (richtext.Sanitize); only groups serving a collection
	// with such a field link it.
	RichText func(html string) string
	// Observers see every accepted write (see Observer).
	Observers []Observer
}

// NewService returns the collections service over the declared registry, with the hooks this
// package implements plus what the process links.
func NewService(st *store.Store, guard *auth.Guard, reg Registry, linked Linked) *Service {
	cat := lazyCatalogue(reg)
	hooks := builtinHooks()
	for name, h := range linked.Hooks {
		hooks[name] = h
	}
	conv := newConverter(cat, linked.RichText)
	s := &Service{st: st, guard: guard, reg: reg, catalogue: cat, conv: conv, hooks: hooks, now: time.Now}
	// What the engine itself records of every write (the state it replaces, its audit entry, its
	// words, counters and references: effects.go) comes before what the process links.
	s.observers = linked.Observers
	return s
}

// Registry returns the declared collections the service serves.
func (s *Service) Registry() Registry { return s.reg }

// Store returns the table the service writes to (for hooks).
func (s *Service) Store() *store.Store { return s.st }

// Guard returns the guard the service's routes are behind (for hooks' own routes).
func (s *Service) Guard() *auth.Guard { return s.guard }

// Register declares the five routes of one collection, or the GET and PATCH of a singleton (and
// the routes its hooks add), under base.
func (s *Service) Register(mux api.Mux, base, key string) error {
	c := s.reg[key]
	hooks, err := s.hooksOf(c)
	if err != nil {
		return err
	}
	if s.conv.sanitize == nil {
		for _, f := range c.Fields {
			if f.Type == TypeRichText {
				return fmt.Errorf("collections: %s.%s is rich text: the process must link a sanitiser (Linked.RichText)", key, f.Name)
			}
		}
	}
	path := base + "/" + key
	claims := &claimingMux{Mux: mux, patterns: map[string]bool{}}
	if router, ok := hooks.(Router); ok {
		// First, so a hook can claim a more specific pattern than the generic ones.
		router.Routes(s, claims, path, c)
	}
	s.registerHistory(mux, path, c)
	if c.Workflow {
		s.registerWorkflow(mux, path, c)
	}
	if c.Singleton != "" {
		s.registerSingleton(mux, path, c, claims.patterns)
		return nil
	}
	mux.Handle("GET "+path, s.guard.Require(c.Permission("VIEW"), s.handler(c, s.list)))
	mux.Handle("POST "+path, s.guard.Require(c.Permission("CREATE"), s.handler(c, s.create)))
	mux.Handle("GET "+path+"/{id}", s.guard.Require(c.Permission("VIEW"), s.handler(c, s.get)))
	mux.Handle("PATCH "+path+"/{id}", s.guard.Require(c.Permission("EDIT"), s.handler(c, s.patch)))
	mux.Handle("DELETE "+path+"/{id}", s.guard.Require(c.Permission("DELETE"), s.handler(c, s.remove)))
	return nil
}

// RegisterExtras declares the routes beside the collections: /permissions and /user-roles.
func (s *Service) RegisterExtras(mux api.Mux, base, prefix string) {
	switch prefix {
	case "permissions":
		mux.Handle("GET "+base+"/permissions", s.guard.Require("", s.permissionsHandler))
	case "user-roles":
		roles := s.reg["roles"]
		mux.Handle("GET "+base+"/user-roles", s.guard.Require("", s.handler(roles, s.list)))
	case "drafts":
		mux.Handle("GET "+base+"/drafts", s.guard.Require("", s.draftsRoute))
	case "languages":
		mux.Handle("GET "+base+"/languages", s.guard.Require("", s.languagesRoute))
	}
}

type collectionHandler func(w http.ResponseWriter, r *http.Request, c *Collection) error

func (s *Service) handler(c *Collection, h collectionHandler) api.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error { return h(w, r, c) }
}

func (s *Service) key(scope store.Scope, c *Collection, id string) store.Key {
	return store.Key{PK: scope.Collection(c.Key), SK: id}
}

// Load reads one record; api 404 when it does not exist in the caller's tenant.
func (s *Service) Load(ctx context.Context, scope store.Scope, c *Collection, id string) (Record, error) {
	if !ids.Valid(id) {
		return nil, notFound(c)
	}
	var rec Record
	err := s.st.Get(ctx, s.key(scope, c, id), &rec)
	if store.IsNotFound(err) {
		return nil, notFound(c)
	}
	return rec, err
}

func notFound(c *Collection) *api.Error {
	return &api.Error{Status: http.StatusNotFound, Message: c.Title + " not found!"}
}

// view is the record as the API shows it: only id, version, timestamps and declared fields
// (never a password or hash).
func view(c *Collection, rec Record) Record {
	return viewFields(c, rec, false)
}

// listView is the record as a list shows it: view without the DetailOnly fields (large text).
func listView(c *Collection, rec Record) Record { return viewFields(c, rec, true) }

func viewFields(c *Collection, rec Record, listing bool) Record {
	out := Record{"id": rec["id"], "version": rec["version"], "createdAt": rec["createdAt"], "updatedAt": rec["updatedAt"]}
	for _, f := range c.Fields {
		if f.Type == TypePassword || f.Transient || (listing && f.DetailOnly) {
			continue
		}
		v, ok := rec[f.Name]
		switch {
		case !ok && (f.Type == TypePermissions || f.Type == TypeEmails || f.Type == TypeLanguages):
			v = []string{}
		case !ok && f.Type == TypeBoolean:
			v = false
		}
		out[f.Name] = v
	}
	if c.Translatable() {
		if !listing {
			out[TranslationsField] = orEmpty(rec[TranslationsField])
		}
		out[TranslationStatusField] = orEmpty(rec[TranslationStatusField])
	}
	return out
}

// orEmpty is v, or an empty object for none.
func orEmpty(v any) any {
	if m, ok := v.(map[string]any); ok && m != nil {
		return m
	}
	return map[string]any{}
}

func (s *Service) get(w http.ResponseWriter, r *http.Request, c *Collection) error {
	caller := auth.CallerFrom(r.Context())
	rec, err := s.Load(r.Context(), caller.Scope, c, r.PathValue("id"))
	if err != nil {
		return err
	}
	out, err := s.fullView(r.Context(), caller, c, rec)
	if err != nil {
		return err
	}
	return api.OK(w, out)
}

// writtenView is the record a write just stored as GET one would show it: view plus what the
// collection's WriteViewer knows from the write (or, without one, what its Viewer reads).
func (s *Service) writtenView(ctx context.Context, wr *Write) (Record, error) {
	if hooks, _ := s.hooksOf(wr.C); hooks != nil {
		if v, ok := hooks.(WriteViewer); ok {
			out := view(wr.C, wr.Rec)
			if err := v.ViewWritten(ctx, s, wr, out); err != nil {
				return nil, err
			}
			return out, nil
		}
	}
	return s.fullView(ctx, wr.Caller, wr.C, wr.Rec)
}

// fullView is the record as GET one shows it: view plus what the collection's Viewer adds. Writes
// answer with it too, so a client sees what was saved (a page's new section ids).
func (s *Service) fullView(ctx context.Context, caller *auth.Caller, c *Collection, rec Record) (Record, error) {
	out := view(c, rec)
	if hooks, _ := s.hooksOf(c); hooks != nil {
		if v, ok := hooks.(Viewer); ok {
			if err := v.View(ctx, s, caller, rec, out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Write is one create, patch or delete in preparation, as the collection's hooks see it: who asks,
// the record before and after, and the transaction that will carry it.
type Write struct {
	Caller *auth.Caller
	C      *Collection
	// Action is what the write does: ActionCreate, ActionUpdate or ActionDelete.
	Action string
	Old    Record         // nil on create
	Values map[string]any // the converted fields of the request (create: all; patch: the changed ones)
	Rec    Record         // the record as it will be stored
	// RestoredFrom is the version a restore writes back (0 for any other write).
	RestoredFrom int
	// AlsoChanged names what the hooks changed beyond the record's fields (a page's sections), for
	// the version the write keeps.
	AlsoChanged []string
	// Attempt counts the tries of a create (0 first): a hook whose item failed with ErrRetry
	// is called again with the next attempt, and may choose differently (another slug).
	Attempt int
	// HookState is the collection's hooks' own, for the length of one write: what BeforeWrite
	// read or worked out, for the hook's VersionState, WrittenState and ViewWritten, so a write
	// reads each thing once (a page's sections).
	HookState any
	tx        *dynamo.WriteTx
	// conflicts maps a transaction item index to the error its failed condition means.
	conflicts map[int]*api.Error
	items     int
	// extra are items the hooks add (a username marker, say). They go first in the transaction;
	// conflicts maps each item's index to its message whatever the order.
	extra []txItem
	// countCap, set by enforcePlan, conditions a create's counter on the plan's limit.
	countCap *countCap
	// kind is the kind of record written, when it is not the declared collection C alone
	// (SideEffects of a kind kept outside the declarations).
	kind Kind
	// changed, when not nil, replaces the changed fields in the version and audit entry.
	changed []string
	// at is when the write happens (zero: the service's now).
	at time.Time
	// effects, when set, collects the items and counters effects adds instead of a transaction
	// (SideEffects).
	effects *Effects
	// viaDraft marks the write that publishes a workflow record's draft (workflow.go): its
	// audit entry says so (ActionDraftPublish) instead of create or update.
	viaDraft bool
	// svc is the service making the write (After, Store: for observers).
	svc *Service
	// wholeTranslations: the write brings back a kept state, whose translations replace the
	// record's (translations.go).
	wholeTranslations bool
	// languageEpoch is the language counters' epoch read with the site's languages, when the
	// write set a translation (addLanguageCounters).
	languageEpoch *int64
}

// Store is the table the write goes to (an observer reads what it needs to record the write).
func (w *Write) Store() *store.Store { return w.svc.st }

// SiteFlag is Service.SiteFlag for an observer: a boolean of the tenant's Site settings.
func (w *Write) SiteFlag(ctx context.Context, name string) (bool, error) {
	return w.svc.SiteFlag(ctx, w.Caller.Scope, name)
}

// After is the record as the write leaves it (nil for a delete), with what the collection's
// Versioned hooks keep beside its own item (a page's sections: hooks' WrittenState, read once per
// write), for observers that derive facts from the whole record (accessibility findings).
func (w *Write) After(ctx context.Context) (Record, error) {
	if w.Action == ActionDelete || w.Rec == nil {
		return nil, nil
	}
	out := maps.Clone(w.Rec)
	hooks, err := w.svc.hooksOf(w.C)
	if err != nil {
		return nil, err
	}
	if v, ok := hooks.(Versioned); ok && w.kind.Collection == nil {
		extra, err := v.WrittenState(ctx, w.svc, w)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, extra)
	}
	return out, nil
}

// Kind is the kind of record the write writes: its collection's, unless a writer outside the
// engine described another (Kind).
func (w *Write) Kind() Kind {
	if w.kind.Collection != nil {
		return w.kind
	}
	return KindOf(w.C)
}

// timeOf is when write w happens.
func (s *Service) timeOf(w *Write) time.Time {
	if !w.at.IsZero() {
		return w.at
	}
	return s.now()
}

type txItem struct {
	item     any
	conflict *api.Error
}

// Also queues an item (a *dynamo.Put, Update, Delete or ConditionCheck) for the write's
// transaction; onConflict is the answer when its condition fails.
func (w *Write) Also(item any, onConflict *api.Error) {
	w.extra = append(w.extra, txItem{item, onConflict})
}

func (s *Service) addHookItems(w *Write) {
	for _, it := range w.extra {
		w.add(it.item, it.conflict)
	}
}

func (w *Write) add(item any, onConflict *api.Error) {
	if w.effects != nil {
		w.effects.Items = append(w.effects.Items, Effect{item, onConflict})
		return
	}
	store.AddToTx(w.tx, item)
	if onConflict != nil {
		w.conflicts[w.items] = onConflict
	}
	w.items++
}

func (s *Service) newWrite(r *http.Request, c *Collection, old Record) *Write {
	return s.writeAs(auth.CallerFrom(r.Context()), c, old)
}

func (s *Service) writeAs(caller *auth.Caller, c *Collection, old Record) *Write {
	return &Write{Caller: caller, C: c, Old: old, tx: s.st.WriteTx(), conflicts: map[int]*api.Error{}, svc: s}
}

// run executes the transaction and maps a failed condition to the error of its item.
func (w *Write) run(ctx context.Context, fallback *api.Error) error {
	err := w.tx.Run(ctx)
	if err == nil {
		return nil
	}
	for i, e := range w.conflicts {
		if store.CondFailedAt(err, i) {
			return e
		}
	}
	if dynamo.IsCondCheckFailed(err) {
		return fallback
	}
	return store.Wrap("write "+w.C.Key, err)
}

// ErrRetry is the conflict a hook gives a transaction item whose clash another try can avoid (a
// slug taken a moment ago): the create is prepared and written again, up to maxAttempts times.
var ErrRetry = &api.Error{Status: http.StatusConflict, Message: "Too many people are saving the same thing at once. Please try again."}

// maxAttempts bounds the tries of one create whose hook items keep clashing.
const maxAttempts = 25

func (s *Service) create(w http.ResponseWriter, r *http.Request, c *Collection) error {
	in, err := decodeInput(r, c)
	if err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	values, err := s.conv.values(caller.Scope, c, in, true)
	if err != nil {
		return err
	}
	wr, err := s.createRecord(r.Context(), caller, c, "", values, nil)
	if err != nil {
		return err
	}
	out, err := s.writtenView(r.Context(), wr)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: out, Message: c.Title + " created successfully!"})
}

// createRecord writes a new record from converted values, preparing it again while its hooks'
// items clash (ErrRetry), and returns the write that stored it (its Rec). id names the record;
// empty means a new ULID on every try. back is set when the create brings a record back from
// the trash.
func (s *Service) createRecord(ctx context.Context, caller *auth.Caller, c *Collection, id string, values map[string]any, back *restoring) (*Write, error) {
	// A fresh copy each try: hooks may take fields out of Values (a password they hash).
	return s.createRecordWith(ctx, caller, c, id, values, back, nil)
}

// commitCreate is one try of a create: the hooks, then the record with its index attributes,
// references and counters in one transaction.
// prep, when set, adds the caller's own items to the write before its commit (a draft's publishing).
func (s *Service) commitCreateWith(ctx context.Context, caller *auth.Caller, c *Collection, id string, values map[string]any, attempt int, back *restoring, prep func(*Write) error) (*Write, error) {
	wr := s.writeAs(caller, c, nil)
	wr.Action = ActionCreate
	wr.Attempt = attempt
	now := s.now().UTC().Format(time.RFC3339Nano)
	if id == "" {
		id = ids.New()
	}
	k := s.key(wr.Caller.Scope, c, id)
	wr.Values = values
	wr.Rec = Record{"PK": k.PK, "SK": k.SK, "id": id, "version": 1, "createdAt": now, "updatedAt": now}
	if back != nil {
		// Back from the trash: it keeps its creation time, goes on from the version it was
		// deleted at, and leaves the trash in the same transaction.
		wr.RestoredFrom = back.version
		wr.Rec["version"] = back.version + 1
		if back.createdAt != "" {
			wr.Rec["createdAt"] = back.createdAt
		}
		wr.Also(Untrash(s.st, caller.Scope, c.Key, id, back.version, s.now()))
	}
	for name, v := range values {
		if f, _ := c.Field(name); v != nil && v != "" && !f.Transient && name != TranslationsField {
			wr.Rec[name] = v
		}
	}
	if err := s.beforeWrite(ctx, wr); err != nil {
		return nil, err
	}
	if prep != nil {
		if err := prep(wr); err != nil {
			return nil, err
		}
	}
	item := Record{}
	for k, v := range wr.Rec {
		item[k] = v
	}
	for k, v := range indexAttributes(wr.Caller.Scope, wr.Kind(), wr.Rec) {
		item[k] = v
	}
	if err := s.commit(ctx, wr, s.st.Table.Put(item).If("attribute_not_exists(PK)"), nil); err != nil {
		return nil, err
	}
	return wr, nil
}

// prepareUpdate converts a patch's fields and loads the record with load, refusing a stale
// version: the write both patch routes (records, singletons) and a restore start from.
func (s *Service) prepareUpdate(ctx context.Context, caller *auth.Caller, c *Collection, id string, in input,
	load func(context.Context, store.Scope, *Collection, string) (Record, error)) (*Write, int, error) {
	scope := caller.Scope
	values, err := s.conv.values(scope, c, in, false)
	if err != nil {
		return nil, 0, err
	}
	old, err := load(ctx, scope, c, id)
	if err != nil {
		return nil, 0, err
	}
	version := toInt(old["version"])
	if in.version != nil && *in.version != version {
		return nil, 0, api.ErrConflict
	}
	wr := s.writeAs(caller, c, old)
	wr.Action = ActionUpdate
	wr.Values = values
	wr.wholeTranslations = in.wholeTranslations
	wr.Rec = Record{}
	for k, v := range old {
		wr.Rec[k] = v
	}
	for name, v := range values {
		if f, _ := c.Field(name); !f.Transient && name != TranslationsField {
			wr.Rec[name] = v
		}
	}
	if err := checkAfterStored(c, values, wr.Rec); err != nil {
		return nil, 0, err
	}
	return wr, version, nil
}

func (s *Service) patch(w http.ResponseWriter, r *http.Request, c *Collection) error {
	in, err := decodeInput(r, c)
	if err != nil {
		return err
	}
	wr, version, err := s.prepareUpdate(r.Context(), auth.CallerFrom(r.Context()), c, r.PathValue("id"), in, s.Load)
	if err != nil {
		return err
	}
	if err := s.refuseWithDraft(r.Context(), wr); err != nil {
		return err
	}
	if err := s.update(r.Context(), wr, version); err != nil {
		return err
	}
	out, err := s.writtenView(r.Context(), wr)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: c.Title + " updated successfully!"})
}

// update writes a prepared patch of a record at version: its hooks, then only what changed
// (so counters kept on the item, refCount, are never overwritten) through commit.
func (s *Service) update(ctx context.Context, wr *Write, version int) error {
	scope, old, c := wr.Caller.Scope, wr.Old, wr.C
	wr.Rec["version"] = version + 1
	wr.Rec["updatedAt"] = s.now().UTC().Format(time.RFC3339Nano)
	if err := s.beforeWrite(ctx, wr); err != nil {
		return err
	}
	k := s.key(scope, c, toString(old["id"]))
	upd := s.st.Table.Update("PK", k.PK).Range("SK", k.SK).
		Set("version", wr.Rec["version"]).Set("updatedAt", wr.Rec["updatedAt"]).
		If("version = ?", version)
	for name := range wr.changedAttributes() {
		if v, ok := wr.Rec[name]; ok && v != nil && v != "" {
			upd.Set(name, v)
		} else {
			upd.Remove(name)
			delete(wr.Rec, name)
		}
	}
	setIndexAttributes(upd, scope, wr.Kind(), wr.Rec)
	return s.commit(ctx, wr, upd, api.ErrConflict)
}

// changedAttributes are the attributes the patch sets: the request's fields plus whatever the
// hooks changed (a password hash, a session epoch).
func (w *Write) changedAttributes() map[string]bool {
	out := map[string]bool{}
	for name := range w.Values {
		if f, _ := w.C.Field(name); !f.Transient {
			out[name] = true
		}
	}
	for name, v := range w.Rec {
		if name == "version" || name == "updatedAt" {
			continue
		}
		if old, ok := w.Old[name]; !ok || fmt.Sprint(old) != fmt.Sprint(v) {
			out[name] = true
		}
	}
	return out
}

func (s *Service) remove(w http.ResponseWriter, r *http.Request, c *Collection) error {
	scope := auth.CallerFrom(r.Context()).Scope
	old, err := s.Load(r.Context(), scope, c, r.PathValue("id"))
	if err != nil {
		return err
	}
	wr := s.newWrite(r, c, old)
	wr.Action = ActionDelete
	if err := s.beforeDelete(r.Context(), wr); err != nil {
		return err
	}
	k := s.key(scope, c, toString(old["id"]))
	del := s.st.Table.Delete("PK", k.PK).Range("SK", k.SK).
		If("version = ? AND (attribute_not_exists(refCount) OR refCount <= ?)", old["version"], 0)
	if err := s.commit(r.Context(), wr, del, s.deleteConflict(c, old)); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]any{"id": old["id"]}, Message: c.Title + " Deleted Successfully!"})
}

// deleteConflict explains a refused delete: the record is still referenced, or it changed.
func (s *Service) deleteConflict(c *Collection, old Record) *api.Error {
	if toInt(old["refCount"]) <= 0 || len(c.ReferencedBy) == 0 {
		return api.ErrConflict
	}
	users := make([]string, 0, len(c.ReferencedBy))
	for _, b := range c.ReferencedBy {
		users = append(users, s.reg[b.Collection].TitlePlural)
	}
	return &api.Error{Status: http.StatusConflict, Message: fmt.Sprintf("This %s is still used by %d record(s) (%s). Delete or reassign them first.",
		c.Title, toInt(old["refCount"]), strings.Join(users, ", "))}
}

// addReferenceChanges keeps refCount on referenced records: +1 for a new reference (which must
// exist in the same tenant), -1 for a dropped one. A record with refCount > 0 cannot be deleted.
func (s *Service) addReferenceChanges(wr *Write, before, after Record) {
	for _, f := range wr.C.Fields {
		if f.Type != TypeReference {
			continue
		}
		oldID, newID := toString(before[f.Name]), toString(after[f.Name])
		if oldID == newID {
			continue
		}
		ref := s.reg[f.Ref]
		if wr.effects != nil {
			if oldID != "" {
				wr.effects.References = append(wr.effects.References, Reference{ref.Key, oldID, -1})
			}
			if newID != "" {
				wr.effects.References = append(wr.effects.References, Reference{ref.Key, newID, 1})
			}
			continue
		}
		if oldID != "" {
			k := s.key(wr.Caller.Scope, ref, oldID)
			wr.add(s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("refCount", -1).If("attribute_exists(PK)"), nil)
		}
		if newID != "" {
			k := s.key(wr.Caller.Scope, ref, newID)
			wr.add(s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("refCount", 1).If("attribute_exists(PK)"),
				api.FieldError(http.StatusBadRequest, f.Name, f.Label+" not found!"))
		}
	}
}

func toInt(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case int64:
		return int(x)
	}
	return 0
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}

// beforeWrite derives the file sizes of a create or an update (filesize.go), runs the
// collection's hooks, then checks that the record they leave still fits in an item.
func (s *Service) beforeWrite(ctx context.Context, wr *Write) error {
	hooks, err := s.hooksOf(wr.C)
	if err != nil {
		return err
	}
	if err := s.deriveFileSizes(ctx, wr); err != nil {
		return err
	}
	if err := s.deriveTranslations(ctx, wr); err != nil {
		return err
	}
	if err := hooks.BeforeWrite(ctx, s, wr); err != nil {
		return err
	}
	return checkItemSize(wr.Rec)
}

func (s *Service) beforeDelete(ctx context.Context, wr *Write) error {
	hooks, err := s.hooksOf(wr.C)
	if err != nil {
		return err
	}
	return hooks.BeforeDelete(ctx, s, wr)
}
