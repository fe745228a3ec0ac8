// Package modules lists every module of the panel, for the processes that serve every group at
// once: the local server and the tests. A Lambda's main lists only its own group's modules.
package modules

import (
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/menu"
	"github.com/campuscms/panel/shared/misc"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/themes"
)

// All returns every module.
func All() []app.Module {
	return []app.Module{app.AuthModule, misc.Module, media.Module, menu.Module, themes.Module, plans.Module,
		collections.Module(themes.Hooks())}
}
