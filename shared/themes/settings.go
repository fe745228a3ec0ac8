package themes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
)

// PermActivate is the code that activates a theme (SPEC §7: PATCH /theme-settings/{id} {themeId}).
const PermActivate = "CMS_EDIT_THEME"

// Hooks returns the collections hooks this package implements; pass the same map to
// collections.Module in modules.All and in the design group's main.
func Hooks() map[string]collections.Hooks {
	return map[string]collections.Hooks{"theme-settings": settingsHooks{}}
}

// settingsHooks are the rules of the theme-settings singleton: the active theme must be one of
// the catalogue and needs the THEME permission; a palette brings its colours.
type settingsHooks struct{ collections.NoHooks }

// Routes claims PATCH /theme-settings and /theme-settings/{id}: SPEC sends both a theme
// activation ({themeId}) and a settings save to the same route, and the two need different
// permissions (THEME and THEME_SETTING), so the permission is chosen from the body.
func (settingsHooks) Routes(s *collections.Service, mux api.Mux, path string, c *collections.Collection) {
	h := s.Guard().Require("", func(w http.ResponseWriter, r *http.Request) error { return activateOrSave(s, c, w, r) })
	mux.Handle("PATCH "+path, h)
	mux.Handle("PATCH "+path+"/{id}", h)
}

func activateOrSave(s *collections.Service, c *collections.Collection, w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return api.Errorf(http.StatusRequestEntityTooLarge, "Request body is too large (limit %d KB).", api.MaxBodyBytes/1024)
		}
		return api.Errorf(http.StatusBadRequest, "Could not read the request body.")
	}
	user := auth.CallerFrom(r.Context()).User
	var fields map[string]json.RawMessage
	// Invalid JSON falls through to the engine, which answers it with its usual message.
	if json.Unmarshal(body, &fields) == nil && fields["themeId"] != nil {
		if !user.Can(PermActivate) {
			return api.ErrForbidden
		}
		activation := map[string]json.RawMessage{"theme": fields["themeId"]}
		for name, v := range fields {
			switch name {
			case "themeId":
			case "version":
				activation[name] = v
			default:
				return api.FieldError(http.StatusBadRequest, name, "A theme is activated with themeId alone.")
			}
		}
		body, _ = json.Marshal(activation)
	} else if !user.Can(c.Permission("EDIT")) {
		return api.ErrForbidden
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return s.PatchSingleton(w, r, c)
}

// BeforeWrite checks the theme against the catalogue (and the caller's right to activate it)
// and fills a chosen palette's colours unless the request gives its own.
func (settingsHooks) BeforeWrite(_ context.Context, _ *collections.Service, w *collections.Write) error {
	cat, err := Load()
	if err != nil {
		return err
	}
	if w.Changed("theme") {
		id, _ := w.Rec["theme"].(string)
		if _, ok := cat.Theme(id); !ok {
			return api.FieldError(http.StatusBadRequest, "theme", "Theme not found!")
		}
		if !w.Caller.User.Can(PermActivate) {
			return api.ErrForbidden
		}
	}
	if name, ok := w.Values["colorSchemeName"].(string); ok {
		if p, found := cat.Palette(name); found {
			for field, colour := range map[string]string{"primaryColor": p.PrimaryColor, "secondaryColor": p.SecondaryColor} {
				if _, given := w.Values[field]; !given {
					w.Rec[field] = colour
				}
			}
		}
	}
	return nil
}
