package wpimport

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestAutop checks the paragraph rule against what WordPress's wpautop does with the same text
// (its behaviour as its own tests, tests/phpunit/tests/formatting/autop.php, pin it down).
func TestAutop(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"nothing", "", ""},
		{"only spaces", " \n\t\n ", ""},
		{"one line", "Hello", "<p>Hello</p>"},
		{"blank line separates paragraphs", "a\n\nb", "<p>a</p>\n<p>b</p>"},
		{"single line break", "a\nb", "<p>a<br />\nb</p>"},
		{"several blank lines are one break", "a\n\n\n\nb", "<p>a</p>\n<p>b</p>"},
		{"blank line with spaces in it", "a\n  \t\nb", "<p>a</p>\n<p>b</p>"},
		{"windows line ends", "a\r\n\r\nb\r\nc", "<p>a</p>\n<p>b<br />\nc</p>"},
		{"spaces before a line break go", "a   \nb", "<p>a<br />\nb</p>"},
		{"two brs are a paragraph break", "a<br /><br />b", "<p>a</p>\n<p>b</p>"},
		{"a br is kept and normalised", "a<br>b<br/>c", "<p>a<br />b<br />c</p>"},
		{"no second br after a br", "a<br />\nb", "<p>a<br />\nb</p>"},
		{"a newline inside a tag is not a break", "<a\nhref=\"/x\">link</a>\ntext", "<p><a\nhref=\"/x\">link</a><br />\ntext</p>"},
		{"a list between paragraphs", "Intro\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\nOutro",
			"<p>Intro</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<p>Outro</p>"},
		{"a heading ends the paragraph", "Text\n<h2>Title</h2>\nMore", "<p>Text</p>\n<h2>Title</h2>\n<p>More</p>"},
		{"a blockquote's content gets the paragraph", "<blockquote>foo</blockquote>", "<blockquote><p>foo</p></blockquote>"},
		{"a blockquote's paragraphs", "<blockquote>a\n\nb</blockquote>", "<blockquote><p>a</p>\n<p>b</p></blockquote>"},
		{"a div's text", "<div>a</div>", "<div>a</div>"},
		{"an hr between paragraphs", "a\n<hr />\nb", "<p>a</p>\n<hr />\n<p>b</p>"},
		{"a pre's content is left alone", "Look at this code\n\n<pre>line 1\n\nline 2\n<br>line 3</pre>\n\nCool, huh?",
			"<p>Look at this code</p>\n<pre>line 1\n\nline 2\n<br>line 3</pre>\n<p>Cool, huh?</p>"},
		{"two pres", "<pre>a\n\nb</pre>\nmiddle\n<pre>c\nd</pre>", "<pre>a\n\nb</pre>\n<p>middle</p>\n<pre>c\nd</pre>"},
		{"a script's newlines are kept", "<script>var a;\nvar b;</script>", "<p><script>var a;\nvar b;</script></p>"},
		{"a figure with its caption", "<figure><img src=\"a.jpg\">\n<figcaption>Cap</figcaption></figure>",
			"<figure><img src=\"a.jpg\"><figcaption>Cap</figcaption></figure>"},
		{"select options are not broken", "Country: <select name=\"c\">\n<option value=\"1\">A</option>\n<option value=\"2\">B</option>\n</select>",
			"<p>Country: <select name=\"c\"><option value=\"1\">A</option><option value=\"2\">B</option></select></p>"},
		{"a shortcode on its line is wrapped like text", "[caption id=\"a\"]<img src=\"x.jpg\" /> Cap[/caption]\n\nNext",
			"<p>[caption id=\"a\"]<img src=\"x.jpg\" /> Cap[/caption]</p>\n<p>Next</p>"},
		{"a comment with newlines stays one", "a <!-- note\nmore --> b", "<p>a <!-- note\nmore --> b</p>"},
		{"upper-case block tags", "Text\n<P>Para</P>\n<UL><LI>x</LI></UL>", "<p>Text</p>\n<P>Para</P>\n<UL>\n<LI>x</LI>\n</UL>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := autop(tc.in); got != tc.want {
				t.Errorf("autop(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestAutopBlocks: each block-level element stays unwrapped, each inline one is wrapped (hr, a
// void element, has its own case above).
func TestAutopBlocks(t *testing.T) {
	blocks := []string{"table", "thead", "tfoot", "caption", "col", "colgroup", "tbody", "tr", "td", "th", "div", "dl",
		"dd", "dt", "ul", "ol", "li", "pre", "form", "map", "area", "address", "style", "p", "h1", "h2", "h3", "h4",
		"h5", "h6", "fieldset", "legend", "section", "article", "aside", "hgroup", "header", "footer", "nav",
		"figure", "details", "menu", "summary"}
	var in, want []string
	for _, b := range blocks {
		in = append(in, "<"+b+">foo</"+b+">")
	}
	if got := autop(strings.Join(in, "\n\n")); got != strings.Join(in, "\n") {
		t.Errorf("blocks:\n got %q\nwant %q", got, strings.Join(in, "\n"))
	}
	inlines := []string{"a", "em", "strong", "small", "s", "cite", "q", "dfn", "abbr", "data", "time", "code", "var",
		"samp", "kbd", "sub", "sup", "i", "b", "u", "mark", "span", "del", "ins", "noscript", "select"}
	in = nil
	for _, e := range inlines {
		in = append(in, "<"+e+">foo</"+e+">")
		want = append(want, "<p><"+e+">foo</"+e+"></p>")
	}
	if got := autop(strings.Join(in, "\n\n")); got != strings.Join(want, "\n") {
		t.Errorf("inlines:\n got %q\nwant %q", got, strings.Join(want, "\n"))
	}
}

func TestLineBreaks(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a\nb", "a<br />\nb"},
		{"a  \n  b", "a<br />\n  b"},
		{"a \n \nb", "a<br />\nb"},
		{"a<br />\nb", "a<br />\nb"},
		{"a<br /> \nb", "a<br /> <br />\nb"}, // as WordPress's look-behind reads it
		{"a<br />  b", "a<br />  b"},
		{"\n", "<br />\n"},
		{"", ""},
	}
	for _, tc := range cases {
		if got := lineBreaks(tc.in); got != tc.want {
			t.Errorf("lineBreaks(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The regular expressions of autopRegexp, WordPress's own.
const refAllBlocks = `(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)`

var (
	refBrBr            = regexp.MustCompile(`(?i)<br\s*/?>\s*<br\s*/?>`)
	refBlockOpen       = regexp.MustCompile(`(?i)(<` + refAllBlocks + `[\s/>])`)
	refBlockClose      = regexp.MustCompile(`(?i)(</` + refAllBlocks + `>)`)
	refHr              = regexp.MustCompile(`(?i)(<hr\s*?/?>)`)
	refOptionBefore    = regexp.MustCompile(`(?i)\s*<option`)
	refOptionAfter     = regexp.MustCompile(`(?i)</option>\s*`)
	refObjectOpen      = regexp.MustCompile(`(?i)(<object[^>]*>)\s*`)
	refObjectClose     = regexp.MustCompile(`(?i)\s*</object>`)
	refParamEmbed      = regexp.MustCompile(`(?i)\s*(</?(?:param|embed)[^>]*>)\s*`)
	refMediaOpen       = regexp.MustCompile(`(?i)([<\[](?:audio|video)[^>\]]*[>\]])\s*`)
	refMediaClose      = regexp.MustCompile(`(?i)\s*([<\[]/(?:audio|video)[>\]])`)
	refSourceTrack     = regexp.MustCompile(`(?i)\s*(<(?:source|track)[^>]*>)\s*`)
	refFigcaptionOpen  = regexp.MustCompile(`(?i)\s*(<figcaption[^>]*>)`)
	refFigcaptionClose = regexp.MustCompile(`(?i)</figcaption>\s*`)
	refManyBreaks      = regexp.MustCompile(`\n\n+`)
	refParagraphs      = regexp.MustCompile(`\n\s*\n`)
	refEmptyP          = regexp.MustCompile(`<p>\s*</p>`)
	refUnclosedP       = regexp.MustCompile(`(?i)<p>([^<]+)</(div|address|form)>`)
	refWrappedBlock    = regexp.MustCompile(`(?i)<p>\s*(</?` + refAllBlocks + `[^>]*>)\s*</p>`)
	refWrappedLi       = regexp.MustCompile(`(?i)<p>(<li.+?)</p>`)
	refWrappedQuote    = regexp.MustCompile(`(?i)<p><blockquote([^>]*)>`)
	refPBeforeBlock    = regexp.MustCompile(`(?i)<p>\s*(</?` + refAllBlocks + `[^>]*>)`)
	refPAfterBlock     = regexp.MustCompile(`(?i)(</?` + refAllBlocks + `[^>]*>)\s*</p>`)
	refRawText         = regexp.MustCompile(`(?is)<script.*?</script>|<style.*?</style>|<svg.*?</svg>|<math.*?</math>`)
	refBrAfterBlock    = regexp.MustCompile(`(?i)(</?` + refAllBlocks + `[^>]*>)\s*<br />`)
	refBrBeforeBlock   = regexp.MustCompile(`(?i)<br />(\s*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`)
)

// autopRegexp is autop as a direct port of WordPress's regular expressions (the first version of
// autop, whose block-tag patterns were too slow on a megabyte of short paragraphs): the oracle
// TestAutopMatchesRegexp checks the written-out steps against.
func autopRegexp(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	text += "\n" // pad the end, as WordPress does, so that the last paragraph ends like the others
	text, pres := takePres(text)

	// Two <br>s in a row are a paragraph break; block tags start and end paragraphs.
	text = refBrBr.ReplaceAllString(text, "\n\n")
	text = refBlockOpen.ReplaceAllString(text, "\n\n$1")
	text = refBlockClose.ReplaceAllString(text, "$1\n\n")
	text = refHr.ReplaceAllString(text, "$1\n\n")
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text)

	// A newline inside a tag (between its attributes) is not a line break of the text.
	text = replaceInTags(text, "\n", tagNewline)

	// No paragraphs or breaks between the parts of a select, an object, a media element, a figure.
	if strings.Contains(text, "<option") {
		text = refOptionBefore.ReplaceAllString(text, "<option")
		text = refOptionAfter.ReplaceAllString(text, "</option>")
	}
	if strings.Contains(text, "</object>") {
		text = refObjectOpen.ReplaceAllString(text, "$1")
		text = refObjectClose.ReplaceAllString(text, "</object>")
		text = refParamEmbed.ReplaceAllString(text, "$1")
	}
	if strings.Contains(text, "<source") || strings.Contains(text, "<track") {
		text = refMediaOpen.ReplaceAllString(text, "$1")
		text = refMediaClose.ReplaceAllString(text, "$1")
		text = refSourceTrack.ReplaceAllString(text, "$1")
	}
	if strings.Contains(text, "<figcaption") {
		text = refFigcaptionOpen.ReplaceAllString(text, "$1")
		text = refFigcaptionClose.ReplaceAllString(text, "</figcaption>")
	}

	// Every run of text between blank lines is a paragraph.
	text = refManyBreaks.ReplaceAllString(text, "\n\n")
	var b strings.Builder
	for _, p := range refParagraphs.Split(text, -1) {
		if p != "" {
			b.WriteString("<p>" + strings.Trim(p, "\n") + "</p>\n")
		}
	}
	text = b.String()

	// Undo the paragraphs that wrap a block tag rather than text.
	text = refEmptyP.ReplaceAllString(text, "")
	text = refUnclosedP.ReplaceAllString(text, "<p>$1</p></$2>")
	text = refWrappedBlock.ReplaceAllString(text, "$1")
	text = refWrappedLi.ReplaceAllString(text, "$1")
	text = refWrappedQuote.ReplaceAllString(text, "<blockquote$1><p>")
	text = strings.ReplaceAll(text, "</blockquote></p>", "</p></blockquote>")
	text = refPBeforeBlock.ReplaceAllString(text, "$1")
	text = refPAfterBlock.ReplaceAllString(text, "$1")

	// A remaining single newline is a line break, except in script, style, svg and math.
	text = refRawText.ReplaceAllStringFunc(text, func(m string) string {
		return strings.ReplaceAll(m, "\n", keptNewline)
	})
	text = strings.NewReplacer("<br>", "<br />", "<br/>", "<br />").Replace(text)
	text = lineBreaks(text)
	text = strings.ReplaceAll(text, keptNewline, "\n")

	// No break right after a block tag, or right before the end or start of one.
	text = refBrAfterBlock.ReplaceAllString(text, "$1")
	text = refBrBeforeBlock.ReplaceAllString(text, "$1")

	text = strings.TrimRight(text, "\n")
	text = putPres(text, pres)
	return strings.NewReplacer(tagNewline, "\n", strings.TrimSpace(tagNewline), "\n").Replace(text)
}

// TestAutopMatchesRegexp compares autop with autopRegexp on random texts built of the pieces
// wpautop cares about (lower-case tags: the port's patterns on "<p>" are case-sensitive).
func TestAutopMatchesRegexp(t *testing.T) {
	pieces := []string{"a", "b c", "Word.", "\n", "\n\n", "\n \n", " ", "\t", "\r\n", "<p>", "</p>", "<p class=\"x\">", "<div>", "</div>",
		"<div class=\"x\">", "<ul>", "</ul>", "<li>", "</li>", "<li", "<br>", "<br />", "<br/>", "<hr />", "<hr>", "<pre>", "</pre>",
		"<blockquote>", "</blockquote>", "<blockquote cite=\"x\">", "<script>", "</script>", "<style>", "</style>", "<span>", "</span>",
		"<figure>", "</figure>", "<figcaption>", "</figcaption>", "<select>", "<option>", "</option>", "<!-- c -->", "<!--\n-->",
		"<a\nhref=\"x\">", "</a>", "<", ">", "<p", "<table>", "</table>", "<tr>", "<td>", "</td>", "<param>", "<address>",
		"</address>", "<form>", "</form>", "<h2>", "</h2>", "<section>", "</section>", "<img src=\"x\" />", "[caption]", "[/caption]",
		"<object>", "</object>", "<embed src=\"x\">", "<video>", "</video>", "<source src=\"x\">", "<math>", "</math>", "<svg>", "</svg>"}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := rng.IntN(40); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		in := b.String()
		if got, want := autop(in), autopRegexp(in); got != want {
			t.Fatalf("autop(%q)\n  = %q\nthe regular expressions give\n    %q", in, got, want)
		}
	}
}
