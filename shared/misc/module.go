package misc

import (
	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
)

// Module serves /misc.
var Module = app.Module{
	Name:     "misc",
	Prefixes: func() []string { return []string{"misc"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		NewService(d.Store, d.Guard).Register(mux, base)
		return nil
	},
}
