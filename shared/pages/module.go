package pages

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
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
		h := &handlers{st: d.Store, deps: d}
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
	st   *store.Store
	deps *app.Deps
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
// and the page's other sections move down.
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
	ctx, caller := r.Context(), auth.CallerFrom(r.Context())
	pageID := *in.PageID
	version, secs, err := pageState(ctx, h.st, caller.Scope, pageID)
	if err != nil {
		return err
	}
	if len(secs) >= MaxSections {
		return errTooManySections
	}
	// The new section has no id yet: the page's update gives it one.
	sec := Section{PageID: pageID}
	chk := newChecker(ctx, h.st, caller.Scope)
	chk.apply("", in, &sec, true)
	if err := chk.err(); err != nil {
		return err
	}
	if pos == 0 || pos > len(secs)+1 {
		pos = len(secs) + 1
	}
	v, saved, err := h.writeSections(ctx, caller, pageID, version, secs, slices.Insert(slices.Clone(secs), pos-1, sec))
	if err != nil {
		return err
	}
	out := viewOf(saved[pos-1])
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
	ctx, caller := r.Context(), auth.CallerFrom(r.Context())
	sec, err := findSection(ctx, h.st, caller.Scope, r.PathValue("id"))
	if err != nil {
		return err
	}
	if in.PageID != nil && *in.PageID != "" && *in.PageID != sec.PageID {
		return api.FieldError(http.StatusBadRequest, "pageId", "A section cannot move to another page.")
	}
	version, secs, err := pageState(ctx, h.st, caller.Scope, sec.PageID)
	if err != nil {
		return err
	}
	chk := newChecker(ctx, h.st, caller.Scope)
	chk.apply("", in, &sec, false)
	if err := chk.err(); err != nil {
		return err
	}
	list := slices.DeleteFunc(slices.Clone(secs), func(s Section) bool { return s.ID == sec.ID })
	if pos == 0 {
		pos = positions(secs)[sec.ID]
	}
	pos = max(1, min(pos, len(list)+1))
	v, saved, err := h.writeSections(ctx, caller, sec.PageID, version, secs, slices.Insert(list, pos-1, sec))
	if err != nil {
		return err
	}
	out := viewOf(saved[pos-1])
	out.PageVersion = v
	return api.JSON(w, http.StatusOK, api.Envelope{Result: out, Message: "Page section updated successfully!"})
}

// remove serves DELETE /page-sections/{id}; the sections after it move up.
func (h *handlers) remove(w http.ResponseWriter, r *http.Request) error {
	ctx, caller := r.Context(), auth.CallerFrom(r.Context())
	sec, err := findSection(ctx, h.st, caller.Scope, r.PathValue("id"))
	if err != nil {
		return err
	}
	version, secs, err := pageState(ctx, h.st, caller.Scope, sec.PageID)
	if err != nil {
		return err
	}
	list := slices.DeleteFunc(slices.Clone(secs), func(s Section) bool { return s.ID == sec.ID })
	v, _, err := h.writeSections(ctx, caller, sec.PageID, version, secs, list)
	if err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]any{"id": sec.ID, "pageVersion": v}, Message: "Page Section Item Deleted!"})
}

// writeSections saves a page's whole section list, in order, through the page's own update (the
// collections engine: the page's version, updatedAt and list index, the version it keeps, the
// section writes of its hooks), so the /page-sections routes are adapters over one write path.
// secs are the page's sections at version, as pageState read them: the update reads them no
// more. It returns the page's new version and its sections as saved.
func (h *handlers) writeSections(ctx context.Context, caller *auth.Caller, pageID string, version int, secs, list []Section) (int, []Section, error) {
	svc, err := collections.BuiltService(h.deps)
	if err != nil {
		return 0, nil, err
	}
	ctx = withKnownSections(ctx, pageID, version, secs)
	out, err := svc.UpdateViewed(ctx, caller, svc.Registry()[collectionKey], pageID, map[string]any{"pageSections": list, "version": version})
	if err != nil {
		return 0, nil, err
	}
	views, _ := out["pageSections"].([]sectionView)
	saved := make([]Section, len(views))
	for i, v := range views {
		saved[i] = v.Section
	}
	v, _ := out["version"].(int)
	return v, saved, nil
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

type knownKey struct{}

// known are a page's sections read at a version of the page.
type known struct {
	pageID  string
	version int
	secs    []Section
}

// withKnownSections hands the page's update the sections pageState read, read after the page's
// version: if the page is still at that version when the update loads it (and when its
// transaction, conditioned on it, runs), no section write came between, so they are the
// sections the update replaces.
func withKnownSections(ctx context.Context, pageID string, version int, secs []Section) context.Context {
	return context.WithValue(ctx, knownKey{}, known{pageID: pageID, version: version, secs: secs})
}

// knownSections are the sections withKnownSections handed over for the page at version.
func knownSections(ctx context.Context, pageID string, version any) ([]Section, bool) {
	k, ok := ctx.Value(knownKey{}).(known)
	if !ok || k.pageID != pageID || fmt.Sprint(k.version) != fmt.Sprint(version) {
		return nil, false
	}
	return slices.Clone(k.secs), true
}
