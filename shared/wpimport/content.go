package wpimport

import (
	"encoding/json"
	"html"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/campuscms/panel/shared/lazyre"
)

// Finding is something of a post's content that could not be converted as it was.
type Finding struct {
	Kind   string // KindShortcode, KindBlock, KindGallery, KindEmbed, KindMissingMedia or KindEmpty
	Name   string // the shortcode's or block's name, the URL…
	Detail string // what happened, for the report
	// Count is how many times the same Kind and Name occurred in the content (at least 1); Detail
	// describes the first.
	Count int
}

// Kinds of findings.
const (
	// KindShortcode is a shortcode the import does not convert: left out, its content kept.
	KindShortcode = "shortcode"
	// KindBlock is a block WordPress renders on the server (latest posts, archives, a reusable
	// block…): nothing of it is in the export's HTML, so nothing is imported.
	KindBlock = "block"
	// KindGallery is a [gallery], flattened to one figure per image, or left out when it had no ids.
	KindGallery = "gallery"
	// KindEmbed is an embed (an oEmbed URL, [embed], a video, audio or iframe) now a link to its URL.
	KindEmbed = "embed"
	// KindMissingMedia is an image whose imported copy Image did not find (it keeps its old URL),
	// or a gallery's attachment missing from the export.
	KindMissingMedia = "missing-media"
	// KindEmpty is content with no text and no image left.
	KindEmpty = "empty"
)

// Convert converts WordPress content to the panel's rich-text HTML; its functions map the old
// site's addresses to the new ones. A nil function maps nothing (Image nil keeps every image
// without a finding; Attachment nil finds no attachment).
type Convert struct {
	// Link maps a URL found in href to its new address (a path like /about-history or /notices/ID), ok=false leaves it.
	Link func(u string) (string, bool)
	// Image maps an image URL (src, a [caption]'s img, a gallery id's URL) to the imported copy's URL; ok=false keeps the old URL and the caller reports missing media.
	Image func(u string) (string, bool)
	// Attachment returns the URL (and alt/caption) of attachment id (for [gallery ids="1,2"]).
	Attachment func(id int) (url, alt, caption string, ok bool)
}

func (c Convert) attachment(id int) (string, string, string, bool) {
	if c.Attachment == nil {
		return "", "", "", false
	}
	return c.Attachment(id)
}

// HTML converts one post's content to the rich-text HTML our editor stores (the caller then runs
// richtext.Sanitize on it). findings lists what could not be converted (every shortcode left,
// with its name).
//
// In order: block content (with <!-- wp: comments) loses its block comments, keeping the blocks'
// HTML; classic content gets WordPress's paragraph rule; a URL alone on its line or in its
// paragraph (an oEmbed) becomes a link; shortcodes are converted; then every link and image goes
// through Link and Image, iframes, videos and audio become links, and empty paragraphs go.
func (c Convert) HTML(content string) (string, []Finding) {
	f := &findings{}
	var text string
	if strings.Contains(content, "<!-- wp:") {
		text = blocks(content, f)
		text = embedLines(text, f)
	} else {
		text = embedLines(content, f)
		text = autop(text)
	}
	text = embedParagraphs(text, f)
	text = c.shortcodes(text, f)
	out, visible := c.rewrite(text, f)
	if !visible {
		f.add(Finding{Kind: KindEmpty, Detail: "no text or image left"})
	}
	return out, f.list
}

// findings collects a content's findings, one per kind and name.
type findings struct {
	list []Finding
	at   map[[2]string]int
}

func (f *findings) add(x Finding) {
	key := [2]string{x.Kind, x.Name}
	if i, ok := f.at[key]; ok {
		f.list[i].Count++
		return
	}
	if f.at == nil {
		f.at = map[[2]string]int{}
	}
	x.Count = 1
	f.at[key] = len(f.list)
	f.list = append(f.list, x)
}

// --- Gutenberg blocks ---

// reBlockComment is the inside of a block delimiter comment (what is between "<!--" and "-->"),
// as WordPress's block parser reads it: an opener, a closer (/wp:) or a void block (… /), with a
// name (core's without "core/") and JSON attributes.
var reBlockComment = lazyre.New(`(?s)^\s+(/)?wp:([a-z][a-z0-9_-]*(?:/[a-z][a-z0-9_-]*)?)\s+(?:(\{.*\})\s+)?(/)?$`)

// openBlock is a block whose opener was read and closer not yet.
type openBlock struct {
	name  string
	attrs string
	start int  // where its HTML starts in the output
	inner bool // it has inner blocks
}

// blocks removes the block delimiters of block content, keeping the blocks' HTML. Void blocks
// (self-closing, with no HTML: latest posts, archives, a reusable block…) and blocks whose HTML
// is empty are rendered by WordPress on the server from data the export does not have: nothing is
// kept of them and each is reported. An embed block becomes a paragraph with a link to its URL;
// a social link (whose URL is only in its attributes) a list item with a link.
func blocks(content string, f *findings) string {
	var b strings.Builder
	b.Grow(len(content))
	var stack []openBlock
	open := map[string]int{} // how many blocks of each name the stack holds
	rest := content
	for {
		i := strings.Index(rest, "<!--")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.Index(rest[i+4:], "-->")
		if j < 0 {
			b.WriteString(rest)
			break
		}
		body := rest[i+4 : i+4+j]
		m := reBlockComment().FindStringSubmatch(body)
		if m == nil { // an ordinary comment, <!--more--> and the like
			b.WriteString(rest[:i+4+j+3])
			rest = rest[i+4+j+3:]
			continue
		}
		b.WriteString(rest[:i])
		rest = rest[i+4+j+3:]
		closer, name, attrs, void := m[1] != "", strings.TrimPrefix(m[2], "core/"), m[3], m[4] != ""
		switch {
		case void:
			if len(stack) > 0 {
				stack[len(stack)-1].inner = true
			}
			voidBlock(&b, name, attrs, f)
		case !closer:
			if len(stack) > 0 {
				stack[len(stack)-1].inner = true
			}
			stack = append(stack, openBlock{name: name, attrs: attrs, start: b.Len()})
			open[name]++
		default:
			if open[name] == 0 {
				continue // a closer without its opener: dropped
			}
			// The closer ends its opener and any block left open inside it; each block leaves
			// the stack once, so a hostile post costs no more than its length.
			k := len(stack) - 1
			for stack[k].name != name {
				open[stack[k].name]--
				k--
			}
			ob := stack[k]
			open[name]--
			stack = stack[:k]
			closeBlock(&b, ob, f)
		}
	}
	return b.String()
}

// voidBlock writes what a self-closing block becomes.
func voidBlock(b *strings.Builder, name, attrs string, f *findings) {
	a := blockAttrs(attrs)
	switch name {
	case "social-link":
		if u, _ := a["url"].(string); u != "" {
			label, _ := a["label"].(string)
			if label == "" {
				label, _ = a["service"].(string)
			}
			if label == "" {
				label = u
			}
			b.WriteString(`<li><a href="` + html.EscapeString(u) + `">` + html.EscapeString(label) + `</a></li>`)
			return
		}
	case "block":
		if ref, ok := a["ref"].(float64); ok {
			f.add(Finding{Kind: KindBlock, Name: name, Detail: "a reusable block (id " + formatInt(ref) + ") is not part of the post's content, left out"})
			return
		}
	}
	f.add(Finding{Kind: KindBlock, Name: name, Detail: "rendered by WordPress on the server, left out"})
}

// closeBlock ends block ob, whose HTML is b's content from ob.start.
func closeBlock(b *strings.Builder, ob openBlock, f *findings) {
	inner := b.String()[ob.start:]
	if isEmbedBlock(ob.name) {
		u, _ := blockAttrs(ob.attrs)["url"].(string)
		if u == "" {
			u = firstURL(stripTags(inner))
		}
		if u != "" {
			out := linkParagraph(u)
			if c := figcaption(inner); c != "" {
				out = "<figure>" + out + "<figcaption>" + c + "</figcaption></figure>"
			}
			truncateBuilder(b, ob.start)
			b.WriteString(out)
			f.add(Finding{Kind: KindEmbed, Name: u, Detail: "an embed block is now a link"})
			return
		}
	}
	if strings.TrimSpace(inner) == "" && !ob.inner {
		f.add(Finding{Kind: KindBlock, Name: ob.name, Detail: "rendered by WordPress on the server, left out"})
	}
}

// isEmbedBlock reports whether a block is an embed: core/embed, or core-embed/youtube and the
// like from before WordPress 5.6.
func isEmbedBlock(name string) bool {
	return name == "embed" || strings.HasPrefix(name, "core-embed/")
}

// blockAttrs decodes a block's JSON attributes; broken JSON is no attributes.
func blockAttrs(s string) map[string]any {
	var a map[string]any
	if s != "" {
		_ = json.Unmarshal([]byte(s), &a)
	}
	return a
}

var reFigcaption = lazyre.New(`(?is)<figcaption[^>]*>(.*?)</figcaption>`)

func figcaption(s string) string {
	if m := reFigcaption().FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

var reURL = lazyre.New(`https?://[^\s<>"]+`)

func firstURL(s string) string { return reURL().FindString(s) }

// truncateBuilder cuts b to its first n bytes.
func truncateBuilder(b *strings.Builder, n int) {
	s := b.String()[:n]
	b.Reset()
	b.WriteString(s)
}

func formatInt(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// --- oEmbed URLs ---

// WordPress's autoembed shows a URL alone on its line, or alone in a paragraph, as an embed:
// preg_replace_callback('|^(\s*)(https?://[^\s<>"]+)(\s*)$|im', …) and
// preg_replace_callback('|(<p(?: [^>]*)?>\s*)(https?://[^\s<>"]+)(\s*<\/p>)|i', …), written out
// (as patterns, Go's NFA took a good part of the conversion of a megabyte of such lines).

// urlAt returns the length of the URL s starts with: http:// or https:// (any case) and at least
// one more byte, up to a space, <, > or ", or 0.
func urlAt(s string) int {
	n := 0
	switch {
	case hasPrefixFold(s, "https://"):
		n = 8
	case hasPrefixFold(s, "http://"):
		n = 7
	default:
		return 0
	}
	start := n
	for n < len(s) && !isSpace(s[n]) && s[n] != '<' && s[n] != '>' && s[n] != '"' {
		n++
	}
	if n == start {
		return 0
	}
	return n
}

// embedLines turns a URL alone on its line into a paragraph with a link to it (WordPress showed
// it as an embed: a video, a tweet, or a link when the site offered none).
func embedLines(text string, f *findings) string {
	if !strings.Contains(text, "://") {
		return text
	}
	r := newReplacer(text)
	pres := preRanges(text)
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		for len(pres) > 0 && pres[0][1] <= start {
			pres = pres[1:]
		}
		inPre := len(pres) > 0 && pres[0][0] < start
		line := strings.TrimRight(strings.TrimLeft(text[start:end], " \t"), " \t\r")
		if n := urlAt(line); n > 0 && n == len(line) && !inPre {
			f.add(Finding{Kind: KindEmbed, Name: line, Detail: "a URL on its own line (shown as an embed by WordPress) is now a link"})
			r.replace(start, end, linkParagraph(line))
		}
		start = end + 1
	}
	return r.String()
}

// preRanges are the [start, end) of text's <pre> elements, in order (a code sample's URL on its
// own line is no embed).
func preRanges(text string) [][2]int {
	if !strings.Contains(text, "<pre") && !strings.Contains(text, "<PRE") {
		return nil
	}
	lower := asciiLower(text)
	var out [][2]int
	for i := 0; ; {
		k := strings.Index(lower[i:], "<pre")
		if k < 0 {
			return out
		}
		start := i + k
		e := strings.Index(lower[start:], "</pre>")
		if e < 0 {
			return append(out, [2]int{start, len(text)})
		}
		i = start + e + len("</pre>")
		out = append(out, [2]int{start, i})
	}
}

// embedParagraphs turns a paragraph holding only a URL into a paragraph with a link to it.
func embedParagraphs(text string, f *findings) string {
	if !strings.Contains(text, "://") {
		return text
	}
	lower := asciiLower(text)
	gt := &finder{text: text, sub: ">"}
	r := newReplacer(text)
	eachAt(lower, "<p", func(i int) int {
		j := i + 2
		if j >= len(text) || (text[j] != '>' && text[j] != ' ') {
			return i + 1
		}
		k := gt.next(j)
		if k < 0 {
			return i + 1
		}
		u := skipSpace(text, k+1)
		n := urlAt(text[u:])
		if n == 0 {
			return i + 1
		}
		e := skipSpace(text, u+n)
		if !strings.HasPrefix(lower[e:], "</p>") {
			return i + 1
		}
		link := text[u : u+n]
		f.add(Finding{Kind: KindEmbed, Name: link, Detail: "a URL alone in its paragraph (shown as an embed by WordPress) is now a link"})
		esc := html.EscapeString(link)
		r.replace(u, u+n, `<a href="`+esc+`">`+esc+`</a>`)
		return e + 4
	})
	return r.String()
}

// --- links, images and what the sanitiser would drop ---

// rewrite parses text as HTML and sends every link through Link and every image through Image
// (dropping srcset and sizes, which name the old site's size variants); iframes, videos and
// audio (which the sanitiser drops) become links to their source; empty paragraphs go. visible
// reports whether any text or image is left.
func (c Convert) rewrite(text string, f *findings) (out string, visible bool) {
	ctx := &xhtml.Node{Type: xhtml.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := xhtml.ParseFragment(strings.NewReader(text), ctx)
	if err != nil {
		return text, strings.TrimSpace(text) != "" // only a read error, which a strings.Reader never returns
	}
	root := &xhtml.Node{Type: xhtml.ElementNode, Data: "div", DataAtom: atom.Div}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	w := &rewriter{c: c, f: f, images: map[string]imageResult{}}
	w.walk(root)
	var b strings.Builder
	b.Grow(len(text))
	for n := root.FirstChild; n != nil; n = n.NextSibling {
		if err := xhtml.Render(&b, n); err != nil {
			return text, w.visible
		}
	}
	return b.String(), w.visible
}

type imageResult struct {
	url string
	ok  bool
}

type rewriter struct {
	c       Convert
	f       *findings
	images  map[string]imageResult // Image's answer per URL, asked once
	visible bool
}

// walk rewrites n's descendants, depth first, removing or replacing some of them.
func (w *rewriter) walk(n *xhtml.Node) {
	for child := n.FirstChild; child != nil; {
		next := child.NextSibling
		switch child.Type {
		case xhtml.TextNode:
			if strings.TrimSpace(child.Data) != "" && !invisible(n) {
				w.visible = true
			}
		case xhtml.ElementNode:
			w.element(child)
		}
		child = next
	}
}

// invisible reports whether text in n is not the page's text (scripts and the like, which the
// sanitiser drops).
func invisible(n *xhtml.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Textarea, atom.Title, atom.Xmp, atom.Noembed, atom.Noframes:
		return true
	}
	return false
}

func (w *rewriter) element(n *xhtml.Node) {
	switch n.DataAtom {
	case atom.Iframe, atom.Video, atom.Audio, atom.Embed, atom.Object:
		if src := mediaURL(n); src != "" {
			label := src
			if n.DataAtom == atom.Video || n.DataAtom == atom.Audio {
				label = fileName(src)
			}
			a := &xhtml.Node{Type: xhtml.ElementNode, Data: "a", DataAtom: atom.A, Attr: []xhtml.Attribute{{Key: "href", Val: src}}}
			a.AppendChild(&xhtml.Node{Type: xhtml.TextNode, Data: label})
			n.Parent.InsertBefore(a, n)
			n.Parent.RemoveChild(n)
			w.f.add(Finding{Kind: KindEmbed, Name: src, Detail: "an embedded " + n.Data + " is now a link"})
			w.element(a)
			return
		}
	case atom.A:
		w.link(n)
	case atom.Img:
		w.image(n)
	}
	w.walk(n)
	if n.DataAtom == atom.P && emptyParagraph(n) {
		n.Parent.RemoveChild(n)
	}
}

// mediaURL is the address an iframe, video, audio, embed or object shows: its src (data for an
// object), or its first <source>'s.
func mediaURL(n *xhtml.Node) string {
	key := "src"
	if n.DataAtom == atom.Object {
		key = "data"
	}
	if v := strings.TrimSpace(attrOf(n, key)); v != "" {
		return v
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && c.DataAtom == atom.Source {
			if v := strings.TrimSpace(attrOf(c, "src")); v != "" {
				return v
			}
		}
	}
	return ""
}

func (w *rewriter) link(n *xhtml.Node) {
	href := strings.TrimSpace(attrOf(n, "href"))
	if href == "" || w.c.Link == nil {
		return
	}
	if to, ok := w.c.Link(href); ok {
		setAttr(n, "href", to)
	}
}

func (w *rewriter) image(n *xhtml.Node) {
	removeAttr(n, "srcset")
	removeAttr(n, "sizes")
	src := strings.TrimSpace(attrOf(n, "src"))
	// A lazy-loading plugin's image has a placeholder in src and the image in data-src.
	if lazy := firstAttr(n, "data-src", "data-lazy-src", "data-orig-file"); lazy != "" && (src == "" || strings.HasPrefix(src, "data:")) {
		src = lazy
		setAttr(n, "src", src)
	}
	if src == "" {
		return
	}
	w.visible = true
	if w.c.Image == nil {
		return
	}
	r, seen := w.images[src]
	if !seen {
		r.url, r.ok = w.c.Image(src)
		w.images[src] = r
		if !r.ok {
			w.f.add(Finding{Kind: KindMissingMedia, Name: src, Detail: "an image whose file was not imported keeps its old address"})
		}
	}
	if r.ok {
		setAttr(n, "src", r.url)
	}
}

// emptyParagraph reports whether p has nothing in it but spaces (what the paragraph rule leaves
// around a shortcode or block that became a figure).
func emptyParagraph(p *xhtml.Node) bool {
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != xhtml.TextNode || strings.TrimSpace(c.Data) != "" {
			return false
		}
	}
	return true
}

func attrOf(n *xhtml.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func firstAttr(n *xhtml.Node, keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(attrOf(n, k)); v != "" {
			return v
		}
	}
	return ""
}

func setAttr(n *xhtml.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, xhtml.Attribute{Key: key, Val: val})
}

func removeAttr(n *xhtml.Node, key string) {
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != key {
			out = append(out, a)
		}
	}
	n.Attr = out
}
