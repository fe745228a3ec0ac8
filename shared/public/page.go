package public

import (
	"encoding/json"
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/richtext"
)

var errNoPage = &api.Error{Status: http.StatusNotFound, Message: "Page not found!"}

// pageFields are the page fields the website shows (an allow-list like publicFields); image
// fields become full URLs.
var pageFields = []string{"title", "slug", "description", "metaTitle", "metaDescription", "metaKeywords",
	"canonicalUrl", "ogTitle", "ogDescription", "ogType", "ogUrl", "noIndex", "noFollow", "updatedAt"}

var pageImages = []string{"image", "ogImage"}

// itemFields are the fields of a section's config items the website shows.
var itemFields = []string{"id", "title", "subTitle", "description", "ctaText", "ctaUrl", "position",
	"textPosition", "embedUrl", "embedType", "formId"}

// publicSection is the website's view of a page section.
type publicSection struct {
	ID              string           `json:"id"`
	Type            string           `json:"type"`
	Title           string           `json:"title"`
	SubTitle        string           `json:"subTitle"`
	BackgroundColor string           `json:"backgroundColor"`
	FontColor       string           `json:"fontColor"`
	Position        int              `json:"position"`
	Items           []map[string]any `json:"items"`
}

// page serves GET /pages/{slug}: a published, active page with its active sections in order.
// Four DynamoDB calls: tenant, slug marker, page, sections. Unpublished, inactive or unknown
// pages are a 404 like a missing one.
func (s *Service) page(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	ctx := r.Context()
	slug := r.PathValue("slug")
	if !formats.Slug(slug) {
		return errNoPage
	}
	id, ok, err := pages.PageIDOfSlug(ctx, s.st, st.scope, slug)
	if err != nil || !ok {
		return notFoundOr(err)
	}
	rec, ok, err := pages.LoadPage(ctx, s.st, st.scope, id)
	if err != nil || !ok {
		return notFoundOr(err)
	}
	// A marker is written in the page's own transaction; the slug check keeps a page answering
	// only to the slug it holds now.
	if rec["status"] != true || rec["isPublished"] != true || rec["slug"] != slug {
		return errNoPage
	}
	secs, err := pages.Sections(ctx, s.st, st.scope, id)
	if err != nil {
		return err
	}
	out := Record{"id": id}
	for _, name := range pageFields {
		out[name] = rec[name]
	}
	for _, name := range pageImages {
		ref, _ := rec[name].(string)
		out[name] = nilIfEmpty(s.views.mediaURL(st, ref))
	}
	content, _ := rec["content"].(string)
	// Once more on the way out: the panel sanitises on every save, and this keeps a record
	// written any other way from reaching a visitor unsafe.
	out["content"] = richtext.Sanitize(content)
	sections := []publicSection{}
	for _, sec := range secs {
		if !sec.Status {
			continue
		}
		sections = append(sections, publicSection{ID: sec.ID, Type: pages.TypeSlug(sec.PageSectionTypeID), Title: sec.Title,
			SubTitle: sec.SubTitle, BackgroundColor: sec.BackgroundColor, FontColor: sec.FontColor, Position: sec.Position,
			Items: s.sectionItems(st, sec.Config)})
	}
	out["sections"] = sections
	return writeJSON(w, r, api.Envelope{Result: out})
}

// sectionItems parses a section's stored config (JSON text, checked on every save) into its
// allow-listed items, images as full URLs. A config that does not parse shows no items rather
// than failing the page.
func (s *Service) sectionItems(st *site, config string) []map[string]any {
	var raw []map[string]any
	_ = json.Unmarshal([]byte(config), &raw)
	items := make([]map[string]any, 0, len(raw))
	for _, it := range raw {
		out := map[string]any{}
		for _, name := range itemFields {
			if v, ok := it[name]; ok {
				out[name] = v
			}
		}
		ref, _ := it["image"].(string)
		out["image"] = nilIfEmpty(s.views.mediaURL(st, ref))
		items = append(items, out)
	}
	return items
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// notFoundOr is err, or the page's 404 when there is none.
func notFoundOr(err error) error {
	if err != nil {
		return err
	}
	return errNoPage
}
