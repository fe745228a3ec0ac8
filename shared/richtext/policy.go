package richtext

import (
	"net/url"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// policy is what the sanitiser keeps and drops, built on first use (as package variables, its
// maps cost the cold start of every group linking the package even when no request wrote rich
// text).
type policy struct {
	// dropped elements go with everything inside them: scripts and styles, embedded and framed
	// documents, forms and their controls, templates, raw-text elements.
	dropped map[atom.Atom]bool
	// global attributes are allowed on every kept element. class keeps only the editor's own
	// classes (ql-align-center, ql-indent-1, ql-size-large…); style and id are never kept.
	global map[string]check
	// elements are the elements kept: what the editor writes, and the usual text semantics;
	// those listed in plain keep only the global attributes.
	elements map[atom.Atom]rule
}

var (
	policyOnce  sync.Once
	builtPolicy policy
)

// rules returns the policy, building it on first use.
func rules() *policy {
	policyOnce.Do(func() { builtPolicy = newPolicy() })
	return &builtPolicy
}

func newPolicy() policy {
	return policy{dropped: dropped(), global: global(), elements: elements()}
}

func dropped() map[atom.Atom]bool {
	return atomSet(atom.Script, atom.Style, atom.Iframe, atom.Frame, atom.Frameset, atom.Object, atom.Embed,
		atom.Applet, atom.Param, atom.Noscript, atom.Noembed, atom.Noframes, atom.Template, atom.Textarea, atom.Title,
		atom.Xmp, atom.Plaintext, atom.Select, atom.Option, atom.Optgroup, atom.Datalist, atom.Button, atom.Input,
		atom.Form, atom.Output, atom.Keygen, atom.Svg, atom.Math, atom.Head, atom.Meta, atom.Link, atom.Base,
		atom.Audio, atom.Video, atom.Canvas, atom.Source, atom.Track, atom.Picture, atom.Dialog, atom.Slot, atom.Map,
		atom.Area)
}

// check accepts an attribute value, possibly normalised, or refuses it.
type check func(v string) (string, bool)

// rule is what an allowed element keeps.
type rule struct {
	// attrs are the element's own attributes beside the global ones.
	attrs map[string]check
	// required names an attribute without which the element is unwrapped (img: src).
	required string
}

func global() map[string]check {
	return map[string]check{"class": editorClasses, "dir": oneOf("ltr", "rtl", "auto"), "lang": langTag, "title": text(500)}
}

func elements() map[atom.Atom]rule {
	return withPlain(map[atom.Atom]rule{
		atom.A:          {attrs: map[string]check{"href": linkURL, "target": oneOf("_blank")}},
		atom.Img:        {attrs: map[string]check{"src": imageURL, "alt": text(500), "width": digits(5), "height": digits(5)}, required: "src"},
		atom.Blockquote: {attrs: map[string]check{"cite": linkURL}},
		atom.Q:          {attrs: map[string]check{"cite": linkURL}},
		atom.Del:        {attrs: map[string]check{"cite": linkURL, "datetime": text(40)}},
		atom.Ins:        {attrs: map[string]check{"cite": linkURL, "datetime": text(40)}},
		atom.Time:       {attrs: map[string]check{"datetime": text(40)}},
		atom.Ol:         {attrs: map[string]check{"start": digits(6), "reversed": oneOf("", "reversed")}},
		atom.Li:         {attrs: map[string]check{"data-list": oneOf("bullet", "ordered", "checked", "unchecked")}},
		atom.Td:         {attrs: map[string]check{"colspan": digits(3), "rowspan": digits(3)}},
		atom.Th:         {attrs: map[string]check{"colspan": digits(3), "rowspan": digits(3), "scope": oneOf("row", "col", "rowgroup", "colgroup")}},
		atom.Col:        {attrs: map[string]check{"span": digits(3)}},
		atom.Colgroup:   {attrs: map[string]check{"span": digits(3)}},
		atom.Pre:        {attrs: map[string]check{"spellcheck": oneOf("true", "false"), "data-language": token(30)}},
		atom.Div:        {attrs: map[string]check{"spellcheck": oneOf("true", "false"), "data-language": token(30)}},
		atom.Details:    {attrs: map[string]check{"open": oneOf("", "open")}},
	})
}

var plain = []atom.Atom{atom.P, atom.Br, atom.Hr, atom.Wbr, atom.Span, atom.H1, atom.H2, atom.H3, atom.H4,
	atom.H5, atom.H6, atom.Strong, atom.B, atom.Em, atom.I, atom.U, atom.S, atom.Strike, atom.Sub, atom.Sup,
	atom.Small, atom.Mark, atom.Abbr, atom.Cite, atom.Code, atom.Kbd, atom.Samp, atom.Var, atom.Dfn, atom.Tt,
	atom.Ul, atom.Dl, atom.Dt, atom.Dd, atom.Table, atom.Caption, atom.Thead, atom.Tbody, atom.Tfoot, atom.Tr,
	atom.Figure, atom.Figcaption, atom.Section, atom.Article, atom.Aside, atom.Summary, atom.Hgroup,
	atom.Bdi, atom.Bdo, atom.Ruby, atom.Rp, atom.Rt}

func withPlain(m map[atom.Atom]rule) map[atom.Atom]rule {
	for _, a := range plain {
		m[a] = rule{}
	}
	return m
}

// attributes returns the attributes of n the rule and the global list allow, with their
// checked values. A link always gets rel="nofollow noopener noreferrer".
func (r rule) attributes(n *html.Node) []html.Attribute {
	var out []html.Attribute
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		ok := false
		var v string
		if c, allowed := r.attrs[a.Key]; allowed {
			v, ok = c(a.Val)
		} else if c, allowed := rules().global[a.Key]; allowed {
			v, ok = c(a.Val)
		}
		if ok && !hasKey(out, a.Key) {
			out = append(out, html.Attribute{Key: a.Key, Val: v})
		}
	}
	if n.DataAtom == atom.A && hasKey(out, "href") {
		out = append(out, html.Attribute{Key: "rel", Val: "nofollow noopener noreferrer"})
	}
	return out
}

func hasKey(attrs []html.Attribute, key string) bool {
	for _, a := range attrs {
		if a.Key == key {
			return true
		}
	}
	return false
}

// linkURL allows http, https, mailto and tel links, and relative ones.
func linkURL(v string) (string, bool) { return safeURL(v, "http", "https", "mailto", "tel") }

// imageURL allows http and https images, and same-site paths (/media/…).
func imageURL(v string) (string, bool) { return safeURL(v, "http", "https") }

// safeURL accepts v when it parses as a URL whose scheme, if any, is one of schemes. The value
// is the one the parser decoded (character references resolved), so "&#106;avascript:" is
// seen as "javascript:"; control characters and whitespace inside, which browsers strip before
// reading a scheme ("jav\tascript:"), refuse the value outright.
func safeURL(v string, schemes ...string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 2000 || strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f || r == ' ' }) {
		return "", false
	}
	u, err := url.Parse(v)
	if err != nil {
		return "", false
	}
	if u.Scheme == "" {
		return v, !strings.Contains(strings.SplitN(v, "/", 2)[0], ":")
	}
	for _, s := range schemes {
		if strings.EqualFold(u.Scheme, s) {
			return v, true
		}
	}
	return "", false
}

// editorClasses keeps the class names the editor writes (ql-…), dropping any other.
func editorClasses(v string) (string, bool) {
	var kept []string
	for _, c := range strings.Fields(v) {
		if strings.HasPrefix(c, "ql-") && len(c) <= 40 && isToken(c) {
			kept = append(kept, c)
		}
	}
	return strings.Join(kept, " "), len(kept) > 0
}

func oneOf(values ...string) check {
	return func(v string) (string, bool) {
		v = strings.ToLower(strings.TrimSpace(v))
		for _, allowed := range values {
			if v == allowed {
				return v, true
			}
		}
		return "", false
	}
}

func digits(max int) check {
	return func(v string) (string, bool) {
		v = strings.TrimSpace(v)
		if v == "" || len(v) > max {
			return "", false
		}
		for _, r := range v {
			if r < '0' || r > '9' {
				return "", false
			}
		}
		return v, true
	}
}

// text allows any text up to max bytes: html.Render escapes it in the attribute.
func text(max int) check {
	return func(v string) (string, bool) { return v, len(v) <= max }
}

// token allows letters, digits and - _ + # . (a code block's language).
func token(max int) check {
	return func(v string) (string, bool) { return v, v != "" && len(v) <= max && isToken(v) }
}

func langTag(v string) (string, bool) {
	if len(v) < 2 || len(v) > 20 {
		return "", false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
			return "", false
		}
	}
	return v, true
}

func isToken(v string) bool {
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_+#.", r)) {
			return false
		}
	}
	return true
}

func atomSet(as ...atom.Atom) map[atom.Atom]bool {
	m := make(map[atom.Atom]bool, len(as))
	for _, a := range as {
		m[a] = true
	}
	return m
}
