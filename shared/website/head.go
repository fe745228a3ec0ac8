package website

import (
	"encoding/json"
	"html/template"
	"strings"

	"github.com/campuscms/panel/shared/public"
)

// head is the <head> of a page: title, description, canonical address, robots, Open Graph and
// Twitter cards, and JSON-LD.
type head struct {
	Title, Description, Keywords string
	Canonical, Robots            string
	OGTitle, OGDescription       string
	OGImage, OGType, OGURL       string
	TwitterCard, TwitterSite     string
	JSONLD                       template.JS
	// HeroPreload preloads the page's first, largest image (its own, or its first slide's) with
	// its srcset, so the browser fetches the right copy before it has laid out the page.
	HeroPreload template.HTML
	// OGImageWidth and OGImageHeight are the share image's size, when known.
	OGImageWidth, OGImageHeight int
}

// head builds the page's <head> from the page's own SEO fields, falling back to the SEO
// defaults, then to the institution's name.
func (s *Server) head(q *req, v *view) head {
	seo := v.Set.SEO
	var page public.Record
	if v.Page != nil {
		page = v.Page.Record
	}
	site := v.Site
	name := site.Tenant.Name
	first := func(vals ...string) string {
		for _, x := range vals {
			if x = strings.TrimSpace(x); x != "" {
				return x
			}
		}
		return ""
	}
	siteTitle := first(str(seo["defaultTitle"]), name)
	title := first(str(page["metaTitle"]), v.Title, str(page["title"]))
	full := siteTitle
	if title != "" && title != siteTitle {
		full = title + " | " + siteTitle
	}
	h := head{
		Title:       full,
		Description: first(str(page["metaDescription"]), v.Description, str(page["description"]), str(seo["defaultDescription"])),
		Keywords:    first(str(page["metaKeywords"]), str(seo["defaultKeywords"])),
		Canonical:   first(str(page["canonicalUrl"]), site.Absolute(v.Path)),
		TwitterCard: first(str(seo["twitterCard"]), "summary_large_image"),
		TwitterSite: str(seo["twitterSite"]),
		OGType:      first(str(page["ogType"]), "website"),
	}
	h.OGTitle = first(str(page["ogTitle"]), title, str(seo["ogTitle"]), siteTitle)
	h.OGDescription = first(str(page["ogDescription"]), h.Description, str(seo["ogDescription"]))
	h.OGURL = first(str(page["ogUrl"]), h.Canonical)
	// Share previews get a large copy of the page's own image (or its record's: an event's, a
	// notice's), else the site's default.
	if ref := first(str(page["ogImage"]), str(page["image"]), v.Image); ref != "" {
		img, w, ht := site.ShareImage(ref)
		h.OGImage, h.OGImageWidth, h.OGImageHeight = site.Absolute(img), w, ht
	} else {
		h.OGImage = site.Absolute(str(seo["ogImageUrl"]))
	}
	var robots []string
	if page["noIndex"] == true || v.NoIndex || v.Preview {
		robots = append(robots, "noindex")
	}
	if page["noFollow"] == true || v.Preview {
		robots = append(robots, "nofollow")
	}
	h.Robots = strings.Join(robots, ", ")
	if v.Hero.Ref != "" {
		sz, err := sizes(v.Theme, v.Hero.Slot)
		if err == nil {
			h.HeroPreload = preloadTag(site.Display(v.Hero.Ref), site.Srcset(v.Hero.Ref), sz)
		}
	}
	h.JSONLD = jsonLD(append([]any{organization(site, v.Set)}, v.JSONLD...))
	return h
}

// organization is the institution as schema.org's EducationalOrganization.
func organization(site *public.Site, set *public.Settings) map[string]any {
	org := map[string]any{"@context": "https://schema.org", "@type": "EducationalOrganization",
		"name": site.Tenant.Name, "url": site.Absolute("/")}
	if logo := site.Display(str(set.Header["logoUrl"])); logo != "" {
		org["logo"] = site.Absolute(logo)
	}
	if e := str(set.Footer["contactEmail"]); e != "" {
		org["email"] = e
	}
	if p := str(set.Footer["phoneNumber"]); p != "" {
		org["telephone"] = p
	}
	if a := str(set.Footer["address"]); a != "" {
		org["address"] = a
	}
	// The institution's own profiles (the footer's social links): search engines tie them to it.
	var profiles []string
	for _, l := range set.SocialLinks {
		profiles = append(profiles, l.URL)
	}
	if len(profiles) > 0 {
		org["sameAs"] = profiles
	}
	return org
}

// eventLD is an event as schema.org's Event.
func eventLD(site *public.Site, ev public.Record) map[string]any {
	out := map[string]any{"@context": "https://schema.org", "@type": "Event", "name": str(ev["title"]),
		"startDate": str(ev["startDate"]), "eventStatus": "https://schema.org/EventScheduled",
		"url": site.Absolute("/events/" + str(ev["id"]))}
	if e := str(ev["endDate"]); e != "" {
		out["endDate"] = e
	}
	if l := str(ev["location"]); l != "" {
		out["location"] = map[string]any{"@type": "Place", "name": l, "address": l}
		out["eventAttendanceMode"] = "https://schema.org/OfflineEventAttendanceMode"
	}
	if d := str(ev["description"]); d != "" {
		out["description"] = d
	}
	if img := site.Display(str(ev["image"])); img != "" {
		out["image"] = site.Absolute(img)
	}
	out["organizer"] = map[string]any{"@type": "Organization", "name": site.Tenant.Name, "url": site.Absolute("/")}
	return out
}

// jsonLD marshals structured data for a <script type="application/ld+json">: encoding/json
// escapes <, > and & as \u003c…, so no value can end the script element.
func jsonLD(v any) template.JS {
	raw, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return template.JS(raw) //nolint:gosec // JSON with HTML characters escaped
}

// hero is the image a page draws first, largest, at the top: fetched before anything else
// (fetchpriority=high) and preloaded from the <head> with the same srcset and sizes, so the
// browser fetches the copy the image will use before it has laid out the page. Every other
// image of a page's content is lazy.
type hero struct {
	// Ref is the image's reference, "" when the page has none; Slot is where it is drawn.
	Ref, Slot string
	// Section is the id of the slider or banner section whose first item is the hero.
	Section string
}

// introMax is the most text (bytes of HTML) a page's content can have for its first section to
// still count as on the first screen.
const introMax = 600

// heroOf is the page's hero: an event's, a notice's or a form's image; a page's own image; else
// its first section's first slide or banner when that section comes first (the landing's
// slider when the home page is no page). On a home page whose theme puts the news before the
// sections (layout.NewsFirst), the sections start below the first screen: no hero.
func heroOf(v *view) hero {
	firstItem := func(sec *public.Section, slot string) hero {
		if sec == nil || len(sec.Items) == 0 {
			return hero{}
		}
		switch sec.Type {
		case "slider":
		case "banner":
			slot = slotWide
		default:
			return hero{}
		}
		if ref := str(sec.Items[0]["image"]); ref != "" {
			return hero{Ref: ref, Slot: slot, Section: sec.ID}
		}
		return hero{}
	}
	switch d := v.Data.(type) {
	case homeData:
		if d.Slides != nil {
			return firstItem(d.Slides, slotLanding)
		}
		if layoutOf(v.Theme).NewsFirst && (len(d.Events) > 0 || len(d.Notices) > 0) {
			return hero{}
		}
	case *detailData:
		if v.Body == "events-detail" || v.Body == "notices-detail" {
			if ref := str(d.Record["image"]); ref != "" {
				return hero{Ref: ref, Slot: slotNarrow}
			}
		}
		return hero{}
	case *formView:
		if d.Form.Image != "" {
			return hero{Ref: d.Form.Image, Slot: slotNarrow}
		}
		return hero{}
	}
	if v.Page == nil {
		return hero{}
	}
	if img := str(v.Page.Record["image"]); img != "" && v.Body == "page" {
		return hero{Ref: img, Slot: slotPage}
	}
	if len(v.Page.Sections) > 0 && (v.Body == "page" || v.Body == "home") {
		if c, _ := v.Page.Record["content"].(string); len(c) > introMax {
			return hero{} // the page's text comes first, longer than a screen's introduction
		}
		return firstItem(&v.Page.Sections[0], slotSlide)
	}
	return hero{}
}

// preloadTag is the <link> that preloads the hero with the srcset and sizes its <img> has
// (html/template would escape a srcset's spaces inside imagesrcset, which it takes for a URL).
func preloadTag(href, srcset, sizes string) template.HTML {
	e := template.HTMLEscapeString
	out := `<link rel="preload" as="image" href="` + e(href) + `"`
	if srcset != "" {
		out += ` imagesrcset="` + e(srcset) + `" imagesizes="` + e(sizes) + `"`
	}
	return template.HTML(out + ` fetchpriority="high">`) //nolint:gosec // both values escaped
}
