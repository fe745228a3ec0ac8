// Package modules lists every module of the panel, for the processes that serve every group at
// once: the local server and the tests. A Lambda's main lists only its own group's modules.
package modules

import (
	"github.com/campuscms/panel/shared/a11ycheck"
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/auditlog"
	"github.com/campuscms/panel/shared/auth/authmodule"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/menu"
	"github.com/campuscms/panel/shared/misc"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/redirects"
	"github.com/campuscms/panel/shared/richtext"
	"github.com/campuscms/panel/shared/themes"
	"github.com/campuscms/panel/shared/trash"
	"github.com/campuscms/panel/shared/visits"
	"github.com/campuscms/panel/shared/wpimport"
)

// All returns every module.
func All() []app.Module {
	return []app.Module{authmodule.Module, misc.Module, media.Module, menu.Module, themes.Module, plans.Module,
		collections.Module(Linked()), forms.Module, pages.Module, public.Module, auditlog.Module, trash.Module(Linked()), wpimport.Module, visits.Module, a11ycheck.Module}
}

// Observers are what every process that writes records links into the collections engine to
// record facts derived from them in the same transaction: the accessibility findings of a
// record that reaches the website (a11ycheck.Observe).
func Observers() []collections.Observer { return []collections.Observer{a11ycheck.Observe} }

// Linked is what every process links into the collections engine: the hooks of every collection
// whose rules live outside the collections package, and the rich-text sanitiser. Every process
// passes the same, whichever module builds the shared service first. A group's main passes what
// its collections need (content: pages' hooks and rich text; marketing: newsletter; forms:
// custom-forms; design: theme-settings; navigation: redirects).
func Linked() collections.Linked {
	hooks := map[string]collections.Hooks{}
	for _, m := range []map[string]collections.Hooks{pages.Hooks(), newsletter.Hooks(), forms.Hooks(), themes.Hooks(), redirects.Hooks()} {
		for name, h := range m {
			hooks[name] = h
		}
	}
	return collections.Linked{Hooks: hooks, RichText: richtext.Sanitize, Observers: Observers()}
}
