package website

import (
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/richtext"
)

// perPage is how many records one page of a website list shows.
const perPage = 12

// listPage is one of the website's list pages (and, with detail, its records' own pages).
type listPage struct {
	// title is the page's heading, a message key (messages.go).
	path, kind, title, body string
	// nav is the page's name in the site's fixed links (footer, quick links), a message key; ""
	// leaves it out.
	nav    string
	detail bool
	// query narrows and orders the list.
	query func(s *Server, q *req) public.Query
}

// listPages are the website's fixed list pages, each drawn by the template named by body.
var listPages = []listPage{
	{path: "/events", kind: "events", title: "nav.events", nav: "nav.events", body: "events", detail: true, query: func(s *Server, _ *req) public.Query {
		return public.Query{Kind: "events", Less: public.EventsOrder(s.read.Now())}
	}},
	{path: "/notices", kind: "notices", title: "nav.notices", nav: "nav.notices", body: "notices", detail: true},
	{path: "/albums", kind: "albums", title: "nav.gallery", nav: "nav.gallery", body: "albums", detail: true},
	{path: "/staff", kind: "staff-members", title: "staff.title", nav: "nav.staff", body: "staff", query: func(_ *Server, q *req) public.Query {
		lq := public.Query{Kind: "staff-members", Less: public.PositionLess}
		if d := q.r.URL.Query().Get("department"); ids.Valid(d) {
			lq.Where, lq.Args = "'department' = ?", []any{d}
		}
		return lq
	}},
	{path: "/departments", kind: "departments", title: "nav.departments", nav: "nav.departments", body: "departments", query: func(*Server, *req) public.Query {
		return public.Query{Kind: "departments", Less: public.NameLess("name")}
	}},
	{path: "/faqs", kind: "faqs", title: "faqs.title", nav: "nav.faqs", body: "faqs", query: func(*Server, *req) public.Query {
		return public.Query{Kind: "faqs", Less: public.PositionLess}
	}},
	{path: "/resources", kind: "resources", title: "nav.resources", nav: "nav.resources", body: "resources"},
	{path: "/testimonials", kind: "testimonials", title: "nav.testimonials", body: "testimonials"},
}

// Link is one of the site's fixed links; Label is a message key.
type Link struct{ Path, Label string }

// fixedLinks are the list pages the footer and a theme's quick links name, in order.
var fixedLinks = func() []Link {
	var out []Link
	for _, l := range listPages {
		if l.nav != "" {
			out = append(out, Link{Path: l.path, Label: l.nav})
		}
	}
	return out
}()

// listData is one page of a list.
type listData struct {
	Items      []public.Record
	Page, Last int
	// Upcoming and Past split the events list.
	Upcoming, Past []public.Record
	// Departments names departments by id (the staff page).
	Departments map[string]string
	// Department is the one the staff list is narrowed to.
	Department string
}

// list serves a list page: its visible records in order, perPage at a time.
func (s *Server) list(l listPage) handler {
	return func(q *req) (*view, error) {
		if _, err := s.load(q, public.Want{}); err != nil {
			return nil, err
		}
		lq := public.Query{Kind: l.kind}
		if l.query != nil {
			lq = l.query(s, q)
		}
		recs, err := s.read.List(q.r.Context(), q.site, lq)
		if err != nil {
			return nil, err
		}
		d := listData{Page: pageNumber(q.r), Last: max(1, (len(recs)+perPage-1)/perPage)}
		if d.Page > d.Last {
			return nil, errNotFound
		}
		start := (d.Page - 1) * perPage
		d.Items = recs[start:min(len(recs), start+perPage)]
		v := &view{Body: l.body, Title: q.T(l.title), Data: &d}
		switch l.kind {
		case "events":
			now := s.read.Now()
			upcoming := public.EventsWhen(true, now)
			for _, ev := range d.Items {
				if upcoming(ev) {
					d.Upcoming = append(d.Upcoming, ev)
					v.JSONLD = append(v.JSONLD, eventLD(q.site, ev))
				} else {
					d.Past = append(d.Past, ev)
				}
			}
		case "staff-members":
			deps, err := s.read.List(q.r.Context(), q.site, public.Query{Kind: "departments"})
			if err != nil {
				return nil, err
			}
			d.Departments = map[string]string{}
			for _, dep := range deps {
				d.Departments[str(dep["id"])] = str(dep["name"])
			}
			if dep := q.r.URL.Query().Get("department"); d.Departments[dep] != "" {
				d.Department = d.Departments[dep]
				v.Title = q.T("staff.of", "department", d.Department)
			}
		}
		return v, nil
	}
}

// detailData is one record's own page.
type detailData struct {
	Record public.Record
	// Photos are an album's.
	Photos []public.Record
	// Body is rich text made safe (an album's description).
	Body any
	// Calendar is an event's "Add to calendar" links and its dates as shown.
	Calendar *eventCalendar
}

// detail serves a record's own page; a hidden one is a 404 like a missing one.
func (s *Server) detail(l listPage) handler {
	return func(q *req) (*view, error) {
		id := q.r.PathValue("id")
		if !ids.Valid(id) {
			return nil, errNotFound
		}
		if _, err := s.load(q, public.Want{}); err != nil {
			return nil, err
		}
		rec, ok, err := s.read.Record(q.r.Context(), q.site, l.kind, id)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errNotFound
		}
		d := &detailData{Record: rec}
		v := &view{Body: l.body + "-detail", Title: str(rec["title"]), Data: d, Image: str(rec["image"])}
		switch l.kind {
		case "albums":
			where, args, _ := public.AlbumPhotos(id)
			if d.Photos, err = s.read.List(q.r.Context(), q.site, public.Query{Kind: "photos", Where: where, Args: args}); err != nil {
				return nil, err
			}
			d.Body = safeHTML(richtext.Sanitize(str(rec["description"])))
		case "events":
			v.JSONLD = append(v.JSONLD, eventLD(q.site, rec))
			d.Calendar = newEventCalendar(q.site, q.loc, rec, q.visit.Settings.TimeZone())
			v.Description = str(rec["description"])
		case "notices":
			v.Description = str(rec["message"])
			// An article (an imported post's content) is shown in place of the message.
			if content := str(rec["content"]); content != "" {
				d.Body = safeHTML(richtext.Sanitize(content))
			}
		}
		return v, nil
	}
}
