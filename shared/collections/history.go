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
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// Version history: every accepted update or delete of a record keeps the state it replaces as a
// version item, in the write's own transaction (an observer of commit), so no version is missing
// or phantom. A record keeps its last KeptVersions versions: version n lives in slot n mod
// KeptVersions of the record's history partition, so each write overwrites the oldest and costs
// exactly one more item, never a read or a delete. DynamoDB's TTL removes versions after
// VersionTTL. The state is stored gzip-compressed: a large page compresses several times over.
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
	ExpiresAt    int64  `dynamo:"expiresAt"`
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
}

func historyPartition(scope store.Scope, c *Collection, id string) string {
	return scope.Partition("HIST", c.Key, id)
}

func versionKey(scope store.Scope, c *Collection, id string, version int) store.Key {
	return store.Key{PK: historyPartition(scope, c, id), SK: fmt.Sprintf("V#%02d", version%KeptVersions)}
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
	return out
}

// changedFields names the declared fields whose values differ between two states.
func changedFields(c *Collection, before, after Record) []string {
	out := []string{}
	for _, f := range c.Fields {
		if f.Type == TypePassword || f.Transient {
			continue
		}
		if fmt.Sprint(before[f.Name]) != fmt.Sprint(after[f.Name]) {
			out = append(out, f.Name)
		}
	}
	return out
}

// keepVersion is the observer that keeps the state an update or delete replaces. A create
// replaces nothing. A singleton never saved has no state of its own yet (its defaults).
func (s *Service) keepVersion(ctx context.Context, wr *Write) error {
	if wr.Action == ActionCreate || wr.Old == nil || toInt(wr.Old["version"]) == 0 {
		return nil
	}
	old := keptState(wr.C, wr.Old)
	hooks, err := s.hooksOf(wr.C)
	if err != nil {
		return err
	}
	if v, ok := hooks.(Versioned); ok {
		extra, err := v.VersionState(ctx, s, wr)
		if err != nil {
			return err
		}
		for name, val := range extra {
			if f, declared := wr.C.Field(name); declared && f.Transient {
				old[name] = val
			}
		}
	}
	raw, err := json.Marshal(old)
	if err != nil {
		return fmt.Errorf("collections: version of %s: %w", wr.C.Key, err)
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if zipped.Len() > maxVersionBytes {
		return api.Errorf(http.StatusRequestEntityTooLarge, "This %s is too large to keep its history; shorten it and save again.", wr.C.Title)
	}
	id := toString(wr.Old["id"])
	version := toInt(wr.Old["version"])
	now := s.now().UTC()
	it := versionItem{Version: version, ReplacedAt: now.Format(time.RFC3339Nano), Action: wr.Action,
		RestoredFrom: wr.RestoredFrom, State: zipped.Bytes(), ExpiresAt: now.Add(VersionTTL).Unix()}
	k := versionKey(wr.Caller.Scope, wr.C, id, version)
	it.PK, it.SK = k.PK, k.SK
	if u := wr.Caller.User; u != nil {
		it.By, it.ByName = u.ID, u.Username
	}
	if wr.RestoredFrom != 0 {
		it.Action = ActionRestore
	}
	if wr.Action != ActionDelete {
		it.Changed = append(changedFields(wr.C, wr.Old, wr.Rec), wr.AlsoChanged...)
	}
	wr.Also(s.st.Table.Put(it), nil)
	return nil
}

// versions reads a record's kept versions, newest first: one Query of at most KeptVersions items,
// without their states.
func (s *Service) versions(ctx context.Context, scope store.Scope, c *Collection, id string) ([]VersionInfo, error) {
	var items []versionItem
	err := s.st.Table.Get("PK", historyPartition(scope, c, id)).
		Project("version", "replacedAt", "by", "byName", "action", "changed", "restoredFrom").
		Limit(KeptVersions).All(ctx, &items)
	if err != nil {
		return nil, store.Wrap("versions of "+c.Key, err)
	}
	out := make([]VersionInfo, 0, len(items))
	for _, it := range items {
		changed := it.Changed
		if changed == nil {
			changed = []string{}
		}
		out = append(out, VersionInfo{Version: it.Version, ReplacedAt: it.ReplacedAt, By: it.By, ByName: it.ByName,
			Action: it.Action, Changed: changed, RestoredFrom: it.RestoredFrom})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version > out[j].Version })
	return out, nil
}

var errNoVersion = &api.Error{Status: http.StatusNotFound, Message: "Version not found!"}

// version reads one kept state of a record; a version no longer kept (overwritten by a newer
// one in its slot, or expired) is a 404.
func (s *Service) version(ctx context.Context, scope store.Scope, c *Collection, id string, version int) (Record, error) {
	var it versionItem
	err := s.st.Get(ctx, versionKey(scope, c, id, version), &it)
	if store.IsNotFound(err) || (err == nil && (it.Version != version || it.ExpiresAt < s.now().Unix())) {
		return nil, errNoVersion
	}
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(it.State))
	if err != nil {
		return nil, fmt.Errorf("collections: version %d of %s: %w", version, id, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("collections: version %d of %s: %w", version, id, err)
	}
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("collections: version %d of %s: %w", version, id, err)
	}
	return rec, nil
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
	list, err := s.versions(r.Context(), scope, c, id)
	if err != nil {
		return err
	}
	total := int64(len(list))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: list, TotalCount: &total})
}

func versionParam(r *http.Request) (int, error) {
	n, err := strconv.Atoi(r.PathValue("version"))
	if err != nil || n < 1 || n > 1<<30 {
		return 0, errNoVersion
	}
	return n, nil
}

func (s *Service) getVersion(w http.ResponseWriter, r *http.Request, c *Collection) error {
	scope := auth.CallerFrom(r.Context()).Scope
	id := r.PathValue("id")
	n, err := versionParam(r)
	if err != nil {
		return err
	}
	if _, err := s.current(r.Context(), scope, c, id); err != nil {
		return err
	}
	rec, err := s.version(r.Context(), scope, c, id, n)
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

// restore serves POST …/{id}/versions/{version}/restore {version}: the kept state written back as
// a new version, through the same rules as an edit (the caller's rights, validation, hooks, slugs
// and references checked again, the current version named to catch a stale screen). Fields the
// kept state did not have are cleared.
func (s *Service) restore(w http.ResponseWriter, r *http.Request, c *Collection) error {
	caller := auth.CallerFrom(r.Context())
	id := r.PathValue("id")
	n, err := versionParam(r)
	if err != nil {
		return err
	}
	if _, err := s.current(r.Context(), caller.Scope, c, id); err != nil {
		return err
	}
	var body struct {
		Version *int `json:"version"`
	}
	if err := api.Decode(r, &body); err != nil {
		return err
	}
	if body.Version == nil {
		return api.FieldError(http.StatusBadRequest, "version", "version is required!")
	}
	kept, err := s.version(r.Context(), caller.Scope, c, id, n)
	if err != nil {
		return err
	}
	raw := map[string]json.RawMessage{}
	for _, f := range c.Fields {
		v, ok := kept[f.Name]
		switch {
		case f.Type == TypePassword:
			continue
		case f.Transient && !ok:
			// Kept by a Versioned hook when it has something to keep; nothing to send back otherwise.
			continue
		case !ok:
			v = nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		raw[f.Name] = b
	}
	in, err := inputOf(raw, c)
	if err != nil {
		return err
	}
	in.version = body.Version
	load := s.Load
	if c.Singleton != "" {
		load = s.LoadSingleton
	}
	wr, version, err := s.prepareUpdate(r.Context(), caller, c, id, in, load)
	if err != nil {
		return err
	}
	wr.RestoredFrom = n
	if c.Singleton != "" {
		err = s.saveSingleton(r.Context(), wr, version)
	} else {
		err = s.update(r.Context(), wr, version)
	}
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("%s restored to version %d!", c.Title, n)
	if c.Singleton != "" {
		return api.JSON(w, http.StatusOK, api.Envelope{Result: singletonView(c, wr.Rec), Message: msg})
	}
	out, err := s.fullView(r.Context(), caller, c, wr.Rec)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: msg})
}
