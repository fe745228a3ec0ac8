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

// Page is a page as the website shows it: its stored fields (content sanitised once more on the
// way out) and its active sections in order.
type Page struct {
	ID       string
	Record   Record
	Sections []Section
}

// Section is a page section as the website shows it.
type Section struct {
	ID              string `json:"id"`
	Type            string `json:"type"`
	Title           string `json:"title"`
	SubTitle        string `json:"subTitle"`
	BackgroundColor string `json:"backgroundColor"`
	FontColor       string `json:"fontColor"`
	Position        int    `json:"position"`
	// FallbackFields are the section's own texts (title, subTitle) shown in the default
	// language in a site read in another: the website marks them with that language's lang.
	// Each item carries its own fallbackFields the same way.
	FallbackFields []string `json:"fallbackFields,omitempty"`
	// Items are the config's items, allow-listed (itemFields and image), media as references.
	Items []Record `json:"items"`
}

// itemFields are the fields of a section's config items the website shows.
var itemFields = []string{"id", "title", "subTitle", "description", "ctaText", "ctaUrl", "position",
	"textPosition", "embedUrl", "embedType", "formId", "image"}

// newPage is the page of rec (localized) with its active sections, their texts those texts
// gives (nil: their default texts, unmarked; sectionTexts, localizeSection).
func newPage(rec Record, secs []pages.Section, texts func(pages.Section) pages.SectionTexts) *Page {
	content, _ := rec["content"].(string)
	// Once more on the way out: the panel sanitises on every save, and this keeps a record
	// written any other way from reaching a visitor unsafe.
	rec["content"] = richtext.Sanitize(content)
	p := &Page{ID: rec["id"].(string), Record: rec, Sections: []Section{}}
	for _, sec := range secs {
		if !sec.Status {
			continue
		}
		out := Section{ID: sec.ID, Type: pages.TypeSlug(sec.PageSectionTypeID), Title: sec.Title,
			SubTitle: sec.SubTitle, BackgroundColor: sec.BackgroundColor, FontColor: sec.FontColor, Position: sec.Position,
			Items: configItems(sec.Config)}
		if texts != nil {
			localizeSection(&out, texts(sec))
		}
		p.Sections = append(p.Sections, out)
	}
	return p
}

// configItems parses a section's stored config (JSON text, checked on every save) into its
// allow-listed items. A config that does not parse shows no items rather than failing the page.
func configItems(config string) []Record {
	var raw []Record
	_ = json.Unmarshal([]byte(config), &raw)
	items := make([]Record, 0, len(raw))
	for _, it := range raw {
		out := Record{}
		for _, name := range itemFields {
			if v, ok := it[name]; ok {
				out[name] = v
			}
		}
		items = append(items, out)
	}
	return items
}

// pageFields are the page fields the JSON API shows (an allow-list like publicFields); image
// fields become full URLs.
var pageFields = []string{"title", "slug", "description", "content", "metaTitle", "metaDescription", "metaKeywords",
	"canonicalUrl", "ogTitle", "ogDescription", "ogType", "ogUrl", "noIndex", "noFollow", "updatedAt"}

var pageImages = []string{"image", "ogImage"}

// page serves GET /pages/{slug}: a published, active page with its active sections in order.
// Four DynamoDB calls: tenant, slug marker, page, sections. Unpublished, inactive or unknown
// pages are a 404 like a missing one.
func (s *Service) page(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	slug := r.PathValue("slug")
	if !formats.Slug(slug) {
		return errNoPage
	}
	v, err := s.read.Visit(r.Context(), st, Want{Slug: slug, NoSettings: true})
	if err != nil {
		return err
	}
	if v.Page == nil {
		return errNoPage
	}
	out := Record{"id": v.Page.ID}
	for _, name := range pageFields {
		out[name] = v.Page.Record[name]
	}
	for _, name := range []string{FieldAvailable, FieldFallback, FieldSlugs} {
		out[name] = v.Page.Record[name]
	}
	if err := s.read.LoadImages(r.Context(), st, v.Page); err != nil {
		return err
	}
	for _, name := range pageImages {
		ref, _ := v.Page.Record[name].(string)
		st.putImage(out, name, ref)
	}
	sections := make([]Section, len(v.Page.Sections))
	for i, sec := range v.Page.Sections {
		sec.Items = make([]Record, len(v.Page.Sections[i].Items))
		for j, it := range v.Page.Sections[i].Items {
			item := Record{}
			for k, val := range it {
				item[k] = val
			}
			ref, _ := it["image"].(string)
			st.putImage(item, "image", ref)
			sec.Items[j] = item
		}
		sections[i] = sec
	}
	out["sections"] = sections
	return writeJSON(w, r, api.Envelope{Result: out})
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
