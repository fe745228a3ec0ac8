package pages_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// xssPayloads are hostile HTML snippets (from the OWASP XSS filter evasion cheat sheet and
// html5sec.org); none may leave anything executable in the stored content.
var xssPayloads = []string{
	`<script>alert(1)</script>`,
	`<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>`,
	`<img src=x onerror=alert(1)>`,
	`<IMG SRC="javascript:alert('XSS');">`,
	`<IMG SRC=javascript:alert('XSS')>`,
	`<IMG SRC=JaVaScRiPt:alert('XSS')>`,
	"<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
	`<a onmouseover="alert(document.cookie)">xxs link</a>`,
	`<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\>`,
	`<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
	`<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
	`<IMG SRC="jav	ascript:alert('XSS');">`,
	`<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
	`<IMG SRC=" &#14;  javascript:alert('XSS');">`,
	`<SCRIPT/XSS SRC="https://evil.example/xss.js"></SCRIPT>`,
	`<BODY onload!#$%&()*~+-_.,:;?@[/|\]^` + "`" + `=alert("XSS")>`,
	`<<SCRIPT>alert("XSS");//\<</SCRIPT>`,
	`<SCRIPT SRC=//evil.example/.j>`,
	`<IMG SRC="` + "`" + `<javascript:alert>` + "`" + `('XSS')"`,
	`<iframe src=http://evil.example/scriptlet.html <`,
	`\";alert('XSS');//`,
	`</TITLE><SCRIPT>alert("XSS");</SCRIPT>`,
	`<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
	`<BODY BACKGROUND="javascript:alert('XSS')">`,
	`<IMG DYNSRC="javascript:alert('XSS')">`,
	`<IMG LOWSRC="javascript:alert('XSS')">`,
	`<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
	`<svg/onload=alert('XSS')>`,
	`<svg><script>alert(1)</script></svg>`,
	`<BGSOUND SRC="javascript:alert('XSS');">`,
	`<BR SIZE="&{alert('XSS')}">`,
	`<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
	`<STYLE>@import'http://evil.example/xss.css';</STYLE>`,
	`<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
	`<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
	`<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
	`<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>`,
	`<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`,
	`<TABLE BACKGROUND="javascript:alert('XSS')">`,
	`<TABLE><TD BACKGROUND="javascript:alert('XSS')">`,
	`<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
	`<DIV STYLE="width: expression(alert('XSS'));">`,
	`<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`,
	`<BASE HREF="javascript:alert('XSS');//">`,
	`<OBJECT TYPE="text/x-scriptlet" DATA="http://evil.example/scriptlet.html"></OBJECT>`,
	`<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
	`<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
	`<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">`,
	`<a href="javascript&colon;alert(1)">x</a>`,
	`<a href="jAvAsCrIpT:alert(1)">x</a>`,
	`<a href="vbscript:msgbox(1)">x</a>`,
	`<details open ontoggle=alert(1)>`,
	`<video><source onerror="alert(1)">`,
	`<audio src=x onerror=alert(1)>`,
	`<body onpageshow=alert(1)>`,
	`<marquee onstart=alert(1)>`,
	`<form action="javascript:alert(1)"><input type=submit>`,
	`<button formaction="javascript:alert(1)">x</button>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
	`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
	`<p style="background:url(javascript:alert(1))">x</p>`,
	`<img src=x:alert(alt) onerror=eval(src) alt=0>`,
	`<x onclick=alert(1)>click</x>`,
	`"><img src=x onerror=alert(1)>`,
	`<template><script>alert(1)</script></template>`,
	`<a href="&#106;avascript:alert(1)">x</a>`,
}

// dangerous matches anything executable or framing that may never be stored.
var dangerous = regexp.MustCompile(`(?i)<\s*(script|iframe|frame|object|embed|style|link|meta|base|form|svg|math|template)|\son[a-z]+\s*=|javascript:|vbscript:|data:|expression\(|formaction`)

func TestStoredContentNeverHoldsScript(t *testing.T) {
	t.Parallel()
	if len(xssPayloads) < 50 {
		t.Fatalf("corpus has %d payloads", len(xssPayloads))
	}
	tn := testkit.NewTenant(t)
	id, _ := newPage(t, tn, "Hostile")
	for i, p := range xssPayloads {
		res := as(t, tn, "PATCH", "/pages/"+id, map[string]any{"content": "<p>ok</p>" + p})
		mustStatus(t, res, 200)
		got, _ := as(t, tn, "GET", "/pages/"+id, nil).Get("result.content").(string)
		if dangerous.MatchString(got) {
			t.Errorf("payload %d survived: %q → %q", i, p, got)
		}
	}
	// Formatting the editor produces survives.
	html := `<p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <img src="/media/` + tn.ID + `/01ARZ3NDEKTSV4RRFFQ69G5FAV/a.png"> <a href="https://example.org">l</a></p>`
	res := as(t, tn, "PATCH", "/pages/"+id, map[string]any{"content": html})
	mustStatus(t, res, 200)
	got := res.Get("result.content").(string)
	for _, want := range []string{"<strong>b</strong>", "<em>i</em>", "<u>u</u>", "<s>s</s>", `<img src="/media/`, `href="https://example.org"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("lost %s in %q", want, got)
		}
	}
}

func TestContentSizeLimit(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, _ := newPage(t, tn, "Big")
	para := "<p>" + strings.Repeat("word ", 199) + "</p>" // 1,002 bytes
	cases := []struct {
		name    string
		content string
		status  int
	}{
		{"just under 256 KB", strings.Repeat(para, 261), http.StatusOK},
		{"over 256 KB once cleaned", strings.Repeat(para, 262), http.StatusRequestEntityTooLarge},
		// 400 KB sent, but the sanitiser strips the script bodies, leaving little.
		{"large before cleaning, small after", strings.Repeat("<script>"+strings.Repeat("x", 1000)+"</script>", 400) + para, http.StatusOK},
		{"over the request limit", strings.Repeat(para, 1100), http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		res := as(t, tn, "PATCH", "/pages/"+id, map[string]any{"content": c.content})
		if res.Status != c.status {
			t.Fatalf("%s: %d %.200s", c.name, res.Status, res.Raw)
		}
		if c.status == 413 && c.name == "over 256 KB once cleaned" && !strings.Contains(res.Message(), "256 KB") {
			t.Fatalf("message %q", res.Message())
		}
	}
	// Lists leave the content out.
	res := as(t, tn, "GET", "/pages?limit=100", nil)
	if _, has := res.Get("result.0").(map[string]any)["content"]; has || res.Get("result.0.slug") != "big" || res.Get("result.0.isPublished") != true {
		t.Fatalf("list item %v", res.Get("result.0"))
	}
}
