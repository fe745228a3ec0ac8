package menu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// SK is the sort key of the menu in the tenant's root partition.
const SK = "MENU"

// PagesCollection is the collection PAGE items point at: records at T#{t}#pages / {pageId}.
const PagesCollection = "pages"

// retries bounds how often POST and DELETE re-read the menu after losing a race with another
// write: they do not depend on what the caller saw, so retrying is safe; then 409.
const retries = 3

// Permission codes of the MENU_ITEM category.
const (
	permView   = "CMS_VIEW_MENU_ITEM"
	permCreate = "CMS_CREATE_MENU_ITEM"
	permEdit   = "CMS_EDIT_MENU_ITEM"
	permDelete = "CMS_DELETE_MENU_ITEM"
)

var (
	errItemNotFound = &api.Error{Status: http.StatusNotFound, Message: "Menu item not found!"}
	errStale        = &api.Error{Status: http.StatusConflict, Message: "The menu was changed by someone else. Reload it and try again."}
)

// record is the stored menu: the whole tree and its version.
type record struct {
	PK        string `dynamo:"PK"`
	SK        string `dynamo:"SK"`
	Version   int    `dynamo:"version"`
	Items     []Item `dynamo:"items"`
	UpdatedAt string `dynamo:"updatedAt"`
}

// Service serves /menu-items.
type Service struct {
	st    *store.Store
	guard *auth.Guard
	now   func() time.Time
}

// Module serves /menu-items.
var Module = app.Module{
	Name:     "menu",
	Prefixes: func() []string { return []string{"menu-items"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		(&Service{st: d.Store, guard: d.Guard, now: time.Now}).Register(mux, base)
		return nil
	},
}

// Register declares the routes under base.
func (s *Service) Register(mux api.Mux, base string) {
	path := base + "/menu-items"
	mux.Handle("GET "+path, s.guard.Require(permView, s.get))
	mux.Handle("POST "+path, s.guard.Require(permCreate, s.create))
	mux.Handle("PATCH "+path, s.guard.Require(permEdit, s.save))
	mux.Handle("DELETE "+path+"/{id}", s.guard.Require(permDelete, s.remove))
	mux.Handle("GET "+path+"/versions", s.guard.Require(permView, s.versions))
	mux.Handle("GET "+path+"/versions/{version}", s.guard.Require(permView, s.version))
	mux.Handle("POST "+path+"/versions/{version}/restore", s.guard.Require(permEdit, s.restore))
}

// treeResponse is {result: tree, version}: the version a later save must name.
type treeResponse struct {
	Result  any    `json:"result"`
	Version int    `json:"version"`
	Message string `json:"message,omitempty"`
}

func (s *Service) load(ctx context.Context, scope store.Scope) (record, error) {
	var rec record
	err := s.st.Get(ctx, store.Key{PK: scope.Root(), SK: SK}, &rec)
	if store.IsNotFound(err) {
		return record{PK: scope.Root(), SK: SK, Items: []Item{}}, nil
	}
	rec.Items = Normalize(rec.Items)
	return rec, err
}

// historyKind names the menu tree's history beside the collections' (collections.VersionItem).
const historyKind = "menu"

// kind is the menu tree as the engine records its saves: one record per tenant (its id is the
// tenant's), its whole tree kept as a version, "menuItems" in the audit log.
var kind = collections.Kind{Collection: &collections.Collection{Key: historyKind, Title: "Menu", TitlePlural: "Menu", Singleton: SK,
	Fields: []collections.Field{{Name: "items", Label: "Menu Items", Type: collections.TypeJSON}}}}

// state is the menu as the engine reads a stored record (version 0: never saved, like a
// singleton's defaults).
func (rec record) state(scope store.Scope) collections.Record {
	out := collections.Record{"id": scope.Tenant(), "version": rec.Version, "items": rec.Items, "updatedAt": rec.UpdatedAt}
	if langs := Languages(rec.Items); len(langs) > 0 {
		out[collections.TextLanguagesField] = langs
	}
	return out
}

// write saves items if the stored menu is still at rec.Version; store.ErrConflict otherwise. In
// the same transaction, what records the save (collections.SideEffects): for a menu saved before,
// the tree it replaces as a version, and the save's audit entry. A tree too large for a version
// to keep is refused (413), so every accepted save can be followed by another.
func (s *Service) write(ctx context.Context, scope store.Scope, rec record, items []Item, by change) (record, error) {
	if raw, _ := json.Marshal(items); len(raw) > maxTreeBytes {
		return record{}, errTreeTooLarge
	}
	now := s.now().UTC()
	next := record{PK: rec.PK, SK: rec.SK, Version: rec.Version + 1, Items: items, UpdatedAt: now.Format(time.RFC3339Nano)}
	put := s.st.Table.Put(next)
	if rec.Version == 0 {
		put.If("attribute_not_exists(PK)")
	} else {
		put.If("version = ?", rec.Version)
	}
	fx, err := collections.SideEffects(ctx, s.st, collections.Change{Caller: &auth.Caller{Scope: scope, User: by.user, Client: by.client},
		Kind: kind, Action: collections.ActionUpdate, Before: rec.state(scope), After: next.state(scope),
		Changed: []string{"menuItems"}, RestoredFrom: by.restoredFrom, At: now, Languages: changedLanguages(rec.Items, items)})
	if err != nil {
		return record{}, err
	}
	tx := s.st.WriteTx().Put(put)
	fx.AddTo(s.st, scope, tx)
	err = tx.Run(ctx)
	if store.CondFailedAt(err, 0) {
		return record{}, fmt.Errorf("menu: %w", store.ErrConflict)
	}
	return next, store.Wrap("put menu", err)
}

// change is who makes a write of the menu and from where, and whether it restores a version.
type change struct {
	user         *auth.User
	client       audit.Client
	restoredFrom int
}

func changeBy(r *http.Request) change {
	c := auth.CallerFrom(r.Context())
	return change{user: c.User, client: c.Client}
}

// Create saves items as the first menu of a tenant that has none (tools such as the demo
// content), through the checks and the conditional write of a save; created is false when the
// tenant has a menu already, which is left as it is.
func Create(ctx context.Context, st *store.Store, scope store.Scope, items []Item, now time.Time) (created bool, err error) {
	s := &Service{st: st, now: func() time.Time { return now }}
	if err := s.checkPages(ctx, scope, items); err != nil {
		return false, err
	}
	_, err = s.write(ctx, scope, record{PK: scope.Root(), SK: SK}, Normalize(items), change{})
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	return err == nil, err
}

// Replace saves items as the tenant's menu as caller (an importer), through the checks and the
// version-conditioned write of a save, so the menu it replaces stays in the menu's history;
// changed is false when the menu already holds exactly items.
func Replace(ctx context.Context, st *store.Store, caller *auth.Caller, items []Item) (changed bool, err error) {
	s := &Service{st: st, now: time.Now}
	items = Normalize(items)
	if Count(items) > MaxItems {
		return false, api.Errorf(http.StatusBadRequest, "A menu holds at most %d items.", MaxItems)
	}
	if err := s.checkPages(ctx, caller.Scope, items); err != nil {
		return false, err
	}
	cur, err := s.load(ctx, caller.Scope)
	if err != nil {
		return false, err
	}
	if reflect.DeepEqual(Normalize(cur.Items), items) {
		return false, nil
	}
	_, err = s.write(ctx, caller.Scope, cur, items, change{user: caller.User, client: caller.Client})
	return err == nil, err
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	rec, err := s.load(r.Context(), auth.CallerFrom(r.Context()).Scope)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, treeResponse{Result: rec.Items, Version: rec.Version})
}

// checkPages refuses PAGE items whose page is not a page of the caller's tenant: one
// BatchGetItem over the referenced ids, under the tenant's own partition.
func (s *Service) checkPages(ctx context.Context, scope store.Scope, items []Item) error {
	pageIDs := PageIDs(items)
	if len(pageIDs) == 0 {
		return nil
	}
	keys := make([]store.Key, len(pageIDs))
	for i, id := range pageIDs {
		keys[i] = store.Key{PK: scope.Collection(PagesCollection), SK: id}
	}
	found, err := s.st.GetMany(ctx, keys...)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if _, ok := found[k]; !ok {
			return api.FieldError(http.StatusBadRequest, "url", "Page not found!")
		}
	}
	return nil
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	it, err := NewItem(ids.New(), in)
	if err != nil {
		return err
	}
	position := 0
	if len(in.Position) > 0 {
		var p float64
		if json.Unmarshal(in.Position, &p) != nil {
			return api.FieldError(http.StatusBadRequest, "position", "Position must be a number.")
		}
		position = int(p)
	}
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	if err := s.checkPages(ctx, scope, []Item{it}); err != nil {
		return err
	}
	return s.retry(ctx, scope, changeBy(r), func(rec record) ([]Item, error) {
		if Count(rec.Items) >= MaxItems {
			return nil, api.Errorf(http.StatusBadRequest, "A menu holds at most %d items.", MaxItems)
		}
		return Insert(rec.Items, it, position), nil
	}, func(saved record) error {
		for _, x := range saved.Items {
			if x.ID == it.ID {
				it = x
			}
		}
		return api.JSON(w, http.StatusCreated, treeResponse{Result: it, Version: saved.Version, Message: "Created Successfully"})
	})
}

func (s *Service) remove(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	return s.retry(ctx, scope, changeBy(r), func(rec record) ([]Item, error) {
		items, found := Remove(rec.Items, id)
		if !found {
			return nil, errItemNotFound
		}
		return items, nil
	}, func(saved record) error {
		return api.JSON(w, http.StatusOK, treeResponse{Result: map[string]string{"id": id}, Version: saved.Version, Message: "Menu Item Deleted!"})
	})
}

// retry applies apply to the freshly read menu and writes it, again on a lost race.
func (s *Service) retry(ctx context.Context, scope store.Scope, by change, apply func(record) ([]Item, error), done func(record) error) error {
	for attempt := 0; attempt < retries; attempt++ {
		rec, err := s.load(ctx, scope)
		if err != nil {
			return err
		}
		items, err := apply(rec)
		if err != nil {
			return err
		}
		saved, err := s.write(ctx, scope, rec, items, by)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		return done(saved)
	}
	return errStale
}

type saveRequest struct {
	MenuItems []Input `json:"menuItems"`
	Version   *int    `json:"version"`
}

// save replaces the menu with the requested tree in one conditional write: a stale version is
// 409, and a refused tree writes nothing.
func (s *Service) save(w http.ResponseWriter, r *http.Request) error {
	var in saveRequest
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if in.MenuItems == nil {
		return api.FieldError(http.StatusBadRequest, "menuItems", "menuItems is required!")
	}
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	rec, err := s.load(ctx, scope)
	if err != nil {
		return err
	}
	if in.Version != nil && *in.Version != rec.Version {
		return errStale
	}
	items, err := Rebuild(rec.Items, in.MenuItems)
	if err != nil {
		return err
	}
	if err := s.checkPages(ctx, scope, items); err != nil {
		return err
	}
	saved, err := s.write(ctx, scope, rec, items, changeBy(r))
	if errors.Is(err, store.ErrConflict) {
		return errStale
	}
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, treeResponse{Result: saved.Items, Version: saved.Version, Message: "Menu Items Updated"})
}

// versions serves GET /menu-items/versions: the trees the menu's saves replaced, newest first.
func (s *Service) versions(w http.ResponseWriter, r *http.Request) error {
	scope := auth.CallerFrom(r.Context()).Scope
	list, err := collections.Versions(r.Context(), s.st, scope, historyKind, scope.Tenant())
	if err != nil {
		return err
	}
	total := int64(len(list))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: list, TotalCount: &total})
}

// keptTree reads the tree a version kept.
func (s *Service) keptTree(r *http.Request) (int, []Item, error) {
	n, err := collections.VersionParam(r)
	if err != nil {
		return 0, nil, err
	}
	scope := auth.CallerFrom(r.Context()).Scope
	kept, err := collections.KeptState(r.Context(), s.st, scope, historyKind, scope.Tenant(), n, s.now())
	if err != nil {
		return 0, nil, err
	}
	raw, err := json.Marshal(kept["items"])
	if err != nil {
		return 0, nil, err
	}
	var items []Item
	if err := json.Unmarshal(raw, &items); err != nil {
		return 0, nil, fmt.Errorf("menu: version %d: %w", n, err)
	}
	return n, Normalize(items), nil
}

// version serves GET /menu-items/versions/{version}: the tree that version kept.
func (s *Service) version(w http.ResponseWriter, r *http.Request) error {
	n, items, err := s.keptTree(r)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, treeResponse{Result: items, Version: n})
}

// restore serves POST /menu-items/versions/{version}/restore {version}: the kept tree saved back
// through a save's own checks (a PAGE item whose page is gone refuses it, like a save), naming
// the current version; the tree it replaces is kept in turn.
func (s *Service) restore(w http.ResponseWriter, r *http.Request) error {
	current, err := collections.RestoreVersion(r)
	if err != nil {
		return err
	}
	n, items, err := s.keptTree(r)
	if err != nil {
		return err
	}
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	rec, err := s.load(ctx, scope)
	if err != nil {
		return err
	}
	if current != rec.Version {
		return errStale
	}
	if err := s.checkPages(ctx, scope, items); err != nil {
		return err
	}
	by := changeBy(r)
	by.restoredFrom = n
	saved, err := s.write(ctx, scope, rec, items, by)
	if errors.Is(err, store.ErrConflict) {
		return errStale
	}
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, treeResponse{Result: saved.Items, Version: saved.Version, Message: fmt.Sprintf("Menu restored to version %d!", n)})
}
