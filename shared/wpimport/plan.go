package wpimport

import (
	"context"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
)

// plan is what every imported item becomes: its id, its slug (pages) and its address on the new
// site, and the old addresses that lead to it.
type plan struct {
	ix      *index
	scope   store.Scope
	created time.Time
	// ids are the new records' ids by WordPress id (pages, posts, attachments).
	ids map[int]string
	// slugs are the pages' slugs as they will be written.
	slugs map[int]string
	// newPath finds a new address by an old one (a permalink's path, "/?p=12").
	newPath map[string]string
}

func newPlan(ix *index, scope store.Scope, created time.Time) *plan {
	p := &plan{ix: ix, scope: scope, created: created, ids: map[int]string{}, slugs: map[int]string{}, newPath: map[string]string{}}
	for _, e := range ix.attachments {
		p.ids[e.ID] = fixedID(scope, created, "attachment", e.ID)
	}
	for _, e := range ix.content {
		p.ids[e.ID] = fixedID(scope, created, e.Type, e.ID)
	}
	return p
}

// wantedSlug is the slug a page asks for: its WordPress slug with its parents' before it, in
// the form our slugs take.
func (p *plan) wantedSlug(e *entry) string {
	s := p.ix.slugPath(e)
	if dec, err := url.PathUnescape(s); err == nil {
		s = dec
	}
	if s = pages.Slugify(s); s == "" {
		s = pages.Slugify(e.Title)
	}
	return s
}

// resolveSlugs chooses every page's slug: the one it asks for (parents first) unless another
// page of the tenant, or an earlier page of the export, holds it; then its own slug alone; then
// what the engine makes of its title. One batch read of the slugs' markers.
func (p *plan) resolveSlugs(ctx context.Context, r *run) error {
	var wanted []string
	for _, e := range p.ix.pages {
		wanted = append(wanted, p.wantedSlug(e), pages.Slugify(e.Slug))
	}
	owners, err := pages.SlugOwners(ctx, r.im.Svc.Store(), p.scope, dedupe(wanted))
	if err != nil {
		return err
	}
	taken := func(slug string, e *entry) bool {
		owner, ok := owners[slug]
		return slug == "" || (ok && owner != p.ids[e.ID])
	}
	for _, e := range p.ix.pages {
		want := p.wantedSlug(e)
		slug := want
		if taken(slug, e) {
			slug = pages.Slugify(e.Slug)
			if taken(slug, e) {
				slug = "" // the engine makes a free one of the title
			}
			if r.opts.From.Step == 0 { // a resumed run's report has the note
				r.rep.Notes.add("Page %q: the address /%s was taken, so it is /%s.", e.Title, want, orTitle(slug, e))
			}
		}
		if slug != "" {
			owners[slug] = p.ids[e.ID]
		}
		p.slugs[e.ID] = slug
	}
	p.addresses()
	return nil
}

func orTitle(slug string, e *entry) string {
	if slug != "" {
		return slug
	}
	return pages.Slugify(e.Title) + "…"
}

// pathOf is the new address of an imported page or post.
func (p *plan) pathOf(e *entry) string {
	if e.Type == "page" {
		if s := p.slugs[e.ID]; s != "" {
			return "/" + s
		}
		return ""
	}
	return "/notices/" + p.ids[e.ID]
}

// addresses maps every old address of an imported page or post to its new one: its permalink's
// path, /?p={id} and, for a page, /?page_id={id}.
func (p *plan) addresses() {
	for _, e := range p.ix.content {
		to := p.pathOf(e)
		if to == "" {
			continue
		}
		for _, from := range p.oldPaths(e) {
			if _, ok := p.newPath[from]; !ok {
				p.newPath[from] = to
			}
		}
	}
}

// oldPaths are the addresses WordPress answered an item at.
func (p *plan) oldPaths(e *entry) []string {
	var out []string
	if path, ok := p.ix.site.Local(e.Link); ok && path != "" && path != "/" {
		out = append(out, trimSlash(path))
	}
	id := strconv.Itoa(e.ID)
	out = append(out, "/?p="+id)
	if e.Type == "page" {
		out = append(out, "/?page_id="+id)
	}
	return out
}

// link is the new address of an old one (an href in content, a custom menu link).
func (p *plan) link(u string) (string, bool) {
	path, ok := p.ix.site.Local(u)
	if !ok {
		return "", false
	}
	frag := ""
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, frag = path[:i], path[i:]
	}
	if to, ok := p.newPath[trimSlash(path)]; ok {
		return to + frag, true
	}
	if path == "" || path == "/" {
		return "/" + frag, true
	}
	return "", false
}

// trimSlash is a path without its trailing slash (WordPress's permalinks end in one, ours don't).
func trimSlash(path string) string {
	q := ""
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, q = path[:i], path[i:]
	}
	if len(path) > 1 {
		path = strings.TrimRight(path, "/")
	}
	if path == "" {
		path = "/"
	}
	return path + q
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := in[:0]
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
