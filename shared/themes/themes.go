// Package themes is the theme catalogue and colour palettes (catalogue.json, data not code, also
// read by the SPA), GET /themes, and the rules of the theme-settings singleton: activating a
// theme ({themeId}, permission THEME) and saving fonts, palette and custom CSS (THEME_SETTING).
package themes

import (
	_ "embed"
	"fmt"
	"net/http"
	"sync"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/compiled"
)

//go:embed catalogue.json
var catalogueJSON []byte

// Theme is one theme of the catalogue; Image is a path in the SPA's public folder.
type Theme struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Image       string `json:"image"`
	Description string `json:"description"`
}

// Palette is one colour scheme of SPEC §9 with its primary and secondary colours.
type Palette struct {
	Name           string `json:"name"`
	PrimaryColor   string `json:"primaryColor"`
	SecondaryColor string `json:"secondaryColor"`
}

// Catalogue is the parsed catalogue.json.
type Catalogue struct {
	Themes   []Theme   `json:"themes"`
	Palettes []Palette `json:"palettes"`
}

//go:generate go run ./gen

// Load returns the catalogue, built once per process from its compiled copy (themes_gen.go) while
// that matches catalogue.json (every theme-settings save checks its theme against it). It is
// shared: read it, never modify it.
var Load = sync.OnceValues(func() (Catalogue, error) {
	c, err := compiled.Load(catalogueJSON, "catalogue.json", compiledCatalogue)
	if err != nil {
		return c, err
	}
	if len(c.Themes) == 0 || len(c.Palettes) == 0 {
		return c, fmt.Errorf("themes: catalogue.json needs themes and palettes")
	}
	return c, nil
})

// compiledCatalogue is set by themes_gen.go's init.
var compiledCatalogue compiled.Copy[Catalogue]

// Theme returns the theme with the given id.
func (c Catalogue) Theme(id string) (Theme, bool) {
	for _, t := range c.Themes {
		if t.ID == id {
			return t, true
		}
	}
	return Theme{}, false
}

// Palette returns the palette with the given name.
func (c Catalogue) Palette(name string) (Palette, bool) {
	for _, p := range c.Palettes {
		if p.Name == name {
			return p, true
		}
	}
	return Palette{}, false
}

// Module serves GET /themes (CMS_VIEW_THEME): the catalogue.
var Module = app.Module{
	Name:     "themes",
	Prefixes: func() []string { return []string{"themes"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		cat, err := Load()
		if err != nil {
			return err
		}
		total := int64(len(cat.Themes))
		mux.Handle("GET "+base+"/themes", d.Guard.Require("CMS_VIEW_THEME", func(w http.ResponseWriter, r *http.Request) error {
			return api.JSON(w, http.StatusOK, api.Envelope{Result: cat.Themes, TotalCount: &total})
		}))
		return nil
	},
}
