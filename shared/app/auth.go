package app

import (
	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
)

// AuthModule serves /auth. It lives here, not in package auth, because every group links auth
// for its guard and auth cannot import app.
var AuthModule = Module{
	Name:     "auth",
	Prefixes: func() []string { return []string{"auth"} },
	Register: func(d *Deps, mux api.Mux, base, _ string) error {
		auth.NewService(d.Store, d.Guard, d.Config).Register(mux, base)
		return nil
	},
}
