package collections

import (
	"net/http"

	"github.com/campuscms/panel/shared/auth"
)

// Values reads r's JSON body as POST /{collection} reads it (declared fields only, derived ones
// ignored) and returns the values a create would store: required fields present, formats and
// sizes checked, rich text sanitised, defaults filled in; the same 400s as a create. It runs no
// hooks and writes nothing: what a preview of unsaved input renders (a newsletter's draft).
func (s *Service) Values(r *http.Request, c *Collection) (map[string]any, error) {
	in, err := decodeInput(r, c)
	if err != nil {
		return nil, err
	}
	return s.conv.values(auth.CallerFrom(r.Context()).Scope, c, in, true)
}
