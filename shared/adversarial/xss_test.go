package adversarial_test

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

// xssCorpus are known XSS payloads (OWASP filter-evasion cheat sheet, PortSwigger's list, and
// the mutation-XSS classics), each sent through every rich-text field.
var xssCorpus = []string{
	`<script>alert(1)</script>`,
	`<SCRIPT SRC=//xss.example/x.js></SCRIPT>`,
	`<script/src=data:,alert(1)></script>`,
	`<scr<script>ipt>alert(1)</scr</script>ipt>`,
	`<img src=x onerror=alert(1)>`,
	`<IMG SRC="javascript:alert('XSS');">`,
	`<IMG SRC=javascript:alert('XSS')>`,
	`<IMG SRC=JaVaScRiPt:alert('XSS')>`,
	"<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
	`<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\>`,
	`<IMG SRC=# onmouseover="alert('xxs')">`,
	`<IMG SRC= onmouseover="alert('xxs')">`,
	`<IMG onmouseover="alert('xxs')">`,
	`<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
	`<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
	"<IMG SRC=\"jav\tascript:alert('XSS');\">",
	"<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
	"<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
	`<IMG SRC=" &#14;  javascript:alert('XSS');">`,
	`<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`,
	`<BODY onload!#$%&()*~+-_.,:;?@[/|\]^` + "`" + `=alert("XSS")>`,
	`<<SCRIPT>alert("XSS");//\<</SCRIPT>`,
	`<SCRIPT SRC=http://xss.rocks/xss.js?< B >`,
	`<iframe src=http://xss.rocks/scriptlet.html <`,
	`<iframe src="javascript:alert(1)"></iframe>`,
	`<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
	`<svg onload=alert(1)>`,
	`<svg><script>alert(1)</script></svg>`,
	`<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
	`<a href="javascript:alert(1)">click</a>`,
	`<a href="JAVASCRIPT:alert(1)">click</a>`,
	`<a href="  javascript:alert(1)">click</a>`,
	`<a href="java&#09;script:alert(1)">click</a>`,
	`<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>`,
	`<a href="vbscript:msgbox(1)">click</a>`,
	`<a href="#" onclick="alert(1)">click</a>`,
	`<a href=x onfocus=alert(1) autofocus>x</a>`,
	`<div style="background-image: url(javascript:alert('XSS'))">x</div>`,
	`<div style="width: expression(alert('XSS'));">x</div>`,
	`<STYLE>@import'http://xss.rocks/xss.css';</STYLE>`,
	`<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
	`<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
	`<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
	`<TABLE BACKGROUND="javascript:alert('XSS')">`,
	`<TD BACKGROUND="javascript:alert('XSS')">`,
	`<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>`,
	`<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
	`<form action="javascript:alert(1)"><input type=submit></form>`,
	`<button formaction="javascript:alert(1)">x</button>`,
	`<input onfocus=alert(1) autofocus>`,
	`<details open ontoggle=alert(1)>`,
	`<video><source onerror="alert(1)"></video>`,
	`<audio src=x onerror=alert(1)>`,
	`<body onload=alert(1)>`,
	`<marquee onstart=alert(1)>x</marquee>`,
	`<base href="javascript:alert(1)//">`,
	`<img src="x` + "`" + `<script>alert(1)</script>"` + "`" + `>`,
	`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
	`<a href="&#x6a;avascript:alert(1)">x</a>`,
	`<img src="data:image/svg+xml,<svg onload=alert(1)>">`,
	`"><script>alert(document.cookie)</script>`,
	`'><img src=x onerror=alert(1)>`,
	`<x onclick=alert(1)>click`,
	`<p style="x:expression(alert(1))">x</p>`,
}

// dangerous reports what in an HTML fragment could run script: script-capable elements, event
// handler attributes, and javascript:, vbscript: or data: URLs in any attribute.
func dangerous(fragment string) string {
	z := html.NewTokenizer(strings.NewReader(fragment))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "iframe", "object", "embed", "style", "link", "meta", "base", "form", "svg", "math":
				return "<" + tok.Data + ">"
			}
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Key)
				val := strings.Map(func(r rune) rune {
					if r <= ' ' {
						return -1
					}
					return r
				}, strings.ToLower(a.Val))
				switch {
				case strings.HasPrefix(key, "on"):
					return "handler " + key
				case key == "style":
					return "style attribute"
				case strings.HasPrefix(val, "javascript:"), strings.HasPrefix(val, "vbscript:"), strings.HasPrefix(val, "data:"):
					return key + "=" + val
				}
			}
		}
	}
}

// TestXSSThroughRichText sends the corpus through every rich-text field of every collection.
func TestXSSThroughRichText(t *testing.T) {
	t.Parallel()
	if len(xssCorpus) < 50 {
		t.Fatalf("the corpus has %d payloads, want at least 50", len(xssCorpus))
	}
	reg := registry(t)
	tn := testkit.NewTenant(t)
	fields := 0
	for _, key := range reg.Keys() {
		c := reg[key]
		for _, f := range c.Fields {
			if f.Type != collections.TypeRichText {
				continue
			}
			fields++
			t.Run(key+"."+f.Name, func(t *testing.T) {
				base := testkit.SampleBody(t, tn, reg, c, next())
				for _, payload := range xssCorpus {
					b := map[string]any{}
					for k, v := range base {
						b[k] = v
					}
					b[f.Name] = payload
					if f.Name != c.NameField {
						b[c.NameField] = testkit.SampleValue(t, tn, reg, mustField(t, c, c.NameField), next())
					}
					res := send(t, call{Method: "POST", Path: "/" + key, Tenant: tn.ID, Token: tn.AdminToken, Body: b})
					if res.Status != http.StatusCreated {
						refused(t, "payload", res, http.StatusBadRequest)
						continue
					}
					id := res.Get("result.id").(string)
					stored, _ := rawItem(t, tn.ID, key, id)[f.Name].(string)
					if why := dangerous(stored); why != "" {
						t.Errorf("%.60q stored as %.200q: %s", payload, stored, why)
					} else {
						totals.refused.Add(1) // the dangerous part was refused
					}
				}
			})
		}
	}
	if fields == 0 {
		t.Fatal("no rich-text field found: the XSS corpus tested nothing")
	}
}

func mustField(t *testing.T, c *collections.Collection, name string) collections.Field {
	t.Helper()
	f, ok := c.Field(name)
	if !ok {
		t.Fatalf("%s has no field %s", c.Key, name)
	}
	return f
}
