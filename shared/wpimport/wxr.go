// Package wpimport reads a WordPress export (WXR, the XML that WordPress's Tools → Export writes)
// and converts its content to the rich-text HTML the panel's editor stores.
//
// Read streams the export one item at a time (an export of thousands of posts never sits in
// memory whole), with a limit on each element's text. HTML converts one post's content: the
// paragraph rule of the classic editor (autop.go), Gutenberg's block comments, shortcodes
// (shortcodes.go), oEmbed URLs, then every link and image through the caller's mappings.
// UploadPath and Site.Local tell which URLs point at the old site and its uploads.
package wpimport

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Site is the channel's facts, before the first item.
type Site struct {
	Title, Link, BaseSiteURL, BaseBlogURL, Language string
	WXRVersion                                      string
	// Menus are the nav_menu terms (<wp:term> with <wp:term_taxonomy>nav_menu</wp:term_taxonomy>), by slug → name.
	Menus map[string]string
	// Authors counts the <wp:author> elements (the site's users, which are not imported).
	Authors int
}

// Term is one of an item's <category domain="…" nicename="…">Name</category> elements: a
// category, a tag (domain post_tag), a menu (nav_menu) or another taxonomy's term.
type Term struct{ Domain, Slug, Name string }

// Item is one <item> of the export: a page, post, attachment, menu item or any other post type.
type Item struct {
	ID                int               // wp:post_id
	Type              string            // wp:post_type: page, post, attachment, nav_menu_item, revision, …
	Status            string            // wp:status: publish, draft, private, pending, future, trash, inherit
	Title, Link, Slug string            // title, link, wp:post_name
	Parent, MenuOrder int               // wp:post_parent, wp:menu_order
	Date              time.Time         // wp:post_date_gmt, else wp:post_date (as UTC); zero when absent/0000-00-00
	Content, Excerpt  string            // content:encoded, excerpt:encoded (an attachment's caption)
	AttachmentURL     string            // wp:attachment_url
	Password          string            // wp:post_password
	Meta              map[string]string // wp:postmeta key → value (last wins)
	Terms             []Term
	Comments          int // number of wp:comment elements (not imported, counted)
}

// ErrNotWXR is wrapped by every error that says the file is not a readable WordPress export;
// callers answer it as the user's mistake (400), not as a failure of the import.
var ErrNotWXR = errors.New("this file is not a WordPress export (WXR)")

// Limits on what one export may hold. An element's text is what a post can reasonably carry
// (WordPress's own longest posts are a few hundred kB); an item adds up its elements (its
// content, excerpt and every postmeta value), each element counting elementCost besides its
// text so that a flood of empty elements is bounded too.
const (
	maxText     = 4 << 20
	maxItem     = 16 << 20
	elementCost = 64
)

// Namespaces of the export's elements. WXR 1.0 and 1.1 use export/1.0/ and export/1.1/ for wp:
// (and …/excerpt/ for the excerpt), so any URI below wxrSpace is accepted; an export whose
// prefixes were never declared has the bare prefix as its space.
const (
	wxrSpace     = "http://wordpress.org/export/"
	contentSpace = "http://purl.org/rss/1.0/modules/content/"
	dcSpace      = "http://purl.org/dc/elements/1.1/"
)

func isWP(space string) bool {
	return space == "wp" || (strings.HasPrefix(space, wxrSpace) && !strings.HasSuffix(space, "/excerpt/"))
}

func isExcerpt(space string) bool {
	return space == "excerpt" || (strings.HasPrefix(space, wxrSpace) && strings.HasSuffix(space, "/excerpt/"))
}

func isContent(space string) bool { return space == "content" || space == contentSpace }

// Read streams the export from r: site is called once before the first item (or at the end if
// there are no items), item for every <item> in file order. Returning an error from a callback
// stops the read with it. A file that is not a WordPress export, or whose XML is broken, gives an
// error wrapping ErrNotWXR that names the line.
func Read(r io.Reader, site func(Site) error, item func(Item) error) error {
	g := &guard{r: r, limit: 2 * maxText}
	d := xml.NewDecoder(g)
	d.Strict = true
	x := &reader{d: d, g: g}
	d.CharsetReader = x.charsetReader
	return x.read(site, item)
}

// reader is one Read: the decoder, the guard on its input, and what was read of the channel.
type reader struct {
	d        *xml.Decoder
	g        *guard
	site     Site
	siteDone bool
	items    int
	budget   int    // what the current item may still hold, in bytes
	charset  string // a character set the export declares and Read cannot read
}

// guard fails a read once the decoder has consumed more than limit bytes since it last returned
// a token: encoding/xml keeps a whole token (a CDATA section, a run of text) in memory, so
// without it one 2 GB element would be read into memory before any limit could see it.
type guard struct {
	r     io.Reader
	n     int64 // bytes handed to the decoder
	mark  int64 // the decoder's input offset after its last token
	limit int64
}

var errTooBig = errors.New("element too large")

func (g *guard) Read(p []byte) (int, error) {
	if g.n-g.mark > g.limit {
		return 0, errTooBig
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}

// charsetReader reads the few character sets other than UTF-8 an export may declare. WordPress
// writes the blog's charset, which has been UTF-8 by default since 2.2; Latin-1 blogs are the
// only others seen in the wild.
func (x *reader) charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "iso-8859-1", "latin1", "iso_8859-1", "l1":
		return &latin1{r: in}, nil
	case "us-ascii", "ascii":
		return in, nil // a subset of UTF-8
	}
	x.charset = label
	return nil, errors.New("unsupported character set")
}

// latin1 decodes ISO-8859-1 (every byte is the code point of the same value) to UTF-8.
type latin1 struct {
	r   io.Reader
	buf []byte
}

func (l *latin1) Read(p []byte) (int, error) {
	if len(p) < 2 {
		return 0, io.ErrShortBuffer
	}
	if cap(l.buf) < len(p)/2 {
		l.buf = make([]byte, len(p)/2)
	}
	in := l.buf[:len(p)/2] // each byte takes at most two in UTF-8
	n, err := l.r.Read(in)
	out := 0
	for _, b := range in[:n] {
		if b < 0x80 {
			p[out] = b
			out++
		} else {
			p[out], p[out+1] = 0xc0|b>>6, 0x80|b&0x3f
			out += 2
		}
	}
	return out, err
}

// next returns the decoder's next token, marking the guard, and turns the decoder's errors into
// messages a staff member can act on.
func (x *reader) next() (xml.Token, error) {
	t, err := x.d.Token()
	x.g.mark = x.d.InputOffset()
	if err == nil {
		return t, nil
	}
	if err == io.EOF {
		return nil, err
	}
	return nil, x.explain(err)
}

// explain wraps a decoder error in ErrNotWXR with its line and a plain reason.
func (x *reader) explain(err error) error {
	line, _ := x.d.InputPos()
	var syntax *xml.SyntaxError
	switch {
	case x.charset != "":
		return fmt.Errorf("%w: it is written in the character set %q; only UTF-8 and ISO-8859-1 exports can be read", ErrNotWXR, x.charset)
	case errors.Is(err, errTooBig):
		return fmt.Errorf("%w: line %d: an element's text is larger than %d MB", ErrNotWXR, line, maxText>>20)
	case errors.As(err, &syntax) && strings.Contains(syntax.Msg, "unexpected EOF"):
		return fmt.Errorf("%w: the file ends at line %d in the middle of the export; is the file complete?", ErrNotWXR, syntax.Line)
	case errors.As(err, &syntax):
		return fmt.Errorf("%w: the XML is broken at line %d: %s", ErrNotWXR, syntax.Line, syntax.Msg)
	}
	return fmt.Errorf("%w: line %d: %v", ErrNotWXR, line, err)
}

func (x *reader) read(site func(Site) error, item func(Item) error) error {
	if err := x.root(); err != nil {
		return err
	}
	if err := x.channel(site, item); err != nil {
		return err
	}
	if !x.siteDone {
		if err := x.checkSite(); err != nil {
			return err
		}
		return site(x.site)
	}
	return nil
}

// root reads up to the <rss> element's <channel>, refusing anything else at the top: an HTML
// page, a DOCTYPE (exports never have one; its entities are the way to an expansion bomb), text.
func (x *reader) root() error {
	inRSS := false
	for {
		t, err := x.next()
		if err == io.EOF {
			if inRSS {
				return fmt.Errorf("%w: the <rss> element has no <channel>", ErrNotWXR)
			}
			return fmt.Errorf("%w: it has no <rss> element; export again from WordPress with Tools → Export", ErrNotWXR)
		}
		if err != nil {
			return err
		}
		line, _ := x.d.InputPos()
		switch t := t.(type) {
		case xml.Directive:
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(string(t))), "doctype html") {
				return fmt.Errorf("%w: it is a web page (HTML), not an export file", ErrNotWXR)
			}
			return fmt.Errorf("%w: line %d: it declares a DOCTYPE, which WordPress exports never do", ErrNotWXR, line)
		case xml.CharData:
			if len(strings.TrimSpace(strings.TrimPrefix(string(t), "\ufeff"))) > 0 {
				return fmt.Errorf("%w: line %d: it does not start with XML (is it a JSON, CSV or text file?)", ErrNotWXR, line)
			}
		case xml.StartElement:
			switch {
			case !inRSS && t.Name.Local == "rss":
				inRSS = true
			case inRSS && t.Name.Local == "channel":
				return nil
			case !inRSS && strings.EqualFold(t.Name.Local, "html"):
				return fmt.Errorf("%w: it is a web page (HTML), not an export file", ErrNotWXR)
			default:
				return fmt.Errorf("%w: line %d: it starts with <%s> where an export has <rss><channel>", ErrNotWXR, line, t.Name.Local)
			}
		case xml.EndElement:
			return fmt.Errorf("%w: the <rss> element has no <channel>", ErrNotWXR)
		}
	}
}

// checkSite refuses a channel without wp:wxr_version: an RSS feed of the site, not its export.
func (x *reader) checkSite() error {
	if x.site.WXRVersion == "" {
		return fmt.Errorf("%w: it is an RSS feed without WordPress's export data (no wp:wxr_version); export again from WordPress with Tools → Export", ErrNotWXR)
	}
	return nil
}

// channel reads the channel's direct children up to </channel>.
func (x *reader) channel(site func(Site) error, item func(Item) error) error {
	for {
		t, err := x.next()
		if err == io.EOF {
			return fmt.Errorf("%w: the file ends before the export does (no </channel>); is the file complete?", ErrNotWXR)
		}
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if t.Name.Local == "item" && t.Name.Space == "" {
				if !x.siteDone {
					if err := x.checkSite(); err != nil {
						return err
					}
					x.siteDone = true
					if err := site(x.site); err != nil {
						return err
					}
				}
				it, err := x.item()
				if err != nil {
					return err
				}
				x.items++
				if err := item(it); err != nil {
					return err
				}
				continue
			}
			if err := x.channelElement(t); err != nil {
				return err
			}
		}
	}
}

// channelElement reads one of the channel's children other than an item.
func (x *reader) channelElement(t xml.StartElement) error {
	s := &x.site
	x.budget = maxItem // the channel's elements are each bounded like an item's
	var err error
	switch {
	case t.Name.Space == "" && t.Name.Local == "title":
		s.Title, err = x.text()
	case t.Name.Space == "" && t.Name.Local == "link":
		s.Link, err = x.field()
	case t.Name.Space == "" && t.Name.Local == "language":
		s.Language, err = x.field()
	case isWP(t.Name.Space) && t.Name.Local == "wxr_version":
		s.WXRVersion, err = x.field()
	case isWP(t.Name.Space) && t.Name.Local == "base_site_url":
		s.BaseSiteURL, err = x.field()
	case isWP(t.Name.Space) && t.Name.Local == "base_blog_url":
		s.BaseBlogURL, err = x.field()
	case isWP(t.Name.Space) && t.Name.Local == "author":
		s.Authors++
		err = x.skip()
	case isWP(t.Name.Space) && t.Name.Local == "term":
		err = x.term()
	default:
		err = x.skip()
	}
	return err
}

// term reads a <wp:term>, keeping it when it is a menu.
func (x *reader) term() error {
	var taxonomy, slug, name string
	err := x.children(func(c xml.StartElement) error {
		var err error
		switch {
		case isWP(c.Name.Space) && c.Name.Local == "term_taxonomy":
			taxonomy, err = x.field()
		case isWP(c.Name.Space) && c.Name.Local == "term_slug":
			slug, err = x.field()
		case isWP(c.Name.Space) && c.Name.Local == "term_name":
			name, err = x.text()
		default:
			err = x.skip()
		}
		return err
	})
	if err == nil && taxonomy == "nav_menu" && slug != "" {
		if x.site.Menus == nil {
			x.site.Menus = map[string]string{}
		}
		x.site.Menus[slug] = name
	}
	return err
}

// item reads one <item> up to its end.
func (x *reader) item() (Item, error) {
	var it Item
	x.budget = maxItem
	var date, dateGMT string
	err := x.children(func(c xml.StartElement) error {
		var err error
		wp := isWP(c.Name.Space)
		switch {
		case c.Name.Space == "" && c.Name.Local == "title":
			it.Title, err = x.text()
		case c.Name.Space == "" && c.Name.Local == "link":
			it.Link, err = x.field()
		case c.Name.Space == "" && c.Name.Local == "category":
			term := Term{Domain: attr(c, "domain"), Slug: attr(c, "nicename")}
			term.Name, err = x.text()
			it.Terms = append(it.Terms, term)
		case isContent(c.Name.Space) && c.Name.Local == "encoded":
			it.Content, err = x.text()
		case isExcerpt(c.Name.Space) && c.Name.Local == "encoded":
			it.Excerpt, err = x.text()
		case wp && c.Name.Local == "post_id":
			it.ID, err = x.number()
		case wp && c.Name.Local == "post_type":
			it.Type, err = x.field()
		case wp && c.Name.Local == "status":
			it.Status, err = x.field()
		case wp && c.Name.Local == "post_name":
			it.Slug, err = x.field()
		case wp && c.Name.Local == "post_parent":
			it.Parent, err = x.number()
		case wp && c.Name.Local == "menu_order":
			it.MenuOrder, err = x.number()
		case wp && c.Name.Local == "post_date":
			date, err = x.field()
		case wp && c.Name.Local == "post_date_gmt":
			dateGMT, err = x.field()
		case wp && c.Name.Local == "attachment_url":
			it.AttachmentURL, err = x.field()
		case wp && c.Name.Local == "post_password":
			it.Password, err = x.text()
		case wp && c.Name.Local == "postmeta":
			err = x.meta(&it)
		case wp && c.Name.Local == "comment":
			it.Comments++
			err = x.skip()
		default:
			err = x.skip()
		}
		return err
	})
	if err != nil {
		return it, x.inItem(it, err)
	}
	it.Date = wpDate(dateGMT)
	if it.Date.IsZero() {
		it.Date = wpDate(date)
	}
	return it, nil
}

// inItem names the item an error happened in (the export's nth item, with its id when read).
func (x *reader) inItem(it Item, err error) error {
	where := fmt.Sprintf("item %d", x.items+1)
	if it.ID != 0 {
		where = fmt.Sprintf("item %d (post id %d)", x.items+1, it.ID)
	}
	if errors.Is(err, ErrNotWXR) {
		msg := strings.TrimPrefix(err.Error(), ErrNotWXR.Error()+": ")
		return fmt.Errorf("%w: %s: %s", ErrNotWXR, where, msg)
	}
	return fmt.Errorf("%s: %w", where, err)
}

// meta reads one <wp:postmeta> into it.Meta.
func (x *reader) meta(it *Item) error {
	var key, value string
	err := x.children(func(c xml.StartElement) error {
		var err error
		switch {
		case isWP(c.Name.Space) && c.Name.Local == "meta_key":
			key, err = x.field()
		case isWP(c.Name.Space) && c.Name.Local == "meta_value":
			value, err = x.text()
		default:
			err = x.skip()
		}
		return err
	})
	if err == nil && key != "" {
		if it.Meta == nil {
			it.Meta = map[string]string{}
		}
		it.Meta[key] = value
	}
	return err
}

// children calls each for every child element of the element just started, up to its end; each
// must consume the child whole (text or skip).
func (x *reader) children(each func(xml.StartElement) error) error {
	for {
		t, err := x.next()
		if err == io.EOF {
			return fmt.Errorf("%w: the file ends in the middle of the export; is the file complete?", ErrNotWXR)
		}
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if err := x.charge(elementCost); err != nil {
				return err
			}
			if err := each(t); err != nil {
				return err
			}
		}
	}
}

// charge takes n bytes from the current item's budget.
func (x *reader) charge(n int) error {
	x.budget -= n
	if x.budget < 0 {
		return fmt.Errorf("%w: it holds more than %d MB of text", ErrNotWXR, maxItem>>20)
	}
	return nil
}

// text returns the text of the element just started (its character data and CDATA sections, and
// those of any child elements), up to its end.
func (x *reader) text() (string, error) {
	var b strings.Builder
	depth := 0
	for {
		t, err := x.next()
		if err == io.EOF {
			return "", fmt.Errorf("%w: the file ends in the middle of an element; is the file complete?", ErrNotWXR)
		}
		if err != nil {
			return "", err
		}
		switch t := t.(type) {
		case xml.CharData:
			if b.Len()+len(t) > maxText {
				line, _ := x.d.InputPos()
				return "", fmt.Errorf("%w: line %d: an element's text is larger than %d MB", ErrNotWXR, line, maxText>>20)
			}
			if err := x.charge(len(t)); err != nil {
				return "", err
			}
			b.Write(t)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				return b.String(), nil
			}
			depth--
		}
	}
}

// field returns the element's text without the spaces around it: for the elements that hold a
// word, a number or an address, which hand-edited exports sometimes spread over lines.
func (x *reader) field() (string, error) {
	s, err := x.text()
	return strings.TrimSpace(s), err
}

// number returns the element's text as an integer; an empty element is 0.
func (x *reader) number() (int, error) {
	s, err := x.field()
	if err != nil {
		return 0, err
	}
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		line, _ := x.d.InputPos()
		return 0, fmt.Errorf("%w: line %d: %q is not a number", ErrNotWXR, line, truncate(s, 40))
	}
	return n, nil
}

// skip consumes the element just started, through x.next so that the guard sees every token.
func (x *reader) skip() error {
	depth := 0
	for {
		t, err := x.next()
		if err == io.EOF {
			return fmt.Errorf("%w: the file ends in the middle of the export; is the file complete?", ErrNotWXR)
		}
		if err != nil {
			return err
		}
		switch t.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				return nil
			}
			depth--
		}
	}
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// wpDate parses WordPress's "2006-01-02 15:04:05" as UTC; "0000-00-00 00:00:00" (a draft's GMT
// date) and anything unreadable are zero.
func wpDate(s string) time.Time {
	t, err := time.Parse(time.DateTime, strings.TrimSpace(s))
	if err != nil || t.Year() < 1 {
		return time.Time{}
	}
	return t
}

// truncate cuts s to at most n bytes at a rune boundary, marking the cut with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
