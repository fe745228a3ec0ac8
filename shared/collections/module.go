package collections

import (
	"fmt"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/app"
)

// extraPrefixes are the routes the collections service serves beside the collections.
var extraPrefixes = []string{"permissions", "user-roles", "drafts", "languages"}

// Module serves every declared collection plus /permissions and /user-roles, with what the
// process links (hooks of collections other packages own, the rich-text sanitiser).
func Module(linked Linked) app.Module {
	return app.Module{
		Name: "collections",
		Prefixes: func() []string {
			reg, err := Load()
			if err != nil {
				return nil
			}
			return append(reg.Keys(), extraPrefixes...)
		},
		Register: func(d *app.Deps, mux api.Mux, base, prefix string) error {
			s, err := SharedService(d, linked)
			if err != nil {
				return err
			}
			switch prefix {
			case "permissions", "user-roles", "drafts", "languages":
				s.RegisterExtras(mux, base, prefix)
				return nil
			}
			return s.Register(mux, base, prefix)
		},
	}
}

// BuiltService returns the process's collections service once the collections module has built
// it (every module registers before the first request).
func BuiltService(d *app.Deps) (*Service, error) {
	if s, ok := app.Built[*Service](d, "collections"); ok {
		return s, nil
	}
	return nil, fmt.Errorf("collections: the process serves no collection (link collections.Module)")
}

// SharedService returns the process's one collections service, built on first use; other modules
// (pages, forms) use it to read and write their collections.
func SharedService(d *app.Deps, linked Linked) (*Service, error) {
	return app.Shared(d, "collections", func() (*Service, error) {
		reg, err := Load()
		if err != nil {
			return nil, err
		}
		return NewService(d.Store, d.Guard, reg, linked), nil
	})
}
