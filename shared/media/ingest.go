package media

import (
	"context"
	"net/http"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// Details are what a file brings beside its bytes: an image's text alternative and caption.
type Details struct {
	Alt     string
	Caption string
	// Decorative marks an image that needs no text alternative (Item.Decorative).
	Decorative bool
}

// maxDetail bounds an alt text or caption.
const maxDetail = 1000

// Ingest adds a file this process holds (an importer's, not a browser's) to caller's media
// library as record id, through the path of an upload: the type and size checks of an upload
// request, the plan's quota held while it is pending, then the confirmation's checks of the real
// bytes (content matching the type, an image decoded and stored without its metadata) and its
// one transaction with the record's counters, words and audit entry. An id already in the
// library answers api.ErrConflict with nothing written.
func (s *Service) Ingest(ctx context.Context, caller *auth.Caller, id, name, mimeType string, body []byte, details Details) (Item, error) {
	name, err := displayName(name)
	if err != nil {
		return Item{}, err
	}
	switch {
	case len(body) > MaxSize:
		return Item{}, errTooLarge
	case len(body) == 0:
		return Item{}, errEmpty
	case len(mimeType) > maxMimeLen:
		return Item{}, api.FieldError(http.StatusBadRequest, "mimeType", "The file type is not valid.")
	}
	mt, err := acceptedType(mimeType)
	if err != nil {
		return Item{}, err
	}
	details.Alt, details.Caption = clip(details.Alt, maxDetail), clip(details.Caption, maxDetail)
	scope := caller.Scope
	if existing, err := s.records.Get(ctx, scope, id); err == nil {
		return existing, api.ErrConflict
	} else if !store.IsNotFound(err) {
		return Item{}, err
	}
	q, plan, err := quotaOf(caller.Tenant.PlanID)
	if err != nil {
		return Item{}, err
	}
	now := s.now().UTC()
	key := mediaref.UploadKey(scope, id, mediaref.SafeName(name))
	err = s.records.PutPending(ctx, scope, pendingUpload{PK: scope.Collection(kindUpload), SK: id, Name: name, Key: key,
		MimeType: mt, Size: int64(len(body)), CreatedAt: now, ExpiresAt: now.Add(pendingExpiry)}, q)
	if err != nil {
		return Item{}, quotaRefusal(err, plan)
	}
	if err := s.objects.Put(ctx, key, mt, CacheControl, body); err != nil {
		return Item{}, err
	}
	return s.confirmUpload(ctx, caller, key, "", details)
}

// clip is s without surrounding space, at most n bytes, cut on a character boundary.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
