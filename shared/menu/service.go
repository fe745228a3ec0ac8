package menu

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
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

// write saves items if the stored menu is still at rec.Version; store.ErrConflict otherwise.
func (s *Service) write(ctx context.Context, rec record, items []Item) (record, error) {
	next := record{PK: rec.PK, SK: rec.SK, Version: rec.Version + 1, Items: items, UpdatedAt: s.now().UTC().Format(time.RFC3339Nano)}
	put := s.st.Table.Put(next)
	if rec.Version == 0 {
		put.If("attribute_not_exists(PK)")
	} else {
		put.If("version = ?", rec.Version)
	}
	return next, store.Wrap("put menu", put.Run(ctx))
}

// Create saves items as the first menu of a tenant that has none (tools such as the demo
// content), through the checks and the conditional write of a save; created is false when the
// tenant has a menu already, which is left as it is.
func Create(ctx context.Context, st *store.Store, scope store.Scope, items []Item, now time.Time) (created bool, err error) {
	s := &Service{st: st, now: func() time.Time { return now }}
	if err := s.checkPages(ctx, scope, items); err != nil {
		return false, err
	}
	_, err = s.write(ctx, record{PK: scope.Root(), SK: SK}, Normalize(items))
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
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
	return s.retry(ctx, scope, func(rec record) ([]Item, error) {
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
	return s.retry(ctx, scope, func(rec record) ([]Item, error) {
		items, found := Remove(rec.Items, id)
		if !found {
			return nil, errItemNotFound
		}
		return items, nil
	}, func(saved record) error {
		return api.JSON(w, http.StatusOK, treeResponse{Result: map[string]string{"id": id}, Version: saved.Version, Message: "Menu Item Deleted!"})
	})
}

// retry applies change to the freshly read menu and writes it, again on a lost race.
func (s *Service) retry(ctx context.Context, scope store.Scope, change func(record) ([]Item, error), done func(record) error) error {
	for attempt := 0; attempt < retries; attempt++ {
		rec, err := s.load(ctx, scope)
		if err != nil {
			return err
		}
		items, err := change(rec)
		if err != nil {
			return err
		}
		saved, err := s.write(ctx, rec, items)
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
	saved, err := s.write(ctx, rec, items)
	if errors.Is(err, store.ErrConflict) {
		return errStale
	}
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, treeResponse{Result: saved.Items, Version: saved.Version, Message: "Menu Items Updated"})
}
