package pages

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
)

// Permission codes of the PAGE category: sections are part of their page, so reading them needs
// the page's VIEW and changing them its EDIT.
const (
	permView = "CMS_VIEW_PAGE"
	permEdit = "CMS_EDIT_PAGE"
)

// Module serves /page-sections and /page-section-types (the pages themselves are a declared
// collection, served by the collections module with this package's Hooks).
var Module = app.Module{
	Name:     "pages",
	Prefixes: func() []string { return []string{"page-sections", "page-section-types"} },
	Register: func(d *app.Deps, mux api.Mux, base, prefix string) error {
		h := &handlers{st: d.Store, now: time.Now}
		g := d.Guard
		switch prefix {
		case "page-section-types":
			mux.Handle("GET "+base+"/page-section-types", g.Require(permView, api.HandlerFunc(h.types)))
		case "page-sections":
			p := base + "/page-sections"
			mux.Handle("GET "+p, g.Require(permView, api.HandlerFunc(h.list)))
			mux.Handle("POST "+p, g.Require(permEdit, api.HandlerFunc(h.create)))
			mux.Handle("PATCH "+p+"/{id}", g.Require(permEdit, api.HandlerFunc(h.patch)))
			mux.Handle("DELETE "+p+"/{id}", g.Require(permEdit, api.HandlerFunc(h.remove)))
		}
		return nil
	},
}

type handlers struct {
	st  *store.Store
	now func() time.Time
}

func (h *handlers) types(w http.ResponseWriter, _ *http.Request) error {
	n := int64(len(SectionTypes))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: SectionTypes, TotalCount: &n})
}

// list serves GET /page-sections?page_id=: the page's sections by position.
func (h *handlers) list(w http.ResponseWriter, r *http.Request) error {
	scope := auth.CallerFrom(r.Context()).Scope
	pageID := r.URL.Query().Get("page_id")
	if pageID == "" {
		return api.FieldError(http.StatusBadRequest, "page_id", "page_id is required!")
	}
	if _, err := pageVersion(r.Context(), h.st, scope, pageID); err != nil {
		return err
	}
	secs, err := loadSections(r.Context(), h.st, scope, pageID)
	if err != nil {
		return err
	}
	out := make([]sectionView, 0, len(secs))
	for _, s := range secs {
		out = append(out, viewOf(s))
	}
	n := int64(len(out))
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, TotalCount: &n})
}

// create serves POST /page-sections: the new section goes at its position (the end by default)
// and the page's other sections move down, in one transaction.
func (h *handlers) create(w http.ResponseWriter, r *http.Request) error {
	var in sectionInput
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	if in.PageSectionTypeID == nil || *in.PageSectionTypeID == "" {
		return api.FieldError(http.StatusBadRequest, "pageSectionTypeId", "Please select section type")
	}
	if in.PageID == nil || *in.PageID == "" {
		return api.FieldError(http.StatusBadRequest, "pageId", "Page is required!")
	}
	pos, err := parsePosition(in.Position)
	if err != nil {
		return err
	}
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	pageID := *in.PageID
	version, secs, err := pageState(ctx, h.st, scope, pageID)
	if err != nil {
		return err
	}
	if len(secs) >= MaxSections {
		return errTooManySections
	}
	now := h.now().UTC().Format(time.RFC3339Nano)
	sec := newSection(scope, pageID, ids.New())
	sec.CreatedAt, sec.UpdatedAt = now, now
	chk := newChecker(ctx, h.st, scope)
	chk.apply("", in, &sec, true)
	if err := chk.err(); err != nil {
		return err
	}
	before := positions(secs)
	if pos == 0 || pos > len(secs)+1 {
		pos = len(secs) + 1
	}
	list := slices.Insert(slices.Clone(secs), pos-1, sec)
	moved := renumber(list, before)
	sec = list[pos-1]
	tx := h.st.WriteTx().Put(h.st.Table.Put(sec).If("attribute_not_exists(PK)"))
	v, err := h.commit(ctx, tx, scope, pageID, version, moved, now)
	if err != nil {
		return err
	}
	out := viewOf(sec)
	out.PageVersion = v
	return api.JSON(w, http.StatusCreated, api.Envelope{Result: out, Message: "Page section created successfully!"})
}

// patch serves PATCH /page-sections/{id}: the fields present change; a new position moves the
// section and renumbers the others.
func (h *handlers) patch(w http.ResponseWriter, r *http.Request) error {
	var in sectionInput
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	pos, err := parsePosition(in.Position)
	if err != nil {
		return err
	}
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	sec, err := findSection(ctx, h.st, scope, r.PathValue("id"))
	if err != nil {
		return err
	}
	if in.PageID != nil && *in.PageID != "" && *in.PageID != sec.PageID {
		return api.FieldError(http.StatusBadRequest, "pageId", "A section cannot move to another page.")
	}
	version, secs, err := pageState(ctx, h.st, scope, sec.PageID)
	if err != nil {
		return err
	}
	chk := newChecker(ctx, h.st, scope)
	chk.apply("", in, &sec, false)
	if err := chk.err(); err != nil {
		return err
	}
	now := h.now().UTC().Format(time.RFC3339Nano)
	sec.UpdatedAt = now
	before := positions(secs)
	list := slices.DeleteFunc(slices.Clone(secs), func(s Section) bool { return s.ID == sec.ID })
	if pos == 0 {
		pos = before[sec.ID]
	}
	pos = max(1, min(pos, len(list)+1))
	list = slices.Insert(list, pos-1, sec)
	moved := slices.DeleteFunc(renumber(list, before), func(s Section) bool { return s.ID == sec.ID })
	sec = list[pos-1]
	tx := h.st.WriteTx().Put(h.st.Table.Put(sec).If("attribute_exists(PK)"))
	v, err := h.commit(ctx, tx, scope, sec.PageID, version, moved, now)
	if err != nil {
		return err
	}
	out := viewOf(sec)
	out.PageVersion = v
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: "Page section updated successfully!"})
}

// remove serves DELETE /page-sections/{id}; the sections after it move up.
func (h *handlers) remove(w http.ResponseWriter, r *http.Request) error {
	ctx, scope := r.Context(), auth.CallerFrom(r.Context()).Scope
	sec, err := findSection(ctx, h.st, scope, r.PathValue("id"))
	if err != nil {
		return err
	}
	version, secs, err := pageState(ctx, h.st, scope, sec.PageID)
	if err != nil {
		return err
	}
	before := positions(secs)
	list := slices.DeleteFunc(slices.Clone(secs), func(s Section) bool { return s.ID == sec.ID })
	moved := renumber(list, before)
	now := h.now().UTC().Format(time.RFC3339Nano)
	tx := h.st.WriteTx().Delete(h.st.Table.Delete("PK", sec.PK).Range("SK", sec.SK).If("attribute_exists(PK)"))
	v, err := h.commit(ctx, tx, scope, sec.PageID, version, moved, now)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]any{"id": sec.ID, "pageVersion": v}, Message: "Page Section Item Deleted!"})
}

// pageState reads what every section write is checked against: the page's version (the
// transaction is conditioned on it) and its sections (to renumber).
func pageState(ctx context.Context, st *store.Store, scope store.Scope, pageID string) (int, []Section, error) {
	version, err := pageVersion(ctx, st, scope, pageID)
	if err != nil {
		return 0, nil, err
	}
	secs, err := loadSections(ctx, st, scope, pageID)
	return version, secs, err
}

// commit adds the renumbered sections and the page's version bump (conditioned on the version
// read before) to tx and runs it; it returns the page's new version. Any section write of a page
// bumps its version, so a page save holding an older section list gets 409.
func (h *handlers) commit(ctx context.Context, tx *dynamo.WriteTx, scope store.Scope, pageID string, version int, moved []Section, now string) (int, error) {
	for _, s := range moved {
		tx.Update(h.st.Table.Update("PK", s.PK).Range("SK", s.SK).Set("position", s.Position).If("attribute_exists(PK)"))
	}
	k := pageKey(scope, pageID)
	at, err := time.Parse(time.RFC3339Nano, now)
	if err != nil {
		return 0, err
	}
	// The page's place in the Pages list sorted by last update moves with its updatedAt.
	attr, key := listing.UpdatedIndex(at, pageID)
	tx.Update(h.st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("version", 1).Set("updatedAt", now).Set(attr, key).If("version = ?", version))
	if err := tx.Run(ctx); err != nil {
		if dynamo.IsCondCheckFailed(err) {
			return 0, api.ErrConflict
		}
		return 0, store.Wrap("write sections", err)
	}
	return version + 1, nil
}
