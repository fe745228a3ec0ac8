package pages

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Reads for other packages (the public website API): each is one DynamoDB call on the key
// layout this package owns, so callers never spell the keys themselves.

// PageIDOfSlug returns the id of the tenant's page whose slug marker is slug; ok is false when no
// page holds it. One GetItem.
func PageIDOfSlug(ctx context.Context, st *store.Store, scope store.Scope, slug string) (id string, ok bool, err error) {
	var m slugMarker
	err = st.Get(ctx, slugKey(scope, slug), &m)
	if store.IsNotFound(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return m.PageID, m.PageID != "", nil
}

// LoadPage reads a page record of the tenant as stored; ok is false when there is none. One
// GetItem.
func LoadPage(ctx context.Context, st *store.Store, scope store.Scope, id string) (rec map[string]any, ok bool, err error) {
	if !ids.Valid(id) {
		return nil, false, nil
	}
	err = st.Get(ctx, pageKey(scope, id), &rec)
	if store.IsNotFound(err) {
		return nil, false, nil
	}
	return rec, err == nil, err
}

// Sections reads a page's sections ordered by position: one Query (a page holds at most
// MaxSections).
func Sections(ctx context.Context, st *store.Store, scope store.Scope, pageID string) ([]Section, error) {
	return loadSections(ctx, st, scope, pageID)
}

// TypeSlug is the slug of a section type id ("" for an unknown one).
func TypeSlug(typeID string) string {
	t, _ := typeByID(typeID)
	return t.Slug
}

// SlugKey is the key of the marker that maps slug to its page, for callers that read it in a
// batch with other items (the website reads it beside the site's settings).
func SlugKey(scope store.Scope, slug string) store.Key { return slugKey(scope, slug) }

// PageKey is the key of a page record, for batched reads.
func PageKey(scope store.Scope, id string) store.Key { return pageKey(scope, id) }

// MarkerPageID is the page id a slug marker item (read through SlugKey) names.
func MarkerPageID(item dynamo.Item) string {
	var m slugMarker
	if dynamo.UnmarshalItem(item, &m) != nil {
		return ""
	}
	return m.PageID
}

// DraftSections are the sections a page's draft lists (its pageSections as saved), checked as a
// save of them would check them but written nowhere: what a preview of the draft shows. A
// section the draft keeps takes its stored content first (existing: the live page's sections).
func DraftSections(ctx context.Context, st *store.Store, scope store.Scope, pageID string, draft any, existing []Section) ([]Section, error) {
	raw, err := json.Marshal(draft)
	if err != nil {
		return nil, err
	}
	var ins []sectionInput
	if err := json.Unmarshal(raw, &ins); err != nil {
		return nil, api.FieldError(http.StatusBadRequest, "pageSections", "Page sections must be a list of sections: "+trimJSONErr(err)+".")
	}
	byID := make(map[string]Section, len(existing))
	for _, sec := range existing {
		byID[sec.ID] = sec
	}
	chk := newChecker(ctx, st, scope)
	chk.prev = byID
	out := make([]Section, 0, len(ins))
	for i, in := range ins {
		sec := newSection(scope, pageID, ids.New())
		if in.ID != nil {
			if old, ok := byID[*in.ID]; ok {
				sec = newSection(scope, pageID, old.ID)
				sec.Translations = old.Translations // what the draft sends merges into them
			}
		}
		chk.apply(fmt.Sprintf("pageSections[%d].", i), in, &sec, true)
		sec.Position = i + 1
		out = append(out, sec)
	}
	return out, chk.err()
}
