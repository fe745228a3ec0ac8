// Package modules lists every module of the panel, for the processes that serve every group at
// once: the local server and the tests. A Lambda's main lists only its own group's modules.
package modules

import (
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/misc"
	"github.com/campuscms/panel/shared/pages"
)

// All returns every module.
func All() []app.Module {
	return []app.Module{app.AuthModule, misc.Module, media.Module, collections.Module(Hooks()), pages.Module}
}

// Hooks are the hooks of collections whose rules live outside the collections package; every
// process passes the same map, whichever module builds the shared service first.
func Hooks() map[string]collections.Hooks {
	return pages.Hooks()
}
