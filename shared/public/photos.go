package public

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/ids"
)

var errNoAlbum = &api.Error{Status: http.StatusNotFound, Message: "Album not found!"}

// albumPhotos serves GET /albums/{id}/photos: the visible photos of a visible album, newest
// first. A hidden or unknown album is a 404 like any unpublished content.
func (s *Service) albumPhotos(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if !ids.Valid(id) {
		return errNoAlbum
	}
	if _, ok, err := s.read.Record(r.Context(), siteFrom(r.Context()), "albums", id); err != nil || !ok {
		return notFoundOr(err, errNoAlbum)
	}
	spec := listSpec{kind: "photos", nameField: "caption", where: func(*http.Request) (string, []any, error) {
		return AlbumPhotos(id)
	}}
	return s.serveList(w, r, spec)
}

// AlbumPhotos is the filter of an album's photos.
func AlbumPhotos(albumID string) (string, []any, error) { return "'albumId' = ?", []any{albumID}, nil }

// notFoundOr is err, or notFound when there is none.
func notFoundOr(err error, notFound error) error {
	if err != nil {
		return err
	}
	return notFound
}
