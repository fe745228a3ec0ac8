package wpimport

import (
	"context"
	"sort"
	"strings"

	"github.com/campuscms/panel/shared/menu"
)

// menuNode is a WordPress menu item with its children, as the export's parent links make them.
type menuNode struct {
	e        *entry
	children []*menuNode
}

// chosenMenu is the menu the import brings: the largest (an export does not say which menu sat
// at the theme's primary location), the others named in the report.
func (r *run) chosenMenu() (slug string, items []*entry) {
	bySlug := map[string][]*entry{}
	for _, e := range r.ix.menuItems {
		for _, t := range e.Terms {
			if t.Domain == "nav_menu" {
				bySlug[t.Slug] = append(bySlug[t.Slug], e)
			}
		}
	}
	slugs := make([]string, 0, len(bySlug))
	for s := range bySlug {
		slugs = append(slugs, s)
	}
	sort.Slice(slugs, func(i, j int) bool {
		if len(bySlug[slugs[i]]) != len(bySlug[slugs[j]]) {
			return len(bySlug[slugs[i]]) > len(bySlug[slugs[j]])
		}
		return slugs[i] < slugs[j]
	})
	if len(slugs) == 0 {
		return "", nil
	}
	return slugs[0], bySlug[slugs[0]]
}

// menuName is a menu's name by its slug.
func (r *run) menuName(slug string) string {
	if n := r.ix.site.Menus[slug]; n != "" {
		return n
	}
	return slug
}

// menu replaces the tenant's menu with the export's (the one replaced stays in the menu's
// history): two levels, as ours has; deeper items are lifted to the second level.
func (r *run) menu(ctx context.Context) error {
	slug, entries := r.chosenMenu()
	if slug == "" {
		return nil
	}
	for s := range r.ix.site.Menus {
		if s != slug {
			r.rep.Notes.add("Menu %q was not imported: the site's menu is %q, the largest.", r.menuName(s), r.menuName(slug))
		}
	}
	roots := tree(entries)
	var items []menu.Item
	lifted, total, left := 0, 0, 0
	for _, n := range roots {
		if total >= menu.MaxItems {
			left++
			continue
		}
		top, ok := r.menuItem(n.e)
		if !ok {
			continue
		}
		total++
		var walk func(ns []*menuNode, depth int)
		walk = func(ns []*menuNode, depth int) {
			for _, c := range ns {
				if total >= menu.MaxItems {
					left++
				} else if kid, ok := r.menuItem(c.e); ok {
					top.Children = append(top.Children, kid)
					total++
					if depth > 1 {
						lifted++
					}
				}
				walk(c.children, depth+1)
			}
		}
		walk(n.children, 1)
		items = append(items, top)
	}
	if left > 0 {
		r.rep.Notes.add("Menu items left out (a menu holds at most %d): %d.", menu.MaxItems, left)
	}
	if lifted > 0 {
		r.rep.Notes.add("Menu items more than two levels deep: %d, now on the second level under their top item.", lifted)
	}
	n := menu.Count(items)
	if r.opts.DryRun {
		r.rep.Imported.add(KindMenu, n)
		return nil
	}
	changed, err := menu.Replace(ctx, r.im.Svc.Store(), r.caller, items)
	switch {
	case refused(err):
		r.rep.Failed.add("Menu %q: %s", r.menuName(slug), describe(err))
		return nil
	case err != nil:
		return err
	case changed:
		r.rep.Imported.add(KindMenu, n)
		r.rep.Notes.add("The menu is now %q (%d items); the menu it replaced is kept in the menu's history.", r.menuName(slug), n)
	default:
		r.rep.Unchanged.add(KindMenu, n)
	}
	return nil
}

// tree orders menu items into their levels, by menu order; an item whose parent is not in the
// menu is a top item.
func tree(entries []*entry) []*menuNode {
	nodes := map[int]*menuNode{}
	for _, e := range entries {
		nodes[e.ID] = &menuNode{e: e}
	}
	var roots []*menuNode
	for _, e := range entries {
		n := nodes[e.ID]
		if p := nodes[e.metaInt("_menu_item_menu_item_parent")]; p != nil && p != n {
			p.children = append(p.children, n)
		} else {
			roots = append(roots, n)
		}
	}
	var order func(ns []*menuNode)
	order = func(ns []*menuNode) {
		sort.SliceStable(ns, func(i, j int) bool { return ns[i].e.Order < ns[j].e.Order })
		for _, n := range ns {
			order(n.children)
		}
	}
	order(roots)
	return roots
}

// menuItem is our menu's item for a WordPress one: a page item leads to the imported page, a
// post item to its notice, a custom link stays (an old-site link goes to its new address), a
// category or tag link goes to the notices.
func (r *run) menuItem(e *entry) (menu.Item, bool) {
	typ, url := menu.TypeCustomURL, ""
	objectID := e.metaInt("_menu_item_object_id")
	target := r.ix.byID[objectID]
	label := e.Title
	switch e.Meta["_menu_item_type"] {
	case "post_type":
		if target == nil || r.plan.ids[objectID] == "" {
			r.rep.Notes.add("Menu item %q was left out: what it linked to was not imported.", orDefault(label, "(untitled)"))
			return menu.Item{}, false
		}
		if label == "" {
			label = target.Title
		}
		if target.Type == "page" {
			typ, url = menu.TypePage, r.plan.ids[objectID]
		} else {
			url = r.plan.pathOf(target)
		}
	case "taxonomy":
		url = "/notices"
		r.rep.Notes.add("Menu item %q linked to a %s: it leads to the notices.", orDefault(label, "(untitled)"), e.Meta["_menu_item_object"])
	default:
		url = strings.TrimSpace(e.Meta["_menu_item_url"])
		if to, ok := r.plan.link(url); ok {
			url = to
		}
	}
	if label == "" {
		label = url
	}
	if len(label) > 100 {
		label = summary(label, 99)
	}
	it, err := menu.NewItem(fixedID(r.scope, r.plan.created, "menu", e.ID), menu.Input{Label: &label, Type: &typ, URL: &url})
	if err != nil {
		r.rep.Notes.add("Menu item %q was left out: %s", label, describe(err))
		return menu.Item{}, false
	}
	return it, true
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
