package misc

import (
	"net/http"

	"github.com/campuscms/panel/shared/app"
)

// Module serves /misc.
var Module = app.Module{
	Name:     "misc",
	Prefixes: func() []string { return []string{"misc"} },
	Register: func(d *app.Deps, mux *http.ServeMux, base, _ string) error {
		NewService(d.Store, d.Guard).Register(mux, base)
		return nil
	},
}
