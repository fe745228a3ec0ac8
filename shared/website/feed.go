package website

import (
	"sort"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/richtext"
)

// feedSize is how many notices the news feed holds: the latest live ones.
const feedSize = 20

// feedPath is the news feed's address; every page's <head> links it for feed readers to find.
const feedPath = "/notices/feed.xml"

// feedType is what the news feed answers with (RFC 4287 §7).
const feedType = "application/atom+xml; charset=utf-8"

// published is when a notice went out: its publishing time if it has one, else its creation.
func published(rec public.Record) time.Time {
	if t, ok := recordTime(rec[publishAtField]); ok {
		return t
	}
	t, _ := recordTime(rec["createdAt"])
	return t
}

// publishAtField is a scheduled record's publishing time (collections.FieldPublishAt).
const publishAtField = "publishAt"

// noticesFeed serves /notices/feed.xml: the latest feedSize live notices as an Atom 1.0 feed
// (RFC 4287), every link absolute on the host the feed was asked on; an article (an imported
// post's content) is the entry's HTML content, sanitised as the notice's page shows it. One
// Query of the notices, bounded like the lists.
func (s *Server) noticesFeed(q *req) ([]byte, string, error) {
	recs, err := s.read.List(q.r.Context(), q.site, public.Query{Kind: "notices"})
	if err != nil {
		return nil, "", err
	}
	// Newest first by when they went out (a notice scheduled for later goes out after ones made
	// after it), then by id.
	sort.SliceStable(recs, func(i, j int) bool {
		pi, pj := published(recs[i]), published(recs[j])
		if !pi.Equal(pj) {
			return pi.After(pj)
		}
		return str(recs[i]["id"]) > str(recs[j]["id"])
	})
	recs = firstN(recs, feedSize)
	site := q.site
	self, list := site.Absolute(feedPath), site.Absolute("/notices")
	// The feed changed when its newest entry did; with none, when the institution's details did.
	updated := q.site.Tenant.UpdatedAt.UTC()
	for i, rec := range recs {
		if t, ok := recordTime(rec["updatedAt"]); ok && (i == 0 || t.After(updated)) {
			updated = t
		}
	}
	var b strings.Builder
	el := func(name, text string) { b.WriteString("<" + name + ">" + public.XMLText(text) + "</" + name + ">\n") }
	link := func(rel, typ, href string) {
		b.WriteString(`<link rel="` + rel + `" type="` + typ + `" href="` + public.XMLText(href) + `"/>` + "\n")
	}
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<feed xmlns="http://www.w3.org/2005/Atom">` + "\n")
	el("id", self)
	el("title", feedTitle(site))
	el("updated", updated.Format(time.RFC3339))
	link("self", "application/atom+xml", self)
	link("alternate", "text/html", list)
	b.WriteString("<author>")
	el("name", site.Tenant.Name)
	b.WriteString("</author>\n")
	for _, rec := range recs {
		page := site.Absolute("/notices/" + str(rec["id"]))
		changed, _ := recordTime(rec["updatedAt"])
		b.WriteString("<entry>\n")
		el("id", page)
		el("title", str(rec["title"]))
		el("updated", changed.Format(time.RFC3339))
		el("published", published(rec).Format(time.RFC3339))
		link("alternate", "text/html", page)
		if m := strings.TrimSpace(str(rec["message"])); m != "" {
			el("summary", m)
		}
		if article := str(rec["content"]); article != "" {
			b.WriteString(`<content type="html">` + public.XMLText(absoluteLinks(site, richtext.Sanitize(article))) + "</content>\n")
		}
		b.WriteString("</entry>\n")
	}
	b.WriteString("</feed>\n")
	return []byte(b.String()), feedType, nil
}

// feedTitle names the news feed: in every page's <head> and the feed itself.
func feedTitle(site *public.Site) string {
	return strings.TrimSpace(site.Tenant.Name + " notices")
}

// absoluteLinks is sanitised HTML with its root-relative addresses (links, images: /media/…)
// made absolute on the site's origin: a feed reader shows an entry away from the site.
func absoluteLinks(site *public.Site, fragment string) string {
	if !strings.Contains(fragment, `="/`) {
		return fragment
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(fragment))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return b.String()
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			b.Write(z.Raw())
			continue
		}
		tok := z.Token()
		changed := false
		for i, a := range tok.Attr {
			if (a.Key == "href" || a.Key == "src") && strings.HasPrefix(a.Val, "/") && !strings.HasPrefix(a.Val, "//") {
				tok.Attr[i].Val = site.Absolute(a.Val)
				changed = true
			}
		}
		if changed {
			b.WriteString(tok.String())
		} else {
			b.Write(z.Raw())
		}
	}
}
