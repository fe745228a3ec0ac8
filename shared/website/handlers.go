package website

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/public"
)

// homeSlug is the page that, when published, is the website's front page.
const homeSlug = public.HomeSlug

// landingSize is how many notices and events the front page shows.
const landingSize = 3

// maxSlides bounds the landing's slider.
const maxSlides = 10

// homeData is the theme's landing: the sliders as one slider section (when there is no home
// page), the latest notices and the upcoming events.
type homeData struct {
	Slides          *public.Section
	Notices, Events []public.Record
}

// slidesOf draws the sliders collection with the slider section's partial: a slider record is a
// slide item under its own field names (subtitle, not subTitle).
func slidesOf(recs []public.Record) *public.Section {
	if len(recs) == 0 {
		return nil
	}
	sec := &public.Section{ID: "sliders", Type: "slider"}
	for _, r := range recs {
		sec.Items = append(sec.Items, public.Record{"id": r["id"], "title": r["title"], "subTitle": r["subtitle"],
			"image": r["image"], "ctaText": r["ctaText"], "ctaUrl": r["ctaUrl"]})
	}
	return sec
}

// home serves /: the page with slug home if published, else the theme's landing; both show the
// latest notices and upcoming events, and the active popup. Those three lists need nothing the
// site's settings hold, so they are read side by side with them: the page costs the round trips
// of a content page, not three more (six calls in three round trips).
func (s *Server) home(q *req) (*view, error) {
	// WordPress's /?p=123 and /?page_id=7 are this address: their redirects come first.
	if done, err := s.redirectFirst(q); err != nil || done {
		if err == nil {
			err = errHandled
		}
		return nil, err
	}
	ctx := q.r.Context()
	now := s.read.Now()
	var data homeData
	var popups []public.Record
	lists := []struct {
		q   public.Query
		out *[]public.Record
		max int
	}{
		{public.Query{Kind: "notices"}, &data.Notices, landingSize},
		{public.Query{Kind: "events", Keep: public.EventsWhen(true, now), Less: public.EventsOrder(now)}, &data.Events, landingSize},
		{public.Query{Kind: "popups"}, &popups, 1},
	}
	errs := make([]error, len(lists))
	var wg sync.WaitGroup
	read := func(site *public.Site) {
		for i, lq := range lists {
			wg.Go(func() {
				recs, err := s.read.List(ctx, site, lq.q)
				*lq.out, errs[i] = firstN(recs, lq.max), err
			})
		}
	}
	var v *public.Visit
	var err error
	if q.lang == "" {
		// In the default language the lists need nothing the visit reads: they are read beside
		// it, from a copy of the site the visit does not write to.
		beside := *q.site
		read(&beside)
		v, err = s.load(q, public.Want{Slug: homeSlug})
	} else if v, err = s.load(q, public.Want{Slug: homeSlug}); err == nil {
		// In another language the lists are read once the visit knows the site's languages and
		// their policy (a round trip more, no call more).
		read(q.site)
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if v.Page == nil {
		// Without a home page the landing leads with the sliders (a home page has its own
		// sections instead).
		recs, err := s.read.List(ctx, q.site, public.Query{Kind: "sliders"})
		if err != nil {
			return nil, err
		}
		data.Slides = slidesOf(firstN(recs, maxSlides))
	}
	out := &view{Body: "home", Page: v.Page, Data: data}
	if v.Page != nil {
		if out.Forms, err = s.formsOf(q, v.Page); err != nil {
			return nil, err
		}
	}
	if len(popups) > 0 {
		out.Popup = popups[0]
	}
	for _, ev := range data.Events {
		out.JSONLD = append(out.JSONLD, eventLD(q.site, ev))
	}
	return out, nil
}

func firstN(recs []public.Record, n int) []public.Record {
	if len(recs) > n {
		return recs[:n]
	}
	return recs
}

// cmsPage serves /{slug}: a visible page with its sections in order.
func (s *Server) cmsPage(q *req) (*view, error) {
	slug := q.r.PathValue("slug")
	if !formats.Slug(slug) {
		return nil, errNotFound
	}
	v, err := s.load(q, public.Want{Slug: slug})
	if err != nil {
		return nil, err
	}
	if v.Page == nil || slug == homeSlug {
		// /home is the front page's address too; one canonical address each.
		if v.Page != nil {
			http.Redirect(q.w, q.r, q.loc.Href("/"), http.StatusMovedPermanently)
			return nil, errHandled
		}
		return nil, errNotFound
	}
	// A page asked in a language by another language's slug: its address there.
	if own := slugIn(v.Page.Record, q.loc.Lang); q.lang != "" && own != slug && formats.Slug(own) {
		http.Redirect(q.w, q.r, q.loc.Href(pagePathIn(v.Page.Record, q.loc.Lang)), http.StatusMovedPermanently)
		return nil, errHandled
	}
	return s.pageView(q, v.Page)
}

// pageView is a page and the forms its form sections show.
func (s *Server) pageView(q *req, p *public.Page) (*view, error) {
	forms, err := s.formsOf(q, p)
	if err != nil {
		return nil, err
	}
	return &view{Body: "page", Page: p, Forms: forms}, nil
}

// formsOf reads the forms a page's form sections show (one GetItem each). A form that is not
// there (deleted, hidden) leaves its section empty; any other failure to read one (throttling, a
// fault) fails the page, so the error page (never cached) is answered instead of a page missing
// its form that would be cached publicly.
func (s *Server) formsOf(q *req, p *public.Page) (map[string]*formView, error) {
	forms := map[string]*formView{}
	for _, sec := range p.Sections {
		if sec.Type != "form" {
			continue
		}
		for _, it := range sec.Items {
			id := str(it["formId"])
			if id == "" || forms[id] != nil {
				continue
			}
			f, err := s.read.Form(q.r.Context(), q.site, id)
			if err != nil {
				if notFoundIf404(err) == errNotFound {
					continue // a hidden or deleted form leaves its section empty, not the page broken
				}
				return nil, err
			}
			forms[id] = newFormView(q.loc, f, nil, nil)
		}
	}
	return forms, nil
}

// preview serves /_preview/{token}: the page a panel user asked to preview, published or not,
// never cached and never indexed. A forged, expired or other tenant's token is a 404.
func (s *Server) preview(q *req) (*view, error) {
	p, ok, err := s.read.Preview(q.r.Context(), q.site, q.r.PathValue("token"))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNotFound
	}
	// A preview of the page's draft (collections' workflow) shows the draft in its place.
	v, err := s.load(q, public.Want{PageID: p.PageID, Draft: p.Draft})
	if err != nil {
		return nil, err
	}
	if v.Page == nil {
		return nil, errNotFound
	}
	out, err := s.pageView(q, v.Page)
	if err != nil {
		return nil, err
	}
	out.Preview = true
	return out, nil
}

// errHandled says the handler has answered already (a redirect).
var errHandled = errorString("website: handled")

type errorString string

func (e errorString) Error() string { return string(e) }

// pageNumber reads ?page= (1 when absent or malformed).
func pageNumber(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 || n > 10_000 {
		return 1
	}
	return n
}

// robots serves /robots.txt, naming the site's own sitemap.
func (s *Server) robots(q *req) ([]byte, string, error) {
	body, err := s.read.Robots(q.r.Context(), q.site, q.site.Absolute("/sitemap.xml"))
	return body, "text/plain; charset=utf-8", err
}

// sitemap serves /sitemap.xml: the visible pages, the website's list pages and the sitemap
// entries, all on the host it was asked on, so every address in it answers here.
func (s *Server) sitemap(q *req) ([]byte, string, error) {
	paths := []string{"/"}
	for _, l := range listPages {
		paths = append(paths, l.path)
	}
	body, err := s.read.Sitemap(q.r.Context(), q.site, q.site.Origin, paths...)
	return body, "application/xml; charset=utf-8", err
}

// plain serves a non-HTML answer (robots.txt, sitemap.xml) of an existing tenant, cached.
func (s *Server) plain(h func(q *req) ([]byte, string, error)) http.Handler {
	return s.plainWith(public.Want{NoSettings: true}, h)
}

// plainWith is plain after reading what want names (the site's settings: the calendar's time
// zone).
func (s *Server) plainWith(want public.Want, h func(q *req) ([]byte, string, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := s.resolve(w, r)
		if err == nil {
			_, err = s.load(q, want)
		}
		if err != nil {
			s.fail(q, w, r, err)
			return
		}
		body, ct, err := h(q)
		if err != nil {
			s.fail(q, w, r, err)
			return
		}
		_ = public.WriteCached(w, r, ct, body)
	})
}
