package a11ycheck

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/pages"
)

// Doc is what the checker reads of one record: its fields that reach the website, in declared
// order, and a page's sections.
type Doc struct {
	Fields   []Field
	Sections []Section
	// TextColor and BackgroundColor are the record's own colours (the header's, the footer's):
	// its text is shown in the one on the other.
	TextColor, BackgroundColor string
	// TextField names the field TextColor came from.
	TextField string
}

// Field kinds the checker reads.
const (
	FieldHTML  = "html"  // rich text
	FieldImage = "image" // a media library reference shown as an image
	FieldURL   = "url"   // an address the website links to
)

// Field is one field of a record: its name, what it holds and its value.
type Field struct {
	Name, Kind, Value string
}

// Section is one section of a page (shared/pages): its title (a Heading 2 on the site), colours
// and items (shared/pages configItem: an image, a Heading 3 title, text and a button).
type Section struct {
	Title, SubTitle            string
	BackgroundColor, FontColor string
	Items                      []Item
}

// Item is one item of a section's config.
type Item struct {
	Image, Title, SubTitle, Description string
	CtaText, CtaURL                     string
}

// ownAlt are the fields by which a record gives its image its own text (a photo's caption): an
// image field of a record with one of them filled needs no alt text from the media library.
var ownAlt = []string{"altText", "alt", "caption"}

// hidden are image and address fields that are never shown as an image or a link on a page
// (sharing metadata, the canonical address).
func hidden(name string) bool {
	return strings.HasPrefix(name, "og") || name == "canonicalUrl"
}

// FromValues is the Doc of record values of collection c, as stored or as the editor's form
// holds them: declared rich-text, image and url fields, colour fields named textColor and
// backgroundColor, and pageSections (stored sections, or the form's list, each section's config
// a list or its JSON text). Values of the wrong shape are skipped, never an error: the checker
// reads what staff are typing.
func FromValues(c *collections.Collection, values map[string]any) Doc {
	var d Doc
	own := false
	for _, name := range ownAlt {
		if s, _ := values[name].(string); strings.TrimSpace(s) != "" {
			own = true
		}
	}
	for _, f := range c.Fields {
		v := values[f.Name]
		s, _ := v.(string)
		switch {
		case f.Type == collections.TypeRichText:
			if s != "" {
				d.Fields = append(d.Fields, Field{f.Name, FieldHTML, s})
			}
		case f.Type == collections.TypeImage && !hidden(f.Name) && !own:
			if s = strings.TrimSpace(s); s != "" {
				d.Fields = append(d.Fields, Field{f.Name, FieldImage, s})
			}
		case f.Type == collections.TypeURL && !hidden(f.Name):
			if s = strings.TrimSpace(s); s != "" {
				d.Fields = append(d.Fields, Field{f.Name, FieldURL, s})
			}
		case f.Type == collections.TypeColor && f.Name == "textColor":
			d.TextColor, d.TextField = s, f.Name
		case f.Type == collections.TypeColor && f.Name == "backgroundColor":
			d.BackgroundColor = s
		case f.Name == "pageSections":
			d.Sections = sectionsOf(v)
		}
	}
	return d
}

// sectionIn is a section as stored (pages.Section) or as a form holds it.
type sectionIn struct {
	Title           string          `json:"title"`
	SubTitle        string          `json:"subTitle"`
	BackgroundColor string          `json:"backgroundColor"`
	FontColor       string          `json:"fontColor"`
	Status          any             `json:"status"`
	Config          json.RawMessage `json:"config"`
}

type itemIn struct {
	Image       string `json:"image"`
	Title       string `json:"title"`
	SubTitle    string `json:"subTitle"`
	Description string `json:"description"`
	CtaText     string `json:"ctaText"`
	CtaURL      string `json:"ctaUrl"`
}

// sectionsOf reads a page's sections from v (a list of sections, or its JSON); sections turned
// off (status false) are not shown, so not checked, but keep their index.
func sectionsOf(v any) []Section {
	var raw []byte
	switch v := v.(type) {
	case nil:
		return nil
	case json.RawMessage:
		raw = v
	case string:
		raw = []byte(v)
	case []pages.Section:
		out := make([]Section, len(v))
		for i, s := range v {
			if s.Status {
				out[i] = Section{Title: s.Title, SubTitle: s.SubTitle, BackgroundColor: s.BackgroundColor, FontColor: s.FontColor, Items: itemsOf([]byte(s.Config))}
			}
		}
		return out
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		raw = b
	}
	var ins []sectionIn
	if json.Unmarshal(raw, &ins) != nil {
		return nil
	}
	out := make([]Section, len(ins))
	for i, in := range ins {
		if b, ok := in.Status.(bool); ok && !b {
			continue
		}
		if s, ok := in.Status.(string); ok && (s == "false" || s == "0") {
			continue
		}
		out[i] = Section{Title: in.Title, SubTitle: in.SubTitle, BackgroundColor: strings.ToLower(strings.TrimSpace(in.BackgroundColor)),
			FontColor: strings.ToLower(strings.TrimSpace(in.FontColor)), Items: itemsOf(in.Config)}
	}
	return out
}

// itemsOf reads a section's config: a list of items, or its JSON text.
func itemsOf(raw []byte) []Item {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = []byte(text)
	}
	var ins []itemIn
	if json.Unmarshal(raw, &ins) != nil {
		return nil
	}
	out := make([]Item, len(ins))
	for i, in := range ins {
		out[i] = Item{Image: strings.TrimSpace(in.Image), Title: in.Title, SubTitle: in.SubTitle, Description: in.Description,
			CtaText: strings.TrimSpace(in.CtaText), CtaURL: strings.TrimSpace(in.CtaURL)}
	}
	return out
}

// walk queues the findings of doc.
func (c *run) walk(d Doc) {
	for _, f := range d.Fields {
		l := loc{field: f.Name}
		switch f.Kind {
		case FieldHTML:
			c.html(l, f.Value)
		case FieldImage:
			c.image(l, f.Value, "")
		case FieldURL:
			c.target(l, f.Value, "")
		}
	}
	if d.TextColor != "" && d.BackgroundColor != "" {
		c.contrast(loc{field: d.TextField}, d.TextColor, d.BackgroundColor, false, "")
	}
	for i, s := range d.Sections {
		i := i
		at := func(field string) loc { return loc{field: fmt.Sprintf("sections[%d].%s", i, field), section: &i} }
		if s.FontColor != "" && s.BackgroundColor != "" {
			body := s.SubTitle != ""
			for _, it := range s.Items {
				body = body || it.Description != "" || it.SubTitle != "" || it.CtaText != ""
			}
			c.contrast(at("fontColor"), s.FontColor, s.BackgroundColor, !body, s.Title)
		}
		for j, it := range s.Items {
			item := func(field string) loc { return at(fmt.Sprintf("config[%d].%s", j, field)) }
			ctx := firstOf(it.Title, s.Title)
			if it.Image != "" {
				c.image(item("image"), it.Image, ctx)
			}
			if it.CtaURL != "" {
				if it.CtaText != "" {
					c.linkText(item("ctaText"), it.CtaText, it.CtaURL, it.CtaText)
				}
				c.target(item("ctaUrl"), it.CtaURL, firstOf(it.CtaText, ctx))
			}
		}
	}
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// image queues the check of an image field: its media record must give alt text or mark it
// decorative. A value that is no library reference is not an image of this site.
func (c *run) image(l loc, ref, context string) {
	if !mediaref.IsRef(ref) {
		return
	}
	c.needMedia(l, ref, context)
}

// target checks where a link goes: a page of this site that must exist and be published, or a
// document whose accessibility the text around it must speak of (a field holding only an
// address has no text around it: a document there is always reported).
func (c *run) target(l loc, href, context string) {
	c.external(l, href)
	if slug, ok := internalSlug(href); ok {
		c.needPage(l, slug, firstOf(context, href))
	}
	if isDocument(href) && !notesAccessibility(context) {
		c.add(l, RuleDocumentLink, msgDocument, firstOf(context, href))
	}
}
