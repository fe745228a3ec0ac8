package public

import (
	"fmt"

	"github.com/campuscms/panel/shared/collections"
)

// Record is a stored record as read from the table.
type Record = map[string]any

// publicFields are the fields each collection shows on the website: an explicit allow-list, so
// a field added to a declaration (or an internal one: version, refCount, password, permission
// ids, read, checked flags, index keys) never reaches the website unless it is listed here.
var publicFields = map[string][]string{
	"sliders":       {"title", "subtitle", "ctaText", "ctaUrl", "image"},
	"events":        {"title", "startDate", "endDate", "location", "image", "description"},
	"albums":        {"title", "image", "description"},
	"photos":        {"albumId", "image", "caption"},
	"testimonials":  {"name", "description", "designation", "image"},
	"faqs":          {"question", "answer", "position"},
	"staff-members": {"name", "role", "department", "image", "bio", "email", "phone", "position"},
	"departments":   {"name", "hod", "image", "description"},
	"resources":     {"title", "fileUrl", "fileSize", "description", "category"},
	"notices":       {"title", "message", "image", "updatedAt"},
	"popups":        {"title", "startDate", "endDate", "image", "linkUrl", "content"},
}

// viewer turns stored records into their public form.
type viewer struct {
	reg collections.Registry
}

// view is the public form of rec of collection kind: its id and allow-listed fields, media
// references turned into full URLs on the site's origin.
func (v viewer) view(st *Site, kind string, rec Record) Record {
	c := v.reg[kind]
	out := Record{"id": rec["id"]}
	for _, name := range publicFields[kind] {
		val, ok := rec[name]
		if !ok || val == nil || val == "" {
			out[name] = nil
			continue
		}
		if f, declared := c.Field(name); declared && f.Type == collections.TypeImage {
			st.putImage(out, name, fmt.Sprint(val))
			continue
		} else if declared && f.Type == collections.TypeFile {
			val = st.mediaURL(fmt.Sprint(val))
		}
		out[name] = val
	}
	for _, name := range []string{FieldAvailable, FieldFallback, FieldSlugs} {
		if v, ok := rec[name]; ok {
			out[name] = v
		}
	}
	return out
}
