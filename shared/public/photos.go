package public

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
	"github.com/guregu/dynamo/v2"
)

var errNoAlbum = &api.Error{Status: http.StatusNotFound, Message: "Album not found!"}

// albumPhotos serves GET /albums/{id}/photos: the active photos of an active album, newest
// first. An inactive or unknown album is a 404 like any unpublished content.
func (s *Service) albumPhotos(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	id := r.PathValue("id")
	if !ids.Valid(id) {
		return errNoAlbum
	}
	var album Record
	err := s.st.Table.Get("PK", st.scope.Collection("albums")).Range("SK", dynamo.Equal, id).One(r.Context(), &album)
	if store.IsNotFound(store.Wrap("album", err)) || (err == nil && album["status"] != true) {
		return errNoAlbum
	}
	if err != nil {
		return store.Wrap("album", err)
	}
	spec := listSpec{kind: "photos", nameField: "caption", where: func(*http.Request) (string, []any, error) {
		return "'albumId' = ?", []any{id}, nil
	}}
	return s.serveList(w, r, spec)
}
