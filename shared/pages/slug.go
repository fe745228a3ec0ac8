package pages

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
)

// maxSlugBase leaves room for a "-NN" suffix inside the 100 characters a slug may hold.
const maxSlugBase = 90

// fold spells common accented Latin letters in ASCII, so "Über uns" becomes "uber-uns" rather
// than "ber-uns".
var fold = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "æ", "ae", "ç", "c",
	"è", "e", "é", "e", "ê", "e", "ë", "e", "ì", "i", "í", "i", "î", "i", "ï", "i",
	"ñ", "n", "ò", "o", "ó", "o", "ô", "o", "õ", "o", "ö", "o", "ø", "o", "œ", "oe",
	"ù", "u", "ú", "u", "û", "u", "ü", "u", "ý", "y", "ÿ", "y", "ß", "ss", "&", " and ",
)

// Slugify makes a slug of a title: lowercase ASCII letters, digits and single hyphens, at most
// 90 characters; "page" when nothing is left.
func Slugify(title string) string {
	s := fold.Replace(strings.ToLower(title))
	var b strings.Builder
	hyphen := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		default:
			hyphen = true
		}
		if b.Len() >= maxSlugBase {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > maxSlugBase {
		out = strings.TrimRight(out[:maxSlugBase], "-")
	}
	if out == "" {
		return "page"
	}
	return out
}

// slugKey is the uniqueness marker of one slug: T#{t}#PAGESLUG / {slug} → pageId. The public
// website API finds a page by slug through it.
func slugKey(scope store.Scope, slug string) store.Key {
	return store.Key{PK: scope.Partition("PAGESLUG"), SK: slug}
}

type slugMarker struct {
	SK     string `dynamo:"SK"`
	PageID string `dynamo:"pageId"`
}

// maxSlugScan bounds the markers read to find a free suffix.
const maxSlugScan = 1000

// freeSlug returns base, or base-2, base-3… the first not taken in the tenant. On a retry (another
// create took the slug a moment ago) it picks at random among the first attempt+1 free ones, so
// many creates of one title at once spread out instead of clashing again.
func freeSlug(ctx context.Context, st *store.Store, scope store.Scope, base string, attempt int) (string, error) {
	if len(base) > maxSlugBase {
		base = strings.TrimRight(base[:maxSlugBase], "-")
	}
	var markers []slugMarker
	err := st.Table.Get("PK", scope.Partition("PAGESLUG")).Range("SK", dynamo.BeginsWith, base).
		Consistent(true).Limit(maxSlugScan).All(ctx, &markers)
	if err != nil {
		return "", store.Wrap("read slugs", err)
	}
	taken := make(map[string]bool, len(markers))
	for _, m := range markers {
		taken[m.SK] = true
	}
	want := min(attempt+1, 10)
	var free []string
	for n := 1; len(free) < want; n++ {
		cand := base
		if n > 1 {
			cand = base + "-" + strconv.Itoa(n)
		}
		if !taken[cand] {
			free = append(free, cand)
		}
	}
	return free[rand.IntN(len(free))], nil
}

// SlugOwners returns, for each of slugs taken in the tenant, the id of the page holding it: one
// batch read of their markers (an importer choosing slugs before it writes).
func SlugOwners(ctx context.Context, st *store.Store, scope store.Scope, slugs []string) (map[string]string, error) {
	owners := map[string]string{}
	for start := 0; start < len(slugs); start += 100 {
		batch := slugs[start:min(start+100, len(slugs))]
		keys := make([]store.Key, len(batch))
		for i, s := range batch {
			keys[i] = slugKey(scope, s)
		}
		found, err := st.GetMany(ctx, keys...)
		if err != nil {
			return nil, err
		}
		for k, item := range found {
			var m slugMarker
			if err := dynamo.UnmarshalItem(item, &m); err != nil {
				return nil, fmt.Errorf("read slug marker: %w", err)
			}
			owners[k.SK] = m.PageID
		}
	}
	return owners, nil
}
