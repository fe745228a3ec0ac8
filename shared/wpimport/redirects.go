package wpimport

import (
	"context"
	"sort"

	"github.com/campuscms/panel/shared/redirects"
)

// redirects adds a redirect from every old address of an imported page or post to its new one,
// unless it is the same address (the new site's paths come first: the website answers a
// redirect only where it has nothing else).
func (r *run) redirects(ctx context.Context) error {
	froms := make([]string, 0, len(r.plan.newPath))
	for from := range r.plan.newPath {
		froms = append(froms, from)
	}
	sort.Strings(froms)
	for _, from := range froms {
		to := r.plan.newPath[from]
		// The same address however spelled (/about/ and /about) needs no redirect.
		if n, err := redirects.Normalize(from); err == nil && n == to {
			continue
		}
		if r.opts.DryRun {
			r.rep.Imported.add(KindRedirect, 1)
			continue
		}
		res, err := redirects.Put(ctx, r.im.Svc, r.caller, from, to, 301)
		switch {
		case refused(err):
			r.rep.Failed.add("Redirect from %s: %s", from, describe(err))
		case err != nil:
			return err
		case res.Kept:
			r.rep.Notes.add("The redirect from %s someone made was kept (the import's would lead to %s).", from, to)
		case res.Changed:
			r.rep.Imported.add(KindRedirect, 1)
		default:
			r.rep.Unchanged.add(KindRedirect, 1)
		}
	}
	return nil
}
