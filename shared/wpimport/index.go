package wpimport

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// entry is what the first pass keeps of an item: everything but its content, so that an export
// of thousands of posts is held in memory as a few hundred bytes each.
type entry struct {
	ID            int
	Type, Status  string
	Title, Slug   string
	Link          string
	Parent, Order int
	Date          time.Time
	AttachmentURL string
	// Caption is an attachment's caption (its excerpt).
	Caption   string
	Protected bool
	Meta      map[string]string
	Terms     []Term
}

// metaKept are the postmeta keys the import reads; the rest (many kilobytes per post in a
// plugin-heavy site) are not kept.
var metaKept = map[string]bool{
	"_thumbnail_id": true, "_wp_attachment_image_alt": true, "_wp_attached_file": true,
	"_menu_item_type": true, "_menu_item_object": true, "_menu_item_object_id": true,
	"_menu_item_menu_item_parent": true, "_menu_item_url": true,
	"_yoast_wpseo_title": true, "_yoast_wpseo_metadesc": true, "_yoast_wpseo_focuskw": true,
	"_yoast_wpseo_canonical": true, "_yoast_wpseo_meta-robots-noindex": true, "_yoast_wpseo_meta-robots-nofollow": true,
	"_yoast_wpseo_opengraph-title": true, "_yoast_wpseo_opengraph-description": true,
	"rank_math_title": true, "rank_math_description": true, "rank_math_focus_keyword": true,
	"rank_math_canonical_url": true, "rank_math_robots": true,
	"rank_math_facebook_title": true, "rank_math_facebook_description": true,
}

// Kinds of imported things, as the report counts them.
const (
	KindPage     = "pages"
	KindNotice   = "notices"
	KindMedia    = "media"
	KindMenu     = "menu items"
	KindRedirect = "redirects"
)

// index is the first pass over an export: the site, every item worth importing (without its
// content) and what is not imported, counted.
type index struct {
	site        Site
	attachments []*entry // in file order
	pages       []*entry // published pages, in file order
	posts       []*entry // published posts, in file order
	content     []*entry // published pages and posts, in file order
	menuItems   []*entry
	byID        map[int]*entry
	// byUpload finds an attachment by its path below wp-content/uploads/ ("2008/06/canola2.jpg").
	byUpload map[string]*entry
	// allPages are every page's parent and slug, published or not, for a child's slug path.
	allPages map[int]*entry
	report   *Report
}

// readIndex reads the export once, keeping what the import needs of every item.
func readIndex(r io.Reader, rep *Report) (*index, error) {
	ix := &index{byID: map[int]*entry{}, byUpload: map[string]*entry{}, allPages: map[int]*entry{}, report: rep}
	categories, tags := map[string]bool{}, map[string]bool{}
	err := Read(r, func(s Site) error {
		ix.site = s
		return nil
	}, func(it Item) error {
		e := &entry{ID: it.ID, Type: it.Type, Status: it.Status, Title: strings.TrimSpace(it.Title), Slug: it.Slug,
			Link: it.Link, Parent: it.Parent, Order: it.MenuOrder, Date: it.Date, AttachmentURL: it.AttachmentURL,
			Protected: it.Password != "", Meta: map[string]string{}, Terms: it.Terms}
		for k, v := range it.Meta {
			if metaKept[k] {
				e.Meta[k] = v
			}
		}
		rep.Skipped.add("comments", it.Comments)
		if it.Type == "page" {
			ix.allPages[it.ID] = e
		}
		switch it.Type {
		case "attachment":
			e.Caption = strings.TrimSpace(it.Excerpt)
			ix.attachments = append(ix.attachments, e)
			ix.byID[e.ID] = e
			for _, u := range []string{it.AttachmentURL, e.Meta["_wp_attached_file"]} {
				if p, ok := UploadPath(u); ok {
					ix.byUpload[p] = e
				} else if u != "" && !strings.Contains(u, "://") {
					ix.byUpload[strings.TrimPrefix(u, "/")] = e
				}
			}
		case "page", "post":
			if why := notImported(e); why != "" {
				rep.Skipped.add(why+" "+plural(it.Type), 1)
				return nil
			}
			ix.byID[e.ID] = e
			ix.content = append(ix.content, e)
			if it.Type == "page" {
				ix.pages = append(ix.pages, e)
			} else {
				ix.posts = append(ix.posts, e)
				for _, t := range it.Terms {
					switch t.Domain {
					case "category":
						categories[t.Name] = true
					case "post_tag":
						tags[t.Name] = true
					}
				}
			}
		case "nav_menu_item":
			ix.menuItems = append(ix.menuItems, e)
		case "revision", "customize_changeset", "oembed_cache", "custom_css", "wp_global_styles", "user_request":
			// WordPress's own bookkeeping: nothing a visitor saw.
		default:
			rep.Skipped.add(fmt.Sprintf("items of type %q", it.Type), 1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Skipped.add("users", ix.site.Authors)
	rep.Categories = sortedKeys(categories)
	rep.Tags = sortedKeys(tags)
	return ix, nil
}

// notImported is why a page or post is not imported ("draft"), or "" if it is.
func notImported(e *entry) string {
	switch {
	case e.Status == "trash":
		return "trashed"
	case e.Protected:
		return "password-protected"
	case e.Status == "private":
		return "private"
	case e.Status != "publish":
		// draft, pending, future, auto-draft: none was on the site.
		return "draft"
	}
	return ""
}

func plural(postType string) string {
	if postType == "page" {
		return "pages"
	}
	return "posts"
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// metaInt is an integer postmeta value, 0 when absent or not a number.
func (e *entry) metaInt(key string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(e.Meta[key]))
	return n
}

// slugPath is a page's slug with its ancestors' before it ("about-history"), as WordPress's
// page path /about/history/ reads; a loop in the parents (a corrupt export) stops the climb.
func (ix *index) slugPath(e *entry) string {
	parts := []string{e.Slug}
	seen := map[int]bool{e.ID: true}
	for p := ix.allPages[e.Parent]; p != nil && !seen[p.ID]; p = ix.allPages[p.Parent] {
		seen[p.ID] = true
		parts = append([]string{p.Slug}, parts...)
	}
	return strings.Join(parts, "-")
}
