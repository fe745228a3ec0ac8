package a11ycheck

import (
	"context"
	"time"

	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/store"
)

// StoreResolver looks references up in the tenant's table: media records by their keys, pages
// by their slug markers then their records (batch reads, at most 100 keys a round trip; never a
// scan).
type StoreResolver struct {
	St    *store.Store
	Scope store.Scope
	Now   func() time.Time
}

var _ Resolver = StoreResolver{}

type mediaItem struct {
	AltText    string `dynamo:"altText"`
	Decorative bool   `dynamo:"decorative"`
}

// Media reads the media records of refs.
func (r StoreResolver) Media(ctx context.Context, refs []string) (map[string]Media, error) {
	keys := make([]store.Key, len(refs))
	for i, ref := range refs {
		keys[i] = mediaref.RecordKey(r.Scope, ref)
	}
	items, err := r.St.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	out := map[string]Media{}
	for i, k := range keys {
		var m mediaItem
		ok, err := store.Decode(items, k, &m)
		if err != nil {
			return nil, err
		}
		if ok {
			out[refs[i]] = Media(m)
		}
	}
	return out, nil
}

// Pages reads the slug markers of slugs, then the pages holding them, and says which are
// published (public.Visible, the website's own rule).
func (r StoreResolver) Pages(ctx context.Context, slugs []string) (map[string]bool, error) {
	owners, err := pages.SlugOwners(ctx, r.St, r.Scope, slugs)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	if len(owners) == 0 {
		return out, nil
	}
	keys := make([]store.Key, 0, len(owners))
	bySlug := map[string]store.Key{}
	for slug, id := range owners {
		k := store.Key{PK: r.Scope.Collection("pages"), SK: id}
		keys, bySlug[slug] = append(keys, k), k
	}
	items, err := r.St.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if r.Now != nil {
		now = r.Now()
	}
	for slug, k := range bySlug {
		var rec map[string]any
		ok, err := store.Decode(items, k, &rec)
		if err != nil {
			return nil, err
		}
		out[slug] = ok && public.Visible("pages", rec, now)
	}
	return out, nil
}
