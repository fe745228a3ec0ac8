package pages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/lazyre"
	"github.com/campuscms/panel/shared/store"
)

// PreviewTTL is how long a preview address works.
const PreviewTTL = 15 * time.Minute

// PreviewPath is where the website serves a preview: PreviewPath + token.
const PreviewPath = "/_preview/"

// A preview address is a random token whose hash is stored under the tenant with the page id and
// an expiry (DynamoDB's TTL removes it later): it is bound to its tenant by the key it lives
// under, so another tenant's host cannot find it, and to its page by the item. A stored token,
// rather than an HMAC-signed one, needs no key to provision or rotate, and a forged one simply
// finds nothing.
type previewItem struct {
	PK        string `dynamo:"PK"`
	SK        string `dynamo:"SK"`
	PageID    string `dynamo:"pageId"`
	ExpiresAt int64  `dynamo:"expiresAt"`
	// Draft previews the page's draft (collections' workflow) instead of the page as saved.
	Draft bool `dynamo:"draft,omitempty"`
}

var tokenPattern = lazyre.New(`^[A-Za-z0-9_-]{20,64}$`)

func previewKey(scope store.Scope, token string) store.Key {
	sum := sha256.Sum256([]byte(token))
	return store.Key{PK: scope.Partition("PREVIEW"), SK: hex.EncodeToString(sum[:])}
}

// CreatePreview stores a preview token for a page of the tenant, valid PreviewTTL from now.
func CreatePreview(ctx context.Context, st *store.Store, scope store.Scope, pageID string, now time.Time) (string, time.Time, error) {
	return createPreview(ctx, st, scope, pageID, false, now)
}

// CreateDraftPreview is CreatePreview of the page's draft: the site shows the draft's fields and
// sections in place of the page's.
func CreateDraftPreview(ctx context.Context, st *store.Store, scope store.Scope, pageID string, now time.Time) (string, time.Time, error) {
	return createPreview(ctx, st, scope, pageID, true, now)
}

func createPreview(ctx context.Context, st *store.Store, scope store.Scope, pageID string, draft bool, now time.Time) (string, time.Time, error) {
	token := ids.Secret(24)
	k := previewKey(scope, token)
	until := now.Add(PreviewTTL).UTC()
	err := st.Table.Put(previewItem{PK: k.PK, SK: k.SK, PageID: pageID, ExpiresAt: until.Unix(), Draft: draft}).Run(ctx)
	return token, until, store.Wrap("create preview", err)
}

// PreviewPageID is the page a preview token of the tenant shows; ok is false for a malformed,
// unknown or expired token (TTL deletes lazily, so the expiry is checked here). One GetItem.
func PreviewPageID(ctx context.Context, st *store.Store, scope store.Scope, token string, now time.Time) (string, bool, error) {
	p, ok, err := PreviewOf(ctx, st, scope, token, now)
	return p.PageID, ok, err
}

// Preview is what a preview token shows: a page, or its draft.
type Preview struct {
	PageID string
	Draft  bool
}

// PreviewOf is PreviewPageID saying whether the token previews the page's draft.
func PreviewOf(ctx context.Context, st *store.Store, scope store.Scope, token string, now time.Time) (Preview, bool, error) {
	if !tokenPattern().MatchString(token) {
		return Preview{}, false, nil
	}
	var it previewItem
	err := st.Get(ctx, previewKey(scope, token), &it)
	if store.IsNotFound(err) {
		return Preview{}, false, nil
	}
	if err != nil {
		return Preview{}, false, err
	}
	return Preview{PageID: it.PageID, Draft: it.Draft}, now.Unix() < it.ExpiresAt, nil
}

// Routes claims POST /pages/{id}/preview (CMS_VIEW_PAGE: whoever may read the page in the panel
// may see it as the site would): {path, expiresAt}, the path on the tenant's website (the panel
// knows that address from tenant-info's websiteUrl).
func (pageHooks) Routes(s *collections.Service, mux api.Mux, path string, _ *collections.Collection) {
	mux.Handle("POST "+path+"/{id}/preview", s.Guard().Require(permView, func(w http.ResponseWriter, r *http.Request) error {
		// No body is needed; one that is sent must still be a JSON object, like every write's.
		// {"draft": true} previews the page's draft (a new page's too) as the site would show it.
		var body struct {
			Draft bool `json:"draft"`
		}
		if err := api.DecodeOptional(r, &body); err != nil {
			return err
		}
		scope := auth.CallerFrom(r.Context()).Scope
		id := r.PathValue("id")
		create := CreatePreview
		if body.Draft {
			create = CreateDraftPreview
			if _, ok, err := collections.DraftFields(r.Context(), s.Store(), scope, "pages", id); err != nil || !ok {
				if err != nil {
					return err
				}
				return &api.Error{Status: http.StatusNotFound, Message: "There is no draft of this page."}
			}
		} else if _, ok, err := LoadPage(r.Context(), s.Store(), scope, id); err != nil || !ok {
			return notFoundOr(err)
		}
		token, until, err := create(r.Context(), s.Store(), scope, id, time.Now())
		if err != nil {
			return err
		}
		return api.JSON(w, http.StatusCreated, api.Envelope{Result: map[string]string{
			"path": PreviewPath + token, "expiresAt": until.Format(time.RFC3339)}})
	}))
}

func notFoundOr(err error) error {
	if err != nil {
		return err
	}
	return &api.Error{Status: http.StatusNotFound, Message: "Page not found!"}
}
