// Package richtext makes the editor's HTML safe to store and to show. The input is parsed as an
// HTML5 fragment by golang.org/x/net/html (the algorithm browsers use), every node is kept,
// unwrapped or dropped against an allow-list (policy.go), and the tree is written back out by
// html.Render, which escapes every text and attribute value. What a browser later parses from the
// output is therefore the tree that was checked: no comment, no script, style or foreign
// (SVG, MathML) content, no event handler, style or id attribute, no URL but http(s), mailto
// and tel (images: http(s) and same-site paths).
//
// It replaces bluemonday, whose package initialisation (its CSS parser's tables and patterns)
// cost the cold start of every function linking it about 3 ms, half again a hello-world Lambda's
// whole init. Only the groups serving rich text (content, public) link this package.
package richtext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Sanitize returns html with everything outside the policy removed.
func Sanitize(fragment string) string {
	context := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), context)
	if err != nil {
		return "" // only a read error, which a strings.Reader never returns
	}
	var out strings.Builder
	out.Grow(len(fragment))
	for _, n := range clean(nodes) {
		if err := html.Render(&out, n); err != nil {
			return ""
		}
	}
	return out.String()
}

// clean returns the nodes that remain of nodes once each is kept (with its allowed attributes
// and cleaned children), unwrapped (replaced by its cleaned children) or dropped, detached from
// their former parents so that they can be rendered.
func clean(nodes []*html.Node) []*html.Node {
	p := rules()
	var out []*html.Node
	for _, n := range nodes {
		switch n.Type {
		case html.TextNode:
			out = append(out, &html.Node{Type: html.TextNode, Data: n.Data})
		case html.ElementNode:
			if n.Namespace != "" || p.dropped[n.DataAtom] {
				continue // foreign content, or an element whose content is not the page's text
			}
			children := clean(childrenOf(n))
			rule, ok := p.elements[n.DataAtom]
			if !ok {
				out = append(out, children...) // unknown or unwanted wrapper: keep what it wraps
				continue
			}
			el := &html.Node{Type: html.ElementNode, Data: n.DataAtom.String(), DataAtom: n.DataAtom, Attr: rule.attributes(n)}
			if rule.required != "" && !hasKey(el.Attr, rule.required) {
				out = append(out, children...) // an image without a safe source, say
				continue
			}
			for _, c := range children {
				el.AppendChild(c)
			}
			out = append(out, el)
		}
		// Comments, doctypes: dropped.
	}
	return out
}

func childrenOf(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, c)
	}
	return out
}
