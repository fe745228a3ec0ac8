package collections

import (
	"context"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// A singleton collection is one record per tenant (the header, the footer, theme settings, SEO
// defaults), declared with "singleton": "{SK}" and stored at T#{t} / {SK} (DESIGN §3). It has no
// list, create or delete; GET answers the declared defaults until the first save, so a new tenant
// sees every field at once. Its id is the tenant id: another tenant's id is simply not found.

// registerSingleton declares GET and PATCH on /{key} and /{key}/{id}, leaving out any pattern the
// collection's Router hooks already claimed (theme settings choose PATCH's permission themselves).
func (s *Service) registerSingleton(mux api.Mux, path string, c *Collection, claimed map[string]bool) {
	view := s.guard.Require(c.Permission("VIEW"), s.handler(c, s.getSingleton))
	edit := s.guard.Require(c.Permission("EDIT"), s.handler(c, s.PatchSingleton))
	for pattern, h := range map[string]http.Handler{
		"GET " + path: view, "GET " + path + "/{id}": view,
		"PATCH " + path: edit, "PATCH " + path + "/{id}": edit,
	} {
		if !claimed[pattern] {
			mux.Handle(pattern, h)
		}
	}
}

// claimingMux notes the patterns a collection's Router hooks declare.
type claimingMux struct {
	api.Mux
	patterns map[string]bool
}

func (m *claimingMux) Handle(pattern string, h http.Handler) {
	m.patterns[pattern] = true
	m.Mux.Handle(pattern, h)
}

func (s *Service) singletonKey(scope store.Scope, c *Collection) store.Key {
	return store.Key{PK: scope.Root(), SK: c.Singleton}
}

// SingletonDefaults is a singleton's record before its first save: the declared defaults,
// version 0.
func SingletonDefaults(scope store.Scope, c *Collection) Record {
	rec := Record{"id": scope.Tenant(), "version": 0}
	for _, f := range c.Fields {
		if f.Default != nil {
			rec[f.Name] = f.Default
		}
	}
	return rec
}

// LoadSingleton reads the tenant's singleton record, or its defaults when it was never saved. A
// path id other than the tenant's gets 404.
func (s *Service) LoadSingleton(ctx context.Context, scope store.Scope, c *Collection, id string) (Record, error) {
	if id != "" && id != scope.Tenant() {
		return nil, notFound(c)
	}
	var rec Record
	err := s.st.Get(ctx, s.singletonKey(scope, c), &rec)
	if store.IsNotFound(err) {
		return SingletonDefaults(scope, c), nil
	}
	return rec, err
}

func (s *Service) getSingleton(w http.ResponseWriter, r *http.Request, c *Collection) error {
	rec, err := s.LoadSingleton(r.Context(), auth.CallerFrom(r.Context()).Scope, c, r.PathValue("id"))
	if err != nil {
		return err
	}
	return api.OK(w, singletonView(c, rec))
}

// singletonView is view with every declared field present, null when unset.
func singletonView(c *Collection, rec Record) Record {
	out := view(c, rec)
	for _, f := range c.Fields {
		if _, ok := out[f.Name]; !ok && f.Type != TypePassword {
			out[f.Name] = nil
		}
	}
	return out
}

// PatchSingleton saves the fields the request names (version-checked: a stale version is 409)
// with one conditional put. Hooks that claim the PATCH route call it once they have checked
// their own rules.
func (s *Service) PatchSingleton(w http.ResponseWriter, r *http.Request, c *Collection) error {
	in, err := decodeInput(r, c)
	if err != nil {
		return err
	}
	wr, version, err := s.prepareUpdate(r.Context(), auth.CallerFrom(r.Context()), c, r.PathValue("id"), in, s.LoadSingleton)
	if err != nil {
		return err
	}
	if err := s.saveSingleton(r.Context(), wr, version); err != nil {
		return err
	}
	msg := c.SavedMessage
	if msg == "" {
		msg = c.Title + " updated successfully!"
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: singletonView(c, wr.Rec), Message: msg})
}

// saveSingleton writes a prepared save of a singleton at version (0: never saved): the whole
// record, its hooks, through commit.
func (s *Service) saveSingleton(ctx context.Context, wr *Write, version int) error {
	scope, c := wr.Caller.Scope, wr.C
	now := s.now().UTC().Format(time.RFC3339Nano)
	k := s.singletonKey(scope, c)
	wr.Rec["PK"], wr.Rec["SK"], wr.Rec["id"] = k.PK, k.SK, scope.Tenant()
	wr.Rec["version"], wr.Rec["updatedAt"] = version+1, now
	if wr.Rec["createdAt"] == nil {
		wr.Rec["createdAt"] = now
	}
	if err := s.beforeWrite(ctx, wr); err != nil {
		return err
	}
	for name, v := range wr.Rec {
		if v == nil || v == "" {
			delete(wr.Rec, name)
		}
	}
	put := s.st.Table.Put(wr.Rec)
	if version == 0 {
		put.If("attribute_not_exists(PK)")
	} else {
		put.If("version = ?", version)
	}
	return s.commit(ctx, wr, put, api.ErrConflict)
}
