package wpimport

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/richtext"
)

// content imports every published page and post, reading the export a second time for their
// content: each converted (blocks, shortcodes, links and images rewritten), sanitised, and
// written through the engine.
func (r *run) content(ctx context.Context, open Opener) error {
	f, err := open()
	if err != nil {
		return err
	}
	defer f.Close()
	conv := Convert{Link: r.plan.link, Image: r.image, Attachment: r.attachmentInfo}
	n := 0
	return Read(f, func(Site) error { return nil }, func(it Item) error {
		e := r.ix.byID[it.ID]
		if e == nil || (it.Type != "page" && it.Type != "post") || e.Type != it.Type {
			return nil
		}
		n++
		if r.skip() {
			r.step++
			return nil
		}
		if err := r.item(ctx, conv, e, it); err != nil {
			return err
		}
		return r.done(PhaseContent)
	})
}

// item imports one page or post.
func (r *run) item(ctx context.Context, conv Convert, e *entry, it Item) error {
	what := "Post"
	if e.Type == "page" {
		what = "Page"
	}
	title := e.Title
	if title == "" {
		title = madeTitle(what, e)
		r.rep.Notes.add("%s %d had no title: it is titled %q.", what, e.ID, title)
	}
	where := fmt.Sprintf("%s %q", strings.ToLower(what), title)
	body, findings := conv.HTML(it.Content)
	body = strings.TrimSpace(richtext.Sanitize(body))
	for _, f := range findings {
		r.finding(f, where)
	}
	rec := map[string]any{"title": title, "content": body, "status": true}
	if ref, ok := r.imported[e.metaInt("_thumbnail_id")]; ok {
		rec["image"] = ref
	}
	excerpt := plainText(it.Excerpt)
	var key, kind string
	if e.Type == "page" {
		key, kind = "pages", KindPage
		if s := r.plan.slugs[e.ID]; s != "" {
			rec["slug"] = s
		}
		rec["description"] = excerpt
		rec["isPublished"] = true
		for k, v := range seo(e, title, r.ix.site) {
			rec[k] = v
		}
	} else {
		key, kind = "notices", KindNotice
		msg := excerpt
		if msg == "" {
			msg = summary(plainText(body), 300)
		}
		if msg == "" {
			msg = title
		}
		rec["message"] = msg
		if !e.Date.IsZero() {
			rec["publishAt"] = e.Date.UTC().Format(time.RFC3339)
		}
	}
	o, err := r.upsert(ctx, key, r.plan.ids[e.ID], rec)
	switch {
	case err == nil:
		r.count(kind, o)
	case refused(err):
		r.rep.Failed.add("%s %q: %s", what, title, describe(err))
	default:
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// finding puts what the converter left out in the report.
func (r *run) finding(f Finding, where string) {
	switch f.Kind {
	case "missing-media":
		if !r.rep.missing(f.Name) {
			r.rep.Missing.add("%s: used in %s, not among the imported files", f.Name, where)
		}
	case "empty":
		r.rep.Notes.add("The %s had no content.", where)
	case "gallery":
		r.rep.Notes.add("A gallery in the %s became its images, one after the other.", where)
	case "embed":
		r.rep.Notes.add("An embedded %s in the %s became a link to it.", f.Name, where)
	default:
		label := "[" + f.Name + "]"
		if f.Kind == "block" {
			label = "block " + f.Name
		}
		r.rep.Shortcodes.add("%s in the %s", label, where)
	}
}

// image is the imported copy of an image the old site served from its uploads (any of its
// sized variants), if it was imported.
func (r *run) image(u string) (string, bool) {
	p, ok := UploadPath(u)
	if !ok {
		return "", false
	}
	e := r.ix.byUpload[p]
	if e == nil {
		return "", false
	}
	ref, ok := r.imported[e.ID]
	if !ok {
		return "", false
	}
	return r.imageURL(ref), true
}

// attachmentInfo is an imported attachment's address, alt text and caption (a gallery's image).
func (r *run) attachmentInfo(id int) (string, string, string, bool) {
	e := r.ix.byID[id]
	if e == nil || e.Type != "attachment" {
		return "", "", "", false
	}
	ref, ok := r.imported[id]
	if !ok {
		return e.AttachmentURL, e.Meta["_wp_attachment_image_alt"], e.Caption, false
	}
	return r.imageURL(ref), e.Meta["_wp_attachment_image_alt"], e.Caption, true
}

// madeTitle is a title for an item that has none: its slug in words, else its date.
func madeTitle(what string, e *entry) string {
	slug := strings.TrimSpace(strings.ReplaceAll(e.Slug, "-", " "))
	if slug != "" && strings.Trim(slug, "0123456789 ") != "" {
		return strings.ToUpper(slug[:1]) + slug[1:]
	}
	if !e.Date.IsZero() {
		return fmt.Sprintf("%s of %s", what, e.Date.Format("2 January 2006"))
	}
	return fmt.Sprintf("%s %d", what, e.ID)
}

// plainText is the text of an HTML fragment, its white space collapsed.
func plainText(fragment string) string {
	z := html.NewTokenizer(strings.NewReader(fragment))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.Join(strings.Fields(b.String()), " ")
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			b.WriteByte(' ')
		}
	}
}

// summary is text cut at a word boundary to at most n characters, an ellipsis marking the cut.
func summary(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	cut := string([]rune(text)[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// seoVar matches a Yoast (%%title%%) or Rank Math (%title%) variable.
var seoVar = regexp.MustCompile(`%%?[a-z_]+%%?`)

// seo are a page's search fields from what Yoast SEO or Rank Math left in its postmeta.
func seo(e *entry, title string, site Site) map[string]any {
	fill := func(v string) string {
		v = seoVar.ReplaceAllStringFunc(v, func(m string) string {
			switch strings.Trim(m, "%") {
			case "title":
				return title
			case "sitename":
				return site.Title
			case "sep":
				return "–"
			}
			return ""
		})
		return strings.Join(strings.Fields(v), " ")
	}
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := fill(e.Meta[k]); v != "" {
				return v
			}
		}
		return ""
	}
	out := map[string]any{}
	set := func(field, v string) {
		if v != "" {
			out[field] = v
		}
	}
	set("metaTitle", first("_yoast_wpseo_title", "rank_math_title"))
	set("metaDescription", first("_yoast_wpseo_metadesc", "rank_math_description"))
	set("metaKeywords", first("_yoast_wpseo_focuskw", "rank_math_focus_keyword"))
	set("ogTitle", first("_yoast_wpseo_opengraph-title", "rank_math_facebook_title"))
	set("ogDescription", first("_yoast_wpseo_opengraph-description", "rank_math_facebook_description"))
	// A canonical address on the old site is not kept: the page's own address is its canonical.
	c := first("_yoast_wpseo_canonical", "rank_math_canonical_url")
	if _, local := site.Local(c); !local && (strings.HasPrefix(c, "https://") || strings.HasPrefix(c, "http://")) {
		out["canonicalUrl"] = c
	}
	robots := e.Meta["rank_math_robots"]
	if e.Meta["_yoast_wpseo_meta-robots-noindex"] == "1" || strings.Contains(robots, `"noindex"`) {
		out["noIndex"] = true
	}
	if e.Meta["_yoast_wpseo_meta-robots-nofollow"] == "1" || strings.Contains(robots, `"nofollow"`) {
		out["noFollow"] = true
	}
	return out
}
