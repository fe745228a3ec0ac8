package app

import (
	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/secrets"
)

// AuthModule serves /auth. It lives here, not in package auth, because every group links auth
// for its guard and auth cannot import app.
var AuthModule = Module{
	Name:     "auth",
	Prefixes: func() []string { return []string{"auth"} },
	Register: func(d *Deps, mux api.Mux, base, _ string) error {
		sealer, err := secrets.FromEnv(d.AWS)
		if err != nil {
			return err
		}
		auth.NewService(d.Store, d.Guard, d.Config, sealer).Register(mux, base)
		return nil
	},
}
