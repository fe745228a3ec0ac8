// Package a11ycheck is the content checker of issue 37: what staff write (rich text, images,
// links, a page's sections and their colours) read against WCAG 2.1 AA, as findings that say
// what is wrong, where, and how to fix it. It never changes content. The same checker answers
// the editor as staff type (POST /accessibility-check) and runs on every save of a record that
// reaches the website (Observe), whose findings are stored beside the record and counted
// (store.go), for the site report (GET /accessibility-report).
package a11ycheck

import (
	"context"
	"net/url"
	"strings"

	"github.com/campuscms/panel/shared/formats"
)

// Rule ids.
const (
	RuleImgAlt       = "img-alt"
	RuleHeadingOrder = "heading-order"
	RuleHeadingH1    = "heading-h1"
	RuleLinkText     = "link-text"
	RuleEmptyLink    = "empty-link"
	RuleTableHeader  = "table-header"
	RuleContrast     = "contrast"
	RuleDocumentLink = "document-link"
	RuleBrokenLink   = "broken-link"
)

// Rules are every rule id, in the order the report groups them.
var Rules = []string{RuleImgAlt, RuleEmptyLink, RuleBrokenLink, RuleContrast, RuleTableHeader, RuleHeadingH1,
	RuleHeadingOrder, RuleLinkText, RuleDocumentLink}

// Severities. Errors block publishing where the site settings ask for it; warnings never do.
const (
	Error   = "error"
	Warning = "warning"
)

// severity is each rule's: what fails a WCAG 2.1 A/AA success criterion outright is an error;
// what is usually, not always, a failure (a vague link text may be clear in its sentence) a
// warning.
var severity = map[string]string{
	RuleImgAlt: Error, RuleEmptyLink: Error, RuleBrokenLink: Error, RuleContrast: Error, RuleTableHeader: Error,
	RuleHeadingH1: Warning, RuleHeadingOrder: Warning, RuleLinkText: Warning, RuleDocumentLink: Warning,
}

// Severity is rule's severity ("" for no rule).
func Severity(rule string) string { return severity[rule] }

// Finding is one thing to fix: its rule, severity, a plain-language message saying how to fix
// it, and where it is: the field ("content", "sections[3].config[0].image"), the section's
// index when it is in a section, and the text around it.
type Finding struct {
	Rule     string `json:"rule" dynamo:"rule"`
	Severity string `json:"severity" dynamo:"severity"`
	Message  string `json:"message" dynamo:"message"`
	Field    string `json:"field" dynamo:"field"`
	Section  *int   `json:"section,omitempty" dynamo:"section,omitempty"`
	Context  string `json:"context,omitempty" dynamo:"context,omitempty"`
}

// Media is what the checker needs of an image's media record.
type Media struct {
	AltText    string
	Decorative bool
}

// Resolver looks up, in bounded batch reads, what the content refers to. Each is called at
// most once per check, with every reference at once.
type Resolver interface {
	// Media returns the media records of refs ("{ulid}/{name}") that exist.
	Media(ctx context.Context, refs []string) (map[string]Media, error)
	// Pages returns, for each slug, whether a page of this site holds it and is published
	// (absent: no page holds it).
	Pages(ctx context.Context, slugs []string) (map[string]bool, error)
}

// MaxFindings bounds what one record stores and shows: past it, the first MaxFindings are kept
// (fixing them shows the next).
const MaxFindings = 100

// Check reads doc and returns its findings, in document order (fields, then sections). It reads
// only through r (two batch reads at most).
func Check(ctx context.Context, doc Doc, r Resolver) ([]Finding, error) {
	fs, _, err := CheckWithLinks(ctx, doc, r)
	return fs, err
}

// Link is an address on another site (or a document there) that a record links to, and where:
// the scheduled link check (links.go) asks it whether it still answers.
type Link struct {
	URL     string `dynamo:"url" json:"url"`
	Field   string `dynamo:"field" json:"field"`
	Section *int   `dynamo:"section,omitempty" json:"section,omitempty"`
}

// MaxLinks bounds the external links of one record the scheduled check follows.
const MaxLinks = 20

// CheckWithLinks is Check, with the record's external links (at most MaxLinks, each once).
func CheckWithLinks(ctx context.Context, doc Doc, r Resolver) ([]Finding, []Link, error) {
	c := &run{}
	c.walk(doc)
	media := map[string]Media{}
	if refs := keys(c.mediaRefs); len(refs) > 0 && r != nil {
		m, err := r.Media(ctx, refs)
		if err != nil {
			return nil, nil, err
		}
		media = m
	}
	pages := map[string]bool{}
	if slugs := keys(c.slugs); len(slugs) > 0 && r != nil {
		p, err := r.Pages(ctx, slugs)
		if err != nil {
			return nil, nil, err
		}
		pages = p
	}
	out := make([]Finding, 0, len(c.pending))
	for _, p := range c.pending {
		f, ok := p.resolve(media, pages, r != nil)
		if ok {
			out = append(out, f)
		}
		if len(out) == MaxFindings {
			break
		}
	}
	return out, c.links, nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Errors counts the findings that are errors.
func Errors(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// pending is a finding, or one that depends on a lookup (an image's media record, a page's
// slug).
type pending struct {
	f Finding
	// mediaRef, when set, makes the finding stand only if the media record has no alt text and
	// is not decorative.
	mediaRef string
	// slug, when set, makes the finding stand only if no published page holds it.
	slug string
}

func (p pending) resolve(media map[string]Media, pages map[string]bool, looked bool) (Finding, bool) {
	switch {
	case p.mediaRef != "":
		m, ok := media[p.mediaRef]
		if !looked || (ok && (m.Decorative || strings.TrimSpace(m.AltText) != "")) {
			return Finding{}, false
		}
		if !ok {
			// A file no longer in the library shows nothing; the record still names it.
			return Finding{}, false
		}
	case p.slug != "":
		published, ok := pages[p.slug]
		if !looked || (ok && published) {
			return Finding{}, false
		}
		if ok {
			p.f.Message = "This link goes to a page of this site that is not published: visitors get “page not found”. Publish that page, or link to another one."
		}
	}
	return p.f, true
}

// run is one check in progress.
type run struct {
	pending   []pending
	mediaRefs map[string]bool
	slugs     map[string]bool
	links     []Link
}

// external notes a link to another site (http or https, absolute) for the scheduled check.
func (c *run) external(l loc, href string) {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(href) > 2000 || len(c.links) == MaxLinks {
		return
	}
	u.Fragment = ""
	s := u.String()
	for _, k := range c.links {
		if k.URL == s {
			return
		}
	}
	c.links = append(c.links, Link{URL: s, Field: l.field, Section: l.section})
}

// loc is where a finding is.
type loc struct {
	field   string
	section *int
}

func (c *run) add(l loc, rule, msg, context string) {
	c.pending = append(c.pending, pending{f: c.finding(l, rule, msg, context)})
}

func (c *run) finding(l loc, rule, msg, context string) Finding {
	return Finding{Rule: rule, Severity: severity[rule], Message: msg, Field: l.field, Section: l.section, Context: clip(context, 120)}
}

func (c *run) needMedia(l loc, ref, context string) {
	if c.mediaRefs == nil {
		c.mediaRefs = map[string]bool{}
	}
	c.mediaRefs[ref] = true
	c.pending = append(c.pending, pending{f: c.finding(l, RuleImgAlt, msgImageAlt, context), mediaRef: ref})
}

func (c *run) needPage(l loc, slug, context string) {
	if c.slugs == nil {
		c.slugs = map[string]bool{}
	}
	c.slugs[slug] = true
	c.pending = append(c.pending, pending{f: c.finding(l, RuleBrokenLink, msgBrokenLink, context), slug: slug})
}

// Messages: what is wrong and what to do, in plain words.
const (
	msgImageAlt = "This image has no alternative text. Describe it in the Media Library (Alt text), or mark it decorative if it adds nothing to the text."
	msgImgTag   = "This image has no alternative text. Add a short description of what it shows, or an empty one (alt=\"\") if it is only decoration."
	msgH1       = "Use Heading 2 or lower here: the page title is the page's only Heading 1."
	msgLinkText = "This link's text does not say where it goes when read on its own (screen reader users often list links). Use words that name the destination, like “Admissions calendar”."
	msgBareURL  = "This link's text is a web address, which screen readers read out character by character. Use words that name the destination instead."
	msgEmpty    = "This link has no text, so screen readers announce only “link”. Give it text that says where it goes."
	msgEmptyBtn = "This button has no text, so screen readers announce only “button”. Give it text that says what it does."
	msgTable    = "This table has no header row. Mark the first row (or column) as table headers so each cell can be read with its heading."
	msgDocument = "This links to a document (PDF, Word…). Say next to the link whether it is accessible, and how to ask for an accessible version (for example “PDF, may not be fully accessible: email us for another format”)."
	msgBroken   = "This link goes to a page of this site that does not exist: visitors get “page not found”. Link to an existing page, or create it."
)

const msgBrokenLink = msgBroken

// clip is s on one line, shortened to n characters.
func clip(s string, n int) string { return formats.Shorten(strings.Join(strings.Fields(s), " "), n) }
