package public

import (
	"context"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/forms"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/themes"
)

// Reader reads a tenant's website content for both front doors: the JSON API under
// /api/v1/public and the server-rendered website. It is the one place that decides what a
// visitor may see (Visible), so a later rule (trash, schedules) is one change.
type Reader struct {
	// st reads eventually consistent (store.Eventual): half the cost of a strongly consistent
	// read, and what a visitor sees sits behind a 30-second cache anyway, so a write a second
	// old showing a moment later changes nothing a visitor can tell.
	st *store.Store
	// panel is the same table read strongly consistent, where a read must see the write just
	// before it: a preview (a staff member looking at what they just saved), a form submission
	// (checked against the form's version in its transaction), the rate limit's update.
	panel *store.Store
	reg   collections.Registry
	// themes is the theme catalogue, for the tenant's active theme.
	themes themes.Catalogue
	// mediaPrefix is the path media is served under ("/media/").
	mediaPrefix string
	now         func() time.Time
	// signups writes a visitor's newsletter signup through the engine (the one write the public
	// reads make to a collection).
	signups *collections.Service
	// forms stores a visitor's form submission with the mail it causes (forms.Submitter);
	// UseSubmitter gives it the panel's address and the mail nudger.
	forms forms.Submitter
}

// NewReader returns a reader over the table; objectURLPrefix is where media is served.
func NewReader(st *store.Store, objectURLPrefix string) (*Reader, error) {
	reg, err := collections.Load()
	if err != nil {
		return nil, err
	}
	cat, err := themes.Load()
	if err != nil {
		return nil, err
	}
	signups := collections.NewService(st, nil, reg, collections.Linked{Hooks: newsletter.Hooks()})
	return &Reader{st: st.Eventual(), panel: st, reg: reg, themes: cat, mediaPrefix: objectURLPrefix, now: time.Now, signups: signups,
		forms: forms.Submitter{Store: st}}, nil
}

// UseSubmitter makes the reader's form submissions mail as the process does (forms.NewSubmitter:
// the notification's link to the panel, the mail worker nudged after each submission), through
// the reader's strongly consistent table.
func (r *Reader) UseSubmitter(sub forms.Submitter) {
	sub.Store = r.panel
	r.forms = sub
}

// Now is the reader's clock (tests move it).
func (r *Reader) Now() time.Time { return r.now().UTC() }

// Store is the table the reader reads, strongly consistent (the website's submissions write
// through it).
func (r *Reader) Store() *store.Store { return r.panel }

// Visible is the rule every public read applies to a stored record of kind: it is active, inside
// its publishing window if it has one (publishAt passed, unpublishAt not yet: checked against the
// clock at read time, never the stored schedule state the job moves later), a page is also
// published (and has a slug to be reached at), and a popup shows only between its start and end
// dates.
func Visible(kind string, rec Record, now time.Time) bool {
	if rec["status"] != true {
		return false
	}
	switch collections.ScheduleAt(rec, now) {
	case collections.ScheduleScheduled, collections.ScheduleExpired:
		return false
	}
	switch kind {
	case pagesKind:
		slug, _ := rec["slug"].(string)
		return rec["isPublished"] == true && slug != ""
	case "popups":
		return popupShowing(rec, now)
	}
	return true
}

// Site is the tenant a public request is for and where the request came from.
type Site struct {
	Scope  store.Scope
	Tenant store.Tenant
	// Origin is scheme://host the request reached us at; the JSON API's media URLs and the
	// sitemap's own URL are built on it, since CloudFront serves /media/* on every host.
	Origin string
	// mediaPrefix is the reader's, so a template can turn a reference into a path.
	mediaPrefix string
	// images are the media records of the references LoadImages looked up.
	images map[string]Image
	// Lang is the language the site is read in: "" for its default language, else one of its
	// other languages (InLanguage). The website sets it from the address (/fr/…) before Visit,
	// which reads that language's slug marker and fills in the site's languages; the public API
	// from ?lang= or Accept-Language. Every read of the Reader is localized for it.
	Lang string
	// langs are the site's languages, from its Site settings (read with the tenant, or by Visit).
	langs siteLanguages
}

// Media is the root-relative path of one of the tenant's media references ("{ulid}/{name}"); an
// absolute URL (a logo set elsewhere) is kept as is, and "" stays "".
func (s *Site) Media(ref string) string {
	if ref == "" || isAbsolute(ref) {
		return ref
	}
	return s.mediaPrefix + s.Scope.Tenant() + "/" + ref
}

// Absolute is path on the site's own origin (canonical links, Open Graph images).
func (s *Site) Absolute(path string) string {
	if path == "" || isAbsolute(path) {
		return path
	}
	return s.Origin + path
}

// mediaURL is a media reference as a full URL on the site's origin (the JSON API's form).
func (s *Site) mediaURL(ref string) string { return s.Absolute(s.Media(ref)) }

func isAbsolute(s string) bool {
	return len(s) > 8 && (s[:7] == "http://" || s[:8] == "https://")
}

// site returns the Site of a tenant whose details were read.
func (r *Reader) site(scope store.Scope, t store.Tenant, origin string) *Site {
	return &Site{Scope: scope, Tenant: t, Origin: origin, mediaPrefix: r.mediaPrefix}
}

// Tenant reads the tenant an id names: one GetItem; api.ErrUnknownTenant when there is none.
func (r *Reader) Tenant(ctx context.Context, id, origin string) (*Site, error) {
	scope, err := store.NewScope(id)
	if err != nil {
		return nil, api.ErrUnknownTenant
	}
	// The tenant and its Site settings (its languages) in one BatchGetItem.
	c, err := r.singleton(collections.SettingsCollection)
	if err != nil {
		return nil, err
	}
	tk, sk := store.Key{PK: scope.Root(), SK: store.SKTenant}, store.Key{PK: scope.Root(), SK: c.Singleton}
	items, err := r.st.GetMany(ctx, tk, sk)
	if err != nil {
		return nil, err
	}
	var t store.Tenant
	if ok, err := store.Decode(items, tk, &t); err != nil {
		return nil, err
	} else if !ok {
		return nil, api.ErrUnknownTenant
	}
	settings := Record{}
	if _, err := store.Decode(items, sk, &settings); err != nil {
		return nil, err
	}
	out := r.site(scope, t, origin)
	out.setLanguages(settings)
	return out, nil
}

// TenantOfHost is the tenant id a website host maps to (its DOMAIN# lookup, one GetItem);
// api.ErrUnknownTenant when none does. The caller checks the host against the tenant's own list once it
// has read the tenant (HostAllowed).
func (r *Reader) TenantOfHost(ctx context.Context, host string) (string, error) {
	id, err := r.st.TenantOfHost(ctx, host)
	if store.IsNotFound(err) {
		return "", api.ErrUnknownTenant
	}
	return id, err
}

// Record reads one record of kind by id and answers it only when Visible, localized for the
// site's language (localize): ok is false for a missing, inactive or otherwise hidden one, or
// one the hide policy leaves out in that language. One GetItem.
func (r *Reader) Record(ctx context.Context, site *Site, kind, id string) (Record, bool, error) {
	var rec Record
	err := r.st.Table.Get("PK", site.Scope.Collection(kind)).Range("SK", dynamo.Equal, id).One(ctx, &rec)
	if err = store.Wrap(kind+" "+id, err); store.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !Visible(kind, rec, r.Now()) {
		return rec, false, nil
	}
	loc, ok := r.localize(site, kind, rec)
	if !ok {
		return rec, false, nil
	}
	return loc, true, nil
}

// Site returns the Site of the tenant scope names, reached at origin, before its details are read
// (Visit with Want.Tenant reads them).
func (r *Reader) Site(scope store.Scope, origin string) *Site {
	return r.site(scope, store.Tenant{}, origin)
}

// PreviewPage is the page a preview token of the site's tenant shows; ok is false for a forged,
// expired or other tenant's token. One GetItem, strongly consistent: the token was made a moment
// ago.
func (r *Reader) PreviewPage(ctx context.Context, site *Site, token string) (string, bool, error) {
	return pages.PreviewPageID(ctx, r.panel, site.Scope, token, r.Now())
}

// Preview is PreviewPage saying whether the token previews the page's draft (Want.Draft).
func (r *Reader) Preview(ctx context.Context, site *Site, token string) (pages.Preview, bool, error) {
	return pages.PreviewOf(ctx, r.panel, site.Scope, token, r.Now())
}
