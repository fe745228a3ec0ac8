package richtext

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestSanitizeKeepsTheEditorsHTML(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"formatting", `<p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <sub>2</sub><sup>3</sup></p>`,
			`<p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <sub>2</sub><sup>3</sup></p>`},
		{"editor classes kept, others dropped", `<p class="ql-align-center ql-indent-1 evil">x</p><span class="big">y</span>`,
			`<p class="ql-align-center ql-indent-1">x</p><span>y</span>`},
		{"a link gets rel", `<a href="https://example.org/a?b=1&c=2" target="_blank">l</a>`,
			`<a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="nofollow noopener noreferrer">l</a>`},
		{"mail, phone and relative links", `<a href="mailto:office@school.edu">m</a><a href="tel:+4412345">t</a><a href="/about#team">r</a>`,
			`<a href="mailto:office@school.edu" rel="nofollow noopener noreferrer">m</a><a href="tel:+4412345" rel="nofollow noopener noreferrer">t</a><a href="/about#team" rel="nofollow noopener noreferrer">r</a>`},
		{"a given rel is replaced", `<a href="/x" rel="opener">x</a>`, `<a href="/x" rel="nofollow noopener noreferrer">x</a>`},
		{"image", `<img src="/media/t/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png" alt="Sports day" width="640">`,
			`<img src="/media/t/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png" alt="Sports day" width="640"/>`},
		{"lists", `<ol><li data-list="bullet">a</li><li data-list="ordered">b</li></ol>`,
			`<ol><li data-list="bullet">a</li><li data-list="ordered">b</li></ol>`},
		{"headings, quotes, code", `<h2>T</h2><blockquote>q</blockquote><pre class="ql-syntax" spellcheck="false">a &lt; b</pre>`,
			`<h2>T</h2><blockquote>q</blockquote><pre class="ql-syntax" spellcheck="false">a &lt; b</pre>`},
		{"text is escaped", `<p>1 < 2 & "q"</p>`, `<p>1 &lt; 2 &amp; &#34;q&#34;</p>`},
		{"unknown wrappers unwrapped", `<font color="red"><center>x</center></font><x-card>y</x-card>`, `xy`},
		{"script dropped with its content", `<p>a<script>alert(1)</script>b</p>`, `<p>ab</p>`},
		{"handlers, style, id dropped", `<p onclick="x()" style="color:red" id="main">a</p>`, `<p>a</p>`},
		{"javascript link", `<a href="javascript:alert(1)">x</a>`, `<a>x</a>`},
		{"encoded javascript link", `<a href="&#106;avascript&colon;alert(1)">x</a>`, `<a>x</a>`},
		{"tab inside the scheme", "<a href=\"jav\tascript:alert(1)\">x</a>", `<a>x</a>`},
		{"data image", `<img src="data:image/svg+xml;base64,PHN2Zz4=">`, ``},
		{"image without a source", `<p><img src="javascript:x"></p>`, `<p></p>`},
		{"svg dropped", `<svg><a href="/x">x</a><script>alert(1)</script></svg>ok`, `ok`},
		{"comment dropped", `<!--[if IE]><script>x</script><![endif]-->ok`, `ok`},
		{"noscript trick", `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`, `<img src="x"/>&#34;&gt;`},
		{"empty", ``, ``},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Sanitize(c.in); got != c.want {
				t.Fatalf("Sanitize(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// hostile are payloads from the OWASP XSS filter evasion cheat sheet, html5sec.org and the
// mutation-XSS literature; checkSafe must hold for each once sanitised.
var hostile = []string{
	`<script>alert(1)</script>`, `<img src=x onerror=alert(1)>`, `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
	"<IMG SRC=`javascript:alert(1)`>", `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
	`<IMG SRC=" &#14;  javascript:alert('XSS');">`, `<<SCRIPT>alert("XSS");//\<</SCRIPT>`, `<svg/onload=alert(1)>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`, `<form><button formaction="javascript:alert(1)">x`,
	`<a href="vbscript:msgbox(1)">x</a>`, `<a href=" javascript:alert(1)">x</a>`, `<a href="java&#0;script:alert(1)">x</a>`,
	`<base href="javascript:alert(1)//">`, `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
	`<iframe srcdoc="<script>alert(1)</script>">`, `<object data="javascript:alert(1)">`, `<embed src="javascript:alert(1)">`,
	`<details open ontoggle=alert(1)>`, `<table background="javascript:alert(1)"><td background="javascript:alert(1)">`,
	`<div style="background:url(javascript:alert(1))">`, `<template><script>alert(1)</script></template>`,
	`<svg><style><img src=x onerror=alert(1)></style></svg>`, `<math><style><img src=x onerror=alert(1)></style></math>`,
	`<noembed><img src=x onerror=alert(1)></noembed>`, `<xmp><img src=x onerror=alert(1)></xmp>`,
	`<a href="https://ok.example" onmouseover="alert(1)">x</a>`, `<p title="&quot;><script>alert(1)</script>">x</p>`,
	`<textarea><img src=x onerror=alert(1)></textarea>`, `<select><option><img src=x onerror=alert(1)>`,
	`<table><tr><td><a href="javascript:alert(1)">x</a></td></tr></table>`, `<li data-list="&quot;><script>">x</li>`,
	`<img src="//evil.example/x.png" alt="&lt;script&gt;">`, `<pre data-language="js&quot; onload=&quot;x">x</pre>`,
}

func TestSanitizedOutputHoldsOnlyWhatThePolicyAllows(t *testing.T) {
	for _, p := range hostile {
		out := Sanitize(p)
		if err := checkSafe(out); err != nil {
			t.Errorf("%q → %q: %v", p, out, err)
		}
	}
}

// FuzzSanitize checks the invariant on any input: go test -fuzz FuzzSanitize ./shared/richtext
func FuzzSanitize(f *testing.F) {
	for _, p := range hostile {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		if err := checkSafe(out); err != nil {
			t.Fatalf("%q → %q: %v", in, out, err)
		}
		if again := Sanitize(out); checkSafe(again) != nil {
			t.Fatalf("second pass %q → %q", out, again)
		}
	})
}

// checkSafe parses out as a browser would and checks every node against the policy: no comment,
// only allowed elements in the HTML namespace, only allowed attributes with accepted values.
func checkSafe(out string) error {
	context := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(out), context)
	if err != nil {
		return err
	}
	var walk func(n *html.Node) error
	walk = func(n *html.Node) error {
		switch n.Type {
		case html.CommentNode, html.DoctypeNode:
			return fmt.Errorf("a %v node", n.Type)
		case html.ElementNode:
			r, ok := rules().elements[n.DataAtom]
			if !ok || n.Namespace != "" {
				return fmt.Errorf("element <%s>", n.Data)
			}
			for _, a := range n.Attr {
				if n.DataAtom == atom.A && a.Key == "rel" {
					continue
				}
				c, ok := r.attrs[a.Key]
				if !ok {
					c, ok = rules().global[a.Key]
				}
				if !ok {
					return fmt.Errorf("attribute %s on <%s>", a.Key, n.Data)
				}
				if v, ok := c(a.Val); !ok || v != a.Val {
					return fmt.Errorf("value %s=%q on <%s>", a.Key, a.Val, n.Data)
				}
				if low := strings.ToLower(a.Val); a.Key == "href" || a.Key == "src" || a.Key == "cite" {
					if strings.Contains(low, "script:") || strings.HasPrefix(low, "data:") {
						return fmt.Errorf("url %s=%q", a.Key, a.Val)
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range nodes {
		if err := walk(n); err != nil {
			return err
		}
	}
	return nil
}
