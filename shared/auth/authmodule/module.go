// Package authmodule serves /auth. It lives beside package auth, not in it, because it links the
// collections engine's recorder into auth's writes of users (their versions, audit entries,
// words and index attributes), and the engine imports auth.
package authmodule

import (
	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail/mailapp"
	"github.com/campuscms/panel/shared/secrets"
)

// Module serves /auth.
var Module = app.Module{
	Name:     "auth",
	Prefixes: func() []string { return []string{"auth"} },
	Register: func(d *app.Deps, mux api.Mux, base, _ string) error {
		sealer, err := secrets.FromEnv(d.AWS)
		if err != nil {
			return err
		}
		nudger, err := mailapp.Nudger(d)
		if err != nil {
			return err
		}
		panelURL, err := auth.PanelURLFromEnv()
		if err != nil {
			return err
		}
		auth.NewService(d.Store, d.Guard, d.Config, sealer, collections.NewUserRecorder(d.Store)).
			WithMail(nudger).WithPanelURL(panelURL).Register(mux, base)
		return nil
	},
}
