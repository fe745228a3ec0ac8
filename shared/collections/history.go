package collections

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// Version history: every accepted update or delete of a record keeps the state it replaces as a
// version item, in the write's own transaction (an observer of commit), so no version is missing
// or phantom. A record keeps its last KeptVersions versions: version n lives in slot n mod
// KeptVersions of the record's history partition, so each write overwrites the oldest and costs
// exactly one more item, never a read or a delete. DynamoDB's TTL removes versions after
// VersionTTL. The state is stored gzip-compressed: a large page compresses several times over.
//
// Every accepted write can be followed by an edit and a delete: a create or update whose state
// (what the next write will keep: the record and what its Versioned hooks keep beside it) would
// not fit in a version item is refused with a 413 before anything is written (keepVersion). A
// state stored past the limit before that rule (or written around the engine) is kept as a
// marker instead: who replaced it, when and how, without the state (TooLarge), so it can still
// be edited, shortened and deleted.
const (
	KeptVersions = 50
	VersionTTL   = 365 * 24 * time.Hour
	// maxVersionBytes keeps a compressed state with its metadata under DynamoDB's 400 KB item.
	maxVersionBytes = 350_000
)

// ActionRestore is the action of a version entry whose state a restore replaced.
const ActionRestore = "restore"

// versionItem is one kept state of a record.
type versionItem struct {
	PK string `dynamo:"PK"`
	SK string `dynamo:"SK"`
	// Version is the kept state's own version number.
	Version int `dynamo:"version"`
	// ReplacedAt, By and Action say when, by whom and how that state was replaced.
	ReplacedAt string   `dynamo:"replacedAt"`
	By         string   `dynamo:"by"`
	ByName     string   `dynamo:"byName"`
	Action     string   `dynamo:"action"`
	Changed    []string `dynamo:"changed,omitempty"`
	// RestoredFrom is the version a restore brought back.
	RestoredFrom int    `dynamo:"restoredFrom,omitempty"`
	State        []byte `dynamo:"state"`
	// TooLarge marks a version whose state was too large to keep: it has no State, and is never
	// a trash entry (there is nothing to restore).
	TooLarge  bool  `dynamo:"tooLarge,omitempty"`
	ExpiresAt int64 `dynamo:"expiresAt"`
	// A deleted record's last version is its entry in the tenant's trash (trash.go): indexed by
	// deletion time in GSI1 (the whole trash) and GSI2 (the trash of one kind), with what the
	// Trash screen shows. Restoring or purging it takes these away.
	TrashPK  string `dynamo:"GSI1PK,omitempty"`
	TrashSK  string `dynamo:"GSI1SK,omitempty"`
	KindPK   string `dynamo:"GSI2PK,omitempty"`
	KindSK   string `dynamo:"GSI2SK,omitempty"`
	Kind     string `dynamo:"kind,omitempty"`
	RecordID string `dynamo:"recordId,omitempty"`
	Title    string `dynamo:"title,omitempty"`
}

// VersionInfo is a kept version as the History panel lists it.
type VersionInfo struct {
	Version      int      `json:"version"`
	ReplacedAt   string   `json:"replacedAt"`
	By           string   `json:"by"`
	ByName       string   `json:"byName"`
	Action       string   `json:"action"`
	Changed      []string `json:"changed"`
	RestoredFrom int      `json:"restoredFrom,omitempty"`
	// TooLarge says the state was too large to keep: only who replaced it, when and how are.
	TooLarge bool `json:"tooLarge,omitempty"`
}

// historyPartition holds the kept versions of one record: kind is its collection's key (or, for
// a tree kept outside the collections, its own name: "menu").
func historyPartition(scope store.Scope, kind, id string) string {
	return scope.Partition("HIST", kind, id)
}

func versionKey(scope store.Scope, kind, id string, version int) store.Key {
	return store.Key{PK: historyPartition(scope, kind, id), SK: fmt.Sprintf("V#%02d", version%KeptVersions)}
}

// Replaced says what replaced a kept state: when, by whom, how and which fields it changed.
type Replaced struct {
	At           time.Time
	By           *auth.User
	Action       string
	Changed      []string
	RestoredFrom int
	// Trash puts the kept state in the tenant's trash under Title: the write deletes the record.
	Trash bool
	Title string
}

// VersionItem is the item that keeps state, version `version` of record id of kind, replaced as
// r says: for writers outside a declared collection (the menu tree), who put it in the
// transaction of the write that replaces the state, as commit does for collections. A state too
// large to keep is kept as a marker without it (never a trash entry), so the write that replaces
// it is never refused for its size: refusing it would leave the record unchangeable, since
// shortening it is a write too (CheckKeepable refuses such a state when it is written instead).
func VersionItem(scope store.Scope, kind, id string, version int, state Record, r Replaced) (any, error) {
	zipped, err := EncodeState(state)
	if err != nil {
		return nil, fmt.Errorf("collections: version of %s: %w", kind, err)
	}
	k := versionKey(scope, kind, id, version)
	it := versionItem{PK: k.PK, SK: k.SK, Version: version, ReplacedAt: r.At.UTC().Format(time.RFC3339Nano), Action: r.Action,
		Changed: r.Changed, RestoredFrom: r.RestoredFrom, State: zipped, ExpiresAt: r.At.Add(VersionTTL).Unix()}
	if len(zipped) > maxVersionBytes {
		it.State, it.TooLarge, r.Trash = nil, true, false
	}
	if r.By != nil {
		it.By, it.ByName = r.By.ID, r.By.Username
	}
	if r.RestoredFrom != 0 {
		it.Action = ActionRestore
	}
	if r.Trash {
		at := listing.TimeKey(r.At)
		it.TrashPK, it.TrashSK = trashPartition(scope), at+"#"+kind+"#"+id
		it.KindPK, it.KindSK = trashPartition(scope, kind), at+"#"+id
		it.Kind, it.RecordID, it.Title = kind, id, r.Title
		it.ExpiresAt = r.At.Add(TrashTTL).Unix()
	}
	return it, nil
}

// CheckKeepable refuses, with a 413 naming what, a state too large for a version to keep: a write
// that would store it could not be followed by an edit or a delete that keeps its history. The
// engine checks every create and update of a declared collection with it (keepVersion); writers
// outside (the menu tree) check theirs.
func CheckKeepable(what string, state Record) error {
	zipped, err := EncodeState(state)
	if err != nil {
		return fmt.Errorf("collections: state of %s: %w", what, err)
	}
	if len(zipped) > maxVersionBytes {
		return api.Errorf(http.StatusRequestEntityTooLarge,
			"This %s would be too large for its history to keep (%d KB compressed; at most %d KB). Shorten its longest texts or remove some of its sections, and save again.",
			what, len(zipped)/1000, maxVersionBytes/1000)
	}
	return nil
}

// keptState is what a version keeps of a record: its declared fields (never a password or its
// hash, never index attributes or counters kept on the item) and its identity and times.
func keptState(c *Collection, rec Record) Record {
	out := Record{}
	for _, name := range []string{"id", "version", "createdAt", "updatedAt"} {
		if v, ok := rec[name]; ok {
			out[name] = v
		}
	}
	for _, f := range c.Fields {
		if f.Type == TypePassword || f.Transient {
			continue
		}
		if v, ok := rec[f.Name]; ok {
			out[f.Name] = v
		}
	}
	if v, ok := rec[TranslationsField]; ok && c.Translatable() && v != nil {
		out[TranslationsField] = v
	}
	return out
}

// changedFields names what an update or restore changes, as its version and its audit entry
// record it: the declared fields whose values differ, then what the hooks changed beside them
// (a page's sections).
func (w *Write) changedFields() []string {
	if w.changed != nil {
		return w.changed
	}
	out := []string{}
	for _, f := range w.C.Fields {
		if f.Type == TypePassword || f.Transient {
			continue
		}
		if fmt.Sprint(w.Old[f.Name]) != fmt.Sprint(w.Rec[f.Name]) {
			out = append(out, f.Name)
		}
	}
	if w.C.Translatable() && !sameJSON(w.Old[TranslationsField], w.Rec[TranslationsField]) {
		out = append(out, TranslationsField)
	}
	return append(out, w.AlsoChanged...)
}

// keepVersion keeps (effects) the state an update or delete replaces, and refuses a
// create or update whose own state would be too large to keep when it is replaced in turn,
// unless the state it replaces was too large already (a record stored before that rule: it can
// still be edited, moved by the schedule and shortened). A create replaces nothing. A singleton
// never saved has no state of its own yet (its defaults).
func (s *Service) keepVersion(ctx context.Context, wr *Write) error {
	if wr.Kind().Unversioned {
		return nil
	}
	hooks, err := s.hooksOf(wr.C)
	if err != nil {
		return err
	}
	versioned, _ := hooks.(Versioned)
	var old Record
	if wr.Action != ActionCreate && wr.Old != nil && toInt(wr.Old["version"]) != 0 {
		old = keptState(wr.C, wr.Old)
		if versioned != nil {
			extra, err := versioned.VersionState(ctx, s, wr)
			if err != nil {
				return err
			}
			addKept(wr.C, old, extra)
		}
	}
	if wr.Action != ActionDelete {
		after := keptState(wr.C, wr.Rec)
		if versioned != nil {
			extra, err := versioned.WrittenState(ctx, s, wr)
			if err != nil {
				return err
			}
			addKept(wr.C, after, extra)
		}
		what := strings.ToLower(wr.C.Title)
		if err := CheckKeepable(what, after); err != nil && (old == nil || CheckKeepable(what, old) == nil) {
			return err
		}
	}
	if old == nil {
		return nil
	}
	deleting := wr.Action == ActionDelete
	var changed []string
	if !deleting {
		changed = wr.changedFields()
	}
	it, err := VersionItem(wr.Caller.Scope, wr.C.Key, toString(wr.Old["id"]), toInt(wr.Old["version"]), old,
		Replaced{At: s.timeOf(wr), By: wr.Caller.User, Action: wr.Action, Changed: changed, RestoredFrom: wr.RestoredFrom,
			Trash: deleting && wr.C.Singleton == "", Title: titleOf(wr.C, wr.Old)})
	if err != nil {
		return err
	}
	wr.Also(s.st.Table.Put(it), nil)
	s.addPurgeDue(wr, hooks)
	return nil
}

// addKept adds to a kept state what a Versioned hook keeps beside the record: its declared
// transient fields.
func addKept(c *Collection, state, extra map[string]any) {
	for name, val := range extra {
		if f, declared := c.Field(name); declared && f.Transient {
			state[name] = val
		}
	}
}

// Versions reads a record's kept versions, newest first: one Query of at most KeptVersions
// items, without their states.
func Versions(ctx context.Context, st *store.Store, scope store.Scope, kind, id string) ([]VersionInfo, error) {
	var items []versionItem
	err := st.Table.Get("PK", historyPartition(scope, kind, id)).
		Project("version", "replacedAt", "by", "byName", "action", "changed", "restoredFrom", "tooLarge").
		Limit(KeptVersions).All(ctx, &items)
	if err != nil {
		return nil, store.Wrap("versions of "+kind, err)
	}
	out := make([]VersionInfo, 0, len(items))
	for _, it := range items {
		changed := it.Changed
		if changed == nil {
			changed = []string{}
		}
		out = append(out, VersionInfo{Version: it.Version, ReplacedAt: it.ReplacedAt, By: it.By, ByName: it.ByName,
			Action: it.Action, Changed: changed, RestoredFrom: it.RestoredFrom, TooLarge: it.TooLarge})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version > out[j].Version })
	return out, nil
}

var errNoVersion = &api.Error{Status: http.StatusNotFound, Message: "Version not found!"}

// errNotKept answers a version whose state was too large to keep (it cannot be shown or restored).
var errNotKept = &api.Error{Status: http.StatusNotFound, Message: "This version was too large to keep: only who replaced it, when and how are recorded."}

// KeptState reads one kept state of a record; a version no longer kept (overwritten by a newer
// one in its slot, or expired at now) is a 404.
func KeptState(ctx context.Context, st *store.Store, scope store.Scope, kind, id string, version int, now time.Time) (Record, error) {
	it, err := readVersion(ctx, st, scope, kind, id, version, now)
	if err != nil {
		return nil, err
	}
	return it.state()
}

// readVersion reads the item of one kept version (errNoVersion when it is no longer kept).
func readVersion(ctx context.Context, st *store.Store, scope store.Scope, kind, id string, version int, now time.Time) (versionItem, error) {
	var it versionItem
	err := st.Get(ctx, versionKey(scope, kind, id, version), &it)
	if store.IsNotFound(err) || (err == nil && (it.Version != version || it.ExpiresAt < now.Unix())) {
		return it, errNoVersion
	}
	return it, err
}

// state is the kept state, uncompressed.
func (it versionItem) state() (Record, error) {
	if it.TooLarge {
		return nil, errNotKept
	}
	rec, err := DecodeState(it.State)
	if err != nil {
		return nil, fmt.Errorf("collections: version %d of %s: %w", it.Version, it.PK, err)
	}
	return rec, nil
}

// EncodeState is how a version item stores a kept state: its JSON, gzip-compressed (a large
// page compresses several times over).
func EncodeState(state Record) ([]byte, error) {
	raw, err := json.Marshal(state)
	if err != nil {
		return nil, err
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return zipped.Bytes(), nil
}

// DecodeState is EncodeState's inverse.
func DecodeState(zipped []byte) (Record, error) {
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var rec Record
	return rec, json.Unmarshal(raw, &rec)
}

// registerHistory declares a collection's history routes: the list of kept versions and one
// version (VIEW), and a restore (EDIT). A singleton's id is its tenant's, as on its own routes.
func (s *Service) registerHistory(mux api.Mux, path string, c *Collection) {
	base := path + "/{id}/versions"
	mux.Handle("GET "+base, s.guard.Require(c.Permission("VIEW"), s.handler(c, s.listVersions)))
	mux.Handle("GET "+base+"/{version}", s.guard.Require(c.Permission("VIEW"), s.handler(c, s.getVersion)))
	mux.Handle("POST "+base+"/{version}/restore", s.guard.Require(c.Permission("EDIT"), s.handler(c, s.restore)))
}

// current loads the record a history route names (404 like its own routes).
func (s *Service) current(ctx context.Context, scope store.Scope, c *Collection, id string) (Record, error) {
	if c.Singleton != "" {
		return s.LoadSingleton(ctx, scope, c, id)
	}
	return s.Load(ctx, scope, c, id)
}

func (s *Service) listVersions(w http.ResponseWriter, r *http.Request, c *Collection) error {
	scope := auth.CallerFrom(r.Context()).Scope
	id := r.PathValue("id")
	if _, err := s.current(r.Context(), scope, c, id); err != nil {
		return err
	}
	list, err := Versions(r.Context(), s.st, scope, c.Key, id)
	if err != nil {
		return err
	}
	total := int64(len(list))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: list, TotalCount: &total})
}

// VersionParam reads the {version} of a history route; anything but a version number is a 404.
func VersionParam(r *http.Request) (int, error) {
	n, err := strconv.Atoi(r.PathValue("version"))
	if err != nil || n < 1 || n > 1<<30 {
		return 0, errNoVersion
	}
	return n, nil
}

func (s *Service) getVersion(w http.ResponseWriter, r *http.Request, c *Collection) error {
	scope := auth.CallerFrom(r.Context()).Scope
	id := r.PathValue("id")
	n, err := VersionParam(r)
	if err != nil {
		return err
	}
	if _, err := s.current(r.Context(), scope, c, id); err != nil {
		return err
	}
	rec, err := KeptState(r.Context(), s.st, scope, c.Key, id, n, s.now())
	if err != nil {
		return err
	}
	out := view(c, rec)
	// What a Versioned hook kept beside the record (a page's sections) is shown too.
	for _, f := range c.Fields {
		if v, ok := rec[f.Name]; ok && f.Transient {
			out[f.Name] = v
		}
	}
	return api.OK(w, out)
}

// keptInput is a kept state as the input of the write that brings it back: every declared field
// but passwords, and, for an update (not a create), the fields the state did not have as nulls,
// which clears them. What a Versioned hook kept (a page's sections) goes back when it was kept.
func keptInput(c *Collection, kept Record, create bool) (input, error) {
	raw := map[string]json.RawMessage{}
	for _, f := range c.Fields {
		v, ok := kept[f.Name]
		switch {
		case f.Type == TypePassword:
			continue
		case !ok && (f.Transient || create):
			continue
		case !ok:
			v = nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return input{}, err
		}
		raw[f.Name] = b
	}
	if c.Translatable() {
		// Translations come back whole: the kept ones replace the record's (none: none).
		b, err := json.Marshal(kept[TranslationsField])
		if err != nil {
			return input{}, err
		}
		raw[TranslationsField] = b
	}
	in, err := inputOf(raw, c)
	in.wholeTranslations = true
	return in, err
}

// RestoreVersion reads a restore's body, {version}: the version the screen holds now, which the
// restore names so that a stale screen gets a 409.
func RestoreVersion(r *http.Request) (int, error) {
	var body struct {
		Version *int `json:"version"`
	}
	if err := api.Decode(r, &body); err != nil {
		return 0, err
	}
	if body.Version == nil {
		return 0, api.FieldError(http.StatusBadRequest, "version", "version is required!")
	}
	return *body.Version, nil
}

// restore serves POST …/{id}/versions/{version}/restore {version}: the kept state written back as
// a new version, through the same rules as an edit (the caller's rights, validation, hooks, slugs
// and references checked again, the current version named to catch a stale screen). Fields the
// kept state did not have are cleared.
func (s *Service) restore(w http.ResponseWriter, r *http.Request, c *Collection) error {
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	n, err := VersionParam(r)
	if err != nil {
		return err
	}
	if _, err := s.current(r.Context(), caller.Scope, c, id); err != nil {
		return err
	}
	current, err := RestoreVersion(r)
	if err != nil {
		return err
	}
	kept, err := KeptState(r.Context(), s.st, caller.Scope, c.Key, id, n, s.now())
	if err != nil {
		return err
	}
	in, err := keptInput(c, kept, false)
	if err != nil {
		return err
	}
	in.version = &current
	load := s.Load
	if c.Singleton != "" {
		load = s.LoadSingleton
	}
	wr, version, err := s.prepareUpdate(r.Context(), caller, c, id, in, load)
	if err != nil {
		return err
	}
	wr.RestoredFrom = n
	if err := s.refuseWithDraft(r.Context(), wr); err != nil {
		return err
	}
	if c.Singleton != "" {
		err = s.saveSingleton(r.Context(), wr, version)
	} else {
		err = s.update(r.Context(), wr, version)
	}
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("%s restored to version %d!", c.Title, n) + takenMeanwhile(c, kept, wr.Rec)
	if c.Singleton != "" {
		return api.JSON(w, http.StatusOK, api.Envelope{Result: singletonView(c, wr.Rec), Message: msg})
	}
	out, err := s.writtenView(r.Context(), wr)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: msg})
}
