package pages

import (
	"context"
	"fmt"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
)

// formsCollection is the collection page sections' forms are records of ("ref" of pageSections).
const formsCollection = "custom-forms"

// maxRecountPasses bounds the passes of RecountFormReferences while saves move counts under it.
const maxRecountPasses = 3

// RecountFormReferences sets each form's reference count to the number of the tenant's pages
// whose sections show it: the one-off step (run by the tenant's reindex) for pages saved before
// pages counted the forms they show, whose forms count nothing and could be deleted while shown.
// It reads every form's count first, then every page's sections (a Query of the pages' keys,
// then one of each page's sections, strongly consistent), and sets each count that differs on
// condition that it is still the one read: a save that moved a count meanwhile makes it read
// again, in another pass. A form its pages show that is gone is left alone. It answers how many
// counts it changed; running it again changes none.
func RecountFormReferences(ctx context.Context, st *store.Store, scope store.Scope) (int, error) {
	changed := 0
	for pass := 0; pass < maxRecountPasses; pass++ {
		n, stale, err := recountPass(ctx, st, scope)
		changed += n
		if err != nil || stale == 0 {
			return changed, err
		}
	}
	return changed, fmt.Errorf("pages: recount form references: counts kept moving under it; run it again: %w", store.ErrConflict)
}

// recountPass is one pass of RecountFormReferences: stale counts the counts that moved while it
// ran, left for the next pass.
func recountPass(ctx context.Context, st *store.Store, scope store.Scope) (changed, stale int, err error) {
	var forms []struct {
		ID       string `dynamo:"SK"`
		RefCount *int   `dynamo:"refCount"`
	}
	if err := st.Table.Get("PK", scope.Collection(formsCollection)).Project("SK", "refCount").Consistent(true).All(ctx, &forms); err != nil {
		return 0, 0, store.Wrap("recount form references: forms", err)
	}
	var pageKeys []store.Key
	if err := st.Table.Get("PK", scope.Collection(collectionKey)).Project("PK", "SK").Consistent(true).All(ctx, &pageKeys); err != nil {
		return 0, 0, store.Wrap("recount form references: pages", err)
	}
	shown := map[string]int{}
	for _, k := range pageKeys {
		secs, err := loadSections(ctx, st, scope, k.SK)
		if err != nil {
			return 0, 0, err
		}
		for _, id := range formsOf(secs) {
			shown[id]++
		}
	}
	for _, f := range forms {
		was := 0
		if f.RefCount != nil {
			was = *f.RefCount
		}
		if shown[f.ID] == was {
			continue
		}
		upd := st.Table.Update("PK", scope.Collection(formsCollection)).Range("SK", f.ID).Set("refCount", shown[f.ID])
		if f.RefCount == nil {
			upd.If("attribute_exists(PK) AND attribute_not_exists(refCount)")
		} else {
			upd.If("refCount = ?", was)
		}
		switch err := upd.Run(ctx); {
		case dynamo.IsCondCheckFailed(err):
			stale++
		case err != nil:
			return changed, stale, store.Wrap("recount form references", err)
		default:
			changed++
		}
	}
	return changed, stale, nil
}
