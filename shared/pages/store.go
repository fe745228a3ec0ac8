package pages

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// collectionKey is the pages collection (collections.json), whose records the engine stores.
const collectionKey = "pages"

const sectionPrefix = "SEC#"

var (
	errPageNotFound    = &api.Error{Status: http.StatusNotFound, Message: "Page not found!"}
	errSectionNotFound = &api.Error{Status: http.StatusNotFound, Message: "Page section not found!"}
	errTooManySections = api.FieldError(http.StatusBadRequest, "pageSections",
		fmt.Sprintf("A page holds at most %d sections. Remove a section before adding another.", MaxSections))
	errTooManyWithForms = api.FieldError(http.StatusBadRequest, "pageSections",
		fmt.Sprintf("A page holds at most %d sections, and each form it shows counts as one more. Remove a section before adding another.", MaxSections))
)

// pageKey is the key of a page record.
func pageKey(scope store.Scope, id string) store.Key {
	return store.Key{PK: scope.Collection(collectionKey), SK: id}
}

// sectionKey is the key of a page's section.
func sectionKey(scope store.Scope, pageID, id string) store.Key {
	return store.Key{PK: scope.Partition("PAGE", pageID), SK: sectionPrefix + id}
}

// sectionIndexPK is GSI1's partition of the tenant's sections, sorted by section id.
func sectionIndexPK(scope store.Scope) string { return scope.Partition("PAGESECTION") }

// newSection returns an empty section of a page with its keys set.
func newSection(scope store.Scope, pageID, id string) Section {
	k := sectionKey(scope, pageID, id)
	return Section{PK: k.PK, SK: k.SK, GSI1PK: sectionIndexPK(scope), GSI1SK: id, ID: id, PageID: pageID}
}

// pageVersion reads a page's version (404 when the page is not the tenant's).
func pageVersion(ctx context.Context, st *store.Store, scope store.Scope, id string) (int, error) {
	if !ids.Valid(id) {
		return 0, errPageNotFound
	}
	var rec struct {
		Version int `dynamo:"version"`
	}
	err := st.Get(ctx, pageKey(scope, id), &rec)
	if store.IsNotFound(err) {
		return 0, errPageNotFound
	}
	return rec.Version, err
}

// loadSections reads a page's sections in one query (a page holds at most MaxSections), ordered
// by position: strongly consistent, unless st is Eventual (the public website's reads).
func loadSections(ctx context.Context, st *store.Store, scope store.Scope, pageID string) ([]Section, error) {
	var secs []Section
	err := st.Table.Get("PK", scope.Partition("PAGE", pageID)).Range("SK", dynamo.BeginsWith, sectionPrefix).
		Consistent(st.Consistent()).Limit(100).All(ctx, &secs)
	if err != nil {
		return nil, store.Wrap("read sections", err)
	}
	sortSections(secs)
	return secs, nil
}

func sortSections(secs []Section) {
	sort.SliceStable(secs, func(i, j int) bool {
		if secs[i].Position != secs[j].Position {
			return secs[i].Position < secs[j].Position
		}
		return secs[i].ID < secs[j].ID
	})
}

// findSection finds a section of the tenant by id through GSI1, then reads it strongly
// consistent from its page's partition.
func findSection(ctx context.Context, st *store.Store, scope store.Scope, id string) (Section, error) {
	var sec Section
	if !ids.Valid(id) {
		return sec, errSectionNotFound
	}
	err := st.Table.Get("GSI1PK", sectionIndexPK(scope)).Range("GSI1SK", dynamo.Equal, id).Index("GSI1").One(ctx, &sec)
	if store.IsNotFound(store.Wrap("find section", err)) {
		return sec, errSectionNotFound
	}
	if err != nil {
		return sec, store.Wrap("find section", err)
	}
	if !strings.HasPrefix(sec.PK, scope.Partition("PAGE")+"#") {
		return sec, errSectionNotFound
	}
	err = st.Get(ctx, store.Key{PK: sec.PK, SK: sec.SK}, &sec)
	if store.IsNotFound(err) {
		return sec, errSectionNotFound
	}
	return sec, err
}

// positions maps each section id to its position.
func positions(secs []Section) map[string]int {
	out := make(map[string]int, len(secs))
	for _, s := range secs {
		out[s.ID] = s.Position
	}
	return out
}
