package a11ycheck

import (
	"fmt"
	"math"
	"net/url"
	"path"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/campuscms/panel/shared/words"
)

// maxHTML bounds the rich text one field is read for (a rich-text field is capped far below).
const maxHTML = 1 << 20

// htmlRun is the reading of one rich-text field: its text so far (for the context of a finding
// and the note beside a document link), and the findings whose context waits for the text after
// them.
type htmlRun struct {
	text    strings.Builder
	pending []posFinding
}

// posFinding is a finding at text offset at (its context is the text around it), or a document
// link (doc) between at and end, which stands only if the text near it says nothing of its
// accessibility.
type posFinding struct {
	p       pending
	at, end int
	doc     bool
	context string
}

// element is an open link, button, heading or table.
type element struct {
	tag       atom.Atom
	href      string
	label     string // aria-label or title
	text      strings.Builder
	at        int
	hasHeader bool
	level     int
	// rule is the heading rule it breaks, prev the level before it.
	rule string
	prev int
}

// html reads one rich-text field with a tokenizer (never building a tree: hostile HTML costs
// its length). The page title is the Heading 1, so content headings start at 2.
func (c *run) html(l loc, src string) {
	if len(src) > maxHTML {
		src = src[:maxHTML]
	}
	h := &htmlRun{}
	z := html.NewTokenizer(strings.NewReader(src))
	var open []*element // links, buttons, headings
	var tables []*element
	prev := 1
	addText := func(s string) {
		h.text.WriteString(s)
		for _, e := range open {
			e.text.WriteString(s)
		}
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		switch tt {
		case html.TextToken:
			addText(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			switch a {
			case atom.Img:
				alt, ok := attrs["alt"]
				hiddenImg := attrs["aria-hidden"] == "true" || attrs["role"] == "presentation" || attrs["role"] == "none"
				if !ok && !hiddenImg {
					h.at(l, RuleImgAlt, msgImgTag)
				}
				for _, e := range open {
					e.text.WriteString(" " + alt + " ")
				}
			case atom.A, atom.Button:
				if a == atom.A {
					if _, ok := attrs["href"]; !ok {
						continue // an anchor, not a link
					}
				}
				if tt == html.SelfClosingTagToken {
					continue
				}
				e := &element{tag: a, href: strings.TrimSpace(attrs["href"]), label: firstOf(attrs["aria-label"], attrs["title"]), at: h.text.Len()}
				open = append(open, e)
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				lvl := int(name[1] - '0')
				e := &element{tag: a, at: h.text.Len(), level: lvl, prev: prev}
				switch {
				case lvl == 1:
					e.rule = RuleHeadingH1
				case lvl > prev+1:
					e.rule = RuleHeadingOrder
				}
				prev = lvl
				open = append(open, e)
			case atom.Table:
				tables = append(tables, &element{tag: a, at: h.text.Len()})
			case atom.Th:
				if len(tables) > 0 {
					tables[len(tables)-1].hasHeader = true
				}
			case atom.Br, atom.P, atom.Div, atom.Li, atom.Td, atom.Tr:
				addText(" ")
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.A, atom.Button, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				// Close the innermost open element of that tag (and anything left open inside).
				for i := len(open) - 1; i >= 0; i-- {
					if open[i].tag == a || (isHeading(a) && isHeading(open[i].tag)) {
						for _, e := range open[i:] {
							if e.tag == a || (isHeading(a) && isHeading(e.tag)) {
								h.close(c, l, e)
							}
						}
						open = open[:i]
						break
					}
				}
			case atom.Table:
				if n := len(tables); n > 0 {
					t := tables[n-1]
					tables = tables[:n-1]
					if !t.hasHeader {
						h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleTableHeader, msgTable, "")}, at: t.at, end: h.text.Len()})
					}
				}
			case atom.P, atom.Div, atom.Li, atom.Td, atom.Th, atom.Tr:
				addText(" ")
			}
		}
	}
	// What is left open at the end is closed there.
	for _, e := range open {
		h.close(c, l, e)
	}
	for _, t := range tables {
		if !t.hasHeader {
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleTableHeader, msgTable, "")}, at: t.at, end: h.text.Len()})
		}
	}
	h.finish(c)
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// at queues a finding at the current text offset.
func (h *htmlRun) at(l loc, rule, msg string) {
	n := h.text.Len()
	h.pending = append(h.pending, posFinding{p: pending{f: Finding{Rule: rule, Severity: severity[rule], Message: msg, Field: l.field, Section: l.section}}, at: n, end: n})
}

// close checks an element as it ends.
func (h *htmlRun) close(c *run, l loc, e *element) {
	text := strings.TrimSpace(e.text.String())
	end := h.text.Len()
	switch {
	case isHeading(e.tag):
		switch e.rule {
		case RuleHeadingH1:
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleHeadingH1, msgH1, "")}, at: e.at, end: end, context: text})
		case RuleHeadingOrder:
			msg := fmt.Sprintf("This heading skips from Heading %d to Heading %d. Use Heading %d here: screen reader users move through a page by its headings, and a skipped level looks like missing content.", e.prev, e.level, e.prev+1)
			if e.prev == 1 {
				msg = fmt.Sprintf("This heading is a Heading %d, but the page's headings start at Heading 2 (the page title is Heading 1). Use Heading 2 here.", e.level)
			}
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleHeadingOrder, msg, "")}, at: e.at, end: end, context: text})
		}
	case e.tag == atom.Button:
		if text == "" && strings.TrimSpace(e.label) == "" {
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleEmptyLink, msgEmptyBtn, "")}, at: e.at, end: end})
		}
	default: // a link
		name := firstOf(text, e.label)
		switch {
		case strings.TrimSpace(name) == "":
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleEmptyLink, msgEmpty, "")}, at: e.at, end: end, context: e.href})
		default:
			if msg := vague(name, e.href); msg != "" {
				h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleLinkText, msg, "")}, at: e.at, end: end})
			}
		}
		c.external(l, e.href)
		if slug, ok := internalSlug(e.href); ok {
			c.slugsAdd(slug)
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleBrokenLink, msgBrokenLink, ""), slug: slug}, at: e.at, end: end})
		}
		if isDocument(e.href) && !notesAccessibility(e.label) {
			h.pending = append(h.pending, posFinding{p: pending{f: c.finding(l, RuleDocumentLink, msgDocument, "")}, at: e.at, end: end, doc: true})
		}
	}
}

// contextWindow is how much text either side of a finding shows where it is.
const contextWindow = 60

// noteWindow is how far from a document link a note on its accessibility is looked for.
const noteWindow = 150

// finish gives the field's findings their context and queues them.
func (h *htmlRun) finish(c *run) {
	text := h.text.String()
	for _, p := range h.pending {
		if p.doc && notesAccessibility(window(text, p.at, p.end, noteWindow)) {
			continue
		}
		ctx := p.context
		if ctx == "" {
			ctx = window(text, p.at, p.end, contextWindow)
		}
		p.p.f.Context = clip(ctx, 120)
		c.pending = append(c.pending, p.p)
	}
}

// window is text from n bytes before at to n bytes after end, cut on character boundaries.
func window(text string, at, end, n int) string {
	from, to := max(0, at-n), min(len(text), end+n)
	for from > 0 && from < len(text) && (text[from]&0xC0) == 0x80 {
		from--
	}
	for to < len(text) && (text[to]&0xC0) == 0x80 {
		to++
	}
	return text[from:to]
}

func (c *run) slugsAdd(slug string) {
	if c.slugs == nil {
		c.slugs = map[string]bool{}
	}
	c.slugs[slug] = true
}

// linkText checks the text of a link or button the record gives in a field (a section's
// button).
func (c *run) linkText(l loc, text, href, context string) {
	if msg := vague(text, href); msg != "" {
		c.add(l, RuleLinkText, msg, context)
	}
}

// vagueTexts are link texts that say nothing on their own, folded (words.Fold), in the
// languages institutions' sites are written in (English, French, Spanish, German, Portuguese,
// Italian).
var vagueTexts = map[string]bool{
	"click here": true, "click": true, "here": true, "read more": true, "more": true, "link": true, "this link": true,
	"learn more": true, "more info": true, "more information": true, "details": true, "continue": true, "this": true,
	"go": true, "click this link": true, "see more": true, "find out more": true, "download": true, "this page": true,
	"cliquez ici": true, "ici": true, "lire la suite": true, "en savoir plus": true, "plus": true, "lien": true,
	"haga clic aqui": true, "haz clic aqui": true, "aqui": true, "leer mas": true, "mas": true, "enlace": true,
	"hier klicken": true, "klicken sie hier": true, "hier": true, "mehr": true, "weiterlesen": true, "mehr erfahren": true,
	"clique aqui": true, "saiba mais": true, "leia mais": true, "clicca qui": true, "qui": true, "leggi di piu": true,
}

// vague is the message for a link text that says nothing on its own ("" when it does).
func vague(text, href string) string {
	t := strings.TrimSpace(text)
	if looksLikeURL(t) || (href != "" && strings.TrimSpace(href) == t && strings.Contains(t, "/")) {
		return msgBareURL
	}
	folded := strings.Join(words.Split(t), " ")
	if vagueTexts[folded] {
		return msgLinkText
	}
	return ""
}

func looksLikeURL(s string) bool {
	if strings.ContainsAny(s, " \t\n") {
		return false
	}
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.")
}

// reserved are the website's own first path segments (shared/website): a link to them is no
// page's slug.
var reserved = map[string]bool{
	"events": true, "notices": true, "albums": true, "staff": true, "departments": true, "faqs": true, "resources": true,
	"testimonials": true, "search": true, "forms": true, "newsletter": true, "accessibility": true, "media": true,
	"assets": true, "_preview": true, "_v": true,
}

// internalSlug is the page slug a root-relative link names ("/admissions", "/admissions/",
// "/admissions?x#y"); ok is false for every other address.
func internalSlug(href string) (string, bool) {
	if !strings.HasPrefix(href, "/") || strings.HasPrefix(href, "//") || strings.HasPrefix(href, "/\\") {
		return "", false
	}
	u, err := url.Parse(href)
	if err != nil {
		return "", false
	}
	p := strings.Trim(u.Path, "/")
	if p == "" || strings.Contains(p, "/") || reserved[p] || !validSlug(p) {
		return "", false
	}
	return p, true
}

// validSlug is the pages' slug format (collections.FormatSlug): lower-case letters, digits and
// hyphens, 1 to 100.
func validSlug(s string) bool {
	if len(s) == 0 || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// documentExts are the document formats a link's accessibility note is asked for.
var documentExts = map[string]bool{".pdf": true, ".doc": true, ".docx": true, ".ppt": true, ".pptx": true, ".xls": true,
	".xlsx": true, ".odt": true, ".ods": true, ".odp": true, ".rtf": true, ".pages": true, ".key": true, ".numbers": true}

// IsDocument reports whether href is a document (PDF, Word…) by its name.
func IsDocument(href string) bool { return isDocument(href) }

func isDocument(href string) bool {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return documentExts[strings.ToLower(path.Ext(u.Path))]
}

// notesAccessibility reports whether text speaks of a document's accessibility.
func notesAccessibility(text string) bool {
	f := words.Fold(text)
	for _, w := range []string{"accessib", "accesib", "barrierefrei", "screen reader", "another format", "other format", "alternative format", "autre format", "otro formato"} {
		if strings.Contains(f, w) {
			return true
		}
	}
	return false
}

// contrast reports text colour fg on bg under WCAG's 4.5:1 (3:1 when all the text is large: a
// section holding only its title).
func (c *run) contrast(l loc, fg, bg string, largeOnly bool, context string) {
	a, okA := parseColour(fg)
	b, okB := parseColour(bg)
	if !okA || !okB {
		return
	}
	ratio := contrastRatio(a, b)
	need := 4.5
	if largeOnly {
		need = 3
	}
	if ratio >= need {
		return
	}
	msg := fmt.Sprintf("The text colour %s on the background %s has a contrast of %.1f:1; text needs at least %.1f:1 (large headings 3:1) to be read by people with low vision. Choose a darker text or a lighter background (or the other way round).",
		fg, bg, math.Floor(ratio*10)/10, need)
	c.add(l, RuleContrast, msg, context)
}

// parseColour reads #rgb or #rrggbb.
func parseColour(s string) ([3]float64, bool) {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "#")
	if len(s) == 3 {
		s = string([]byte{s[0], s[0], s[1], s[1], s[2], s[2]})
	}
	if len(s) != 6 {
		return [3]float64{}, false
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return [3]float64{}, false
	}
	return [3]float64{float64(v>>16&255) / 255, float64(v>>8&255) / 255, float64(v&255) / 255}, true
}

func luminance(c [3]float64) float64 {
	lin := func(x float64) float64 {
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c[0]) + 0.7152*lin(c[1]) + 0.0722*lin(c[2])
}

// contrastRatio is WCAG 2's contrast ratio of two colours.
func contrastRatio(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
