package wpimport

import (
	"strconv"
	"strings"
	"sync"

	"github.com/campuscms/panel/shared/lazyre"
)

// blockNames are the elements WordPress's wpautop treats as blocks (its $allblocks): never
// wrapped in a paragraph, and a paragraph boundary before and after. brBlockNames are those
// before whose tags a <br /> goes.
var (
	blockNames = []string{"table", "thead", "tfoot", "caption", "col", "colgroup", "tbody", "tr", "td", "th", "div",
		"dl", "dd", "dt", "ul", "ol", "li", "pre", "form", "map", "area", "blockquote", "address", "style", "p",
		"h1", "h2", "h3", "h4", "h5", "h6", "hr", "fieldset", "legend", "section", "article", "aside", "hgroup",
		"header", "footer", "nav", "figure", "figcaption", "details", "menu", "summary"}
	brBlockNames = []string{"p", "li", "div", "dl", "dd", "dt", "th", "pre", "td", "ul", "ol"}
	rawTextNames = []string{"script", "style", "svg", "math"}
)

// The patterns autop still runs as regular expressions: each has a literal to find first, or runs
// only when the text has the element it is about, so none tries its alternatives at every tag.
// The steps about block tags are written out (blockBreaks, unwrapBlocks…): as regular
// expressions, Go's NFA tried the forty alternatives of allblocks at every "<", seconds for a
// megabyte of short paragraphs.
var (
	reBrBr            = lazyre.New(`<br\s*/?>\s*<br\s*/?>`)
	reOptionBefore    = lazyre.New(`\s*<option`)
	reOptionAfter     = lazyre.New(`</option>\s*`)
	reObjectOpen      = lazyre.New(`(<object[^>]*>)\s*`)
	reObjectClose     = lazyre.New(`\s*</object>`)
	reParamEmbed      = lazyre.New(`\s*(</?(?:param|embed)[^>]*>)\s*`)
	reMediaOpen       = lazyre.New(`([<\[](?:audio|video)[^>\]]*[>\]])\s*`)
	reMediaClose      = lazyre.New(`\s*([<\[]/(?:audio|video)[>\]])`)
	reSourceTrack     = lazyre.New(`\s*(<(?:source|track)[^>]*>)\s*`)
	reFigcaptionOpen  = lazyre.New(`\s*(<figcaption[^>]*>)`)
	reFigcaptionClose = lazyre.New(`</figcaption>\s*`)
	reManyBreaks      = lazyre.New(`\n\n+`)
)

// Placeholders autop puts in the text while it works: newlines inside tags, and in script,
// style, svg and math elements.
const (
	tagNewline  = " <!-- wpnl --> "
	keptNewline = "<WPPreserveNewline />"
)

// autop is WordPress's wpautop (wp-includes/formatting.php), the paragraph rule of the classic
// editor: a blank line separates paragraphs, a single line break is a <br />, block-level
// elements (blockNames) are never wrapped in a paragraph, and a <pre>'s content is left alone.
// The steps are WordPress's, in its order, each in time linear in the text; the output differs
// only in not ending with a newline, and in block tags being found in any letter case.
func autop(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	text += "\n" // pad the end, as WordPress does, so that the last paragraph ends like the others
	text, pres := takePres(text)

	// Two <br>s in a row are a paragraph break; block tags start and end paragraphs.
	if strings.Contains(text, "<br") {
		text = reBrBr().ReplaceAllString(text, "\n\n")
	}
	text = blockBreaks(text)
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text)

	// A newline inside a tag (between its attributes) is not a line break of the text.
	text = replaceInTags(text, "\n", tagNewline)

	// No paragraphs or breaks between the parts of a select, an object, a media element, a figure.
	if strings.Contains(text, "<option") {
		text = reOptionBefore().ReplaceAllString(text, "<option")
		text = reOptionAfter().ReplaceAllString(text, "</option>")
	}
	if strings.Contains(text, "</object>") {
		text = reObjectOpen().ReplaceAllString(text, "$1")
		text = reObjectClose().ReplaceAllString(text, "</object>")
		text = reParamEmbed().ReplaceAllString(text, "$1")
	}
	if strings.Contains(text, "<source") || strings.Contains(text, "<track") {
		text = reMediaOpen().ReplaceAllString(text, "$1")
		text = reMediaClose().ReplaceAllString(text, "$1")
		text = reSourceTrack().ReplaceAllString(text, "$1")
	}
	if strings.Contains(text, "<figcaption") {
		text = reFigcaptionOpen().ReplaceAllString(text, "$1")
		text = reFigcaptionClose().ReplaceAllString(text, "</figcaption>")
	}

	// Every run of text between blank lines is a paragraph.
	text = reManyBreaks().ReplaceAllString(text, "\n\n")
	var b strings.Builder
	b.Grow(len(text) + len(text)/4)
	for _, p := range splitParagraphs(text) {
		if p != "" {
			b.WriteString("<p>" + strings.Trim(p, "\n") + "</p>\n")
		}
	}
	text = b.String()

	// Undo the paragraphs that wrap a block tag rather than text.
	text = unwrapBlocks(text)

	// A remaining single newline is a line break, except in script, style, svg and math.
	text = keepRawNewlines(text)
	text = strings.NewReplacer("<br>", "<br />", "<br/>", "<br />").Replace(text)
	text = lineBreaks(text)
	text = strings.ReplaceAll(text, keptNewline, "\n")

	// No break right after a block tag, or right before the end or start of one.
	text = dropBreaksAroundBlocks(text)

	text = strings.TrimRight(text, "\n")
	text = putPres(text, pres)
	return strings.NewReplacer(tagNewline, "\n", strings.TrimSpace(tagNewline), "\n").Replace(text)
}

// --- the steps about block tags, written out ---

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case (prefix is lower-case).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// nameSet is a list of lower-case element names, by first letter for nameAt.
type nameSet [26][]string

func newNameSet(names []string) *nameSet {
	var s nameSet
	for _, n := range names {
		s[n[0]-'a'] = append(s[n[0]-'a'], n)
	}
	return &s
}

var (
	blockSet   = sync.OnceValue(func() *nameSet { return newNameSet(blockNames) })
	brBlockSet = sync.OnceValue(func() *nameSet { return newNameSet(brBlockNames) })
)

// nameAt returns the length of the longest of the names that s starts with (ignoring case) and
// is followed by a byte that end accepts (any byte when end is nil; the end of s counts as no
// byte), or 0.
func (set *nameSet) nameAt(s string, end func(byte) bool) int {
	if s == "" {
		return 0
	}
	c := s[0] | 0x20 // ASCII lower case; other bytes land outside a..z
	if c < 'a' || c > 'z' {
		return 0
	}
	best := 0
	for _, n := range set[c-'a'] {
		if len(n) > best && hasPrefixFold(s, n) && (end == nil || (len(s) > len(n) && end(s[len(n)]))) {
			best = len(n)
		}
	}
	return best
}

// finder finds the next occurrence of sub in text at or after a position, remembering its last
// answer: a scan from left to right that asks again and again (for the ">" ending each candidate
// tag in a run of "<"s without one) reads the text once.
type finder struct {
	text, sub string
	from, at  int // the last query's position and answer (-1: none from there on)
	asked     bool
}

func (f *finder) next(i int) int {
	if f.asked && i >= f.from && (f.at < 0 || i <= f.at) {
		return f.at
	}
	f.asked, f.from, f.at = true, i, -1
	if k := strings.Index(f.text[i:], f.sub); k >= 0 {
		f.at = i + k
	}
	return f.at
}

// tagEnd returns where the block tag at text[i] == '<' ends (after its ">"): a tag matching
// WordPress's </?(allblocks)[^>]*> (a name that starts with a block's name: <pre…>, <param>
// too, as in WordPress), or -1.
func tagEnd(text string, i int, names *nameSet, gt *finder) int {
	j := i + 1
	if j < len(text) && text[j] == '/' {
		j++
	}
	if names.nameAt(text[j:], nil) == 0 {
		return -1
	}
	if k := gt.next(j); k >= 0 {
		return k + 1
	}
	return -1
}

func skipSpace(text string, i int) int {
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	return i
}

func isTagNameEnd(c byte) bool { return isSpace(c) || c == '/' || c == '>' }

// blockBreaks puts a blank line before every block's opening tag (<div, <p …) and after every
// block's closing tag (</div>) and every <hr>: WordPress's
// preg_replace('!(<allblocks[\s/>])!', "\n\n$1"), preg_replace('!(</allblocks>)!', "$1\n\n") and
// preg_replace('!(<hr\s*?/?>)!', "$1\n\n").
func blockBreaks(text string) string {
	var b strings.Builder
	b.Grow(len(text) + len(text)/8)
	last := 0
	for i := strings.IndexByte(text, '<'); i >= 0; {
		rest := text[i+1:]
		next := i + 1
		switch {
		case strings.HasPrefix(rest, "/"):
			if n := blockSet().nameAt(rest[1:], func(c byte) bool { return c == '>' }); n > 0 {
				next = i + 1 + 1 + n + 1
				b.WriteString(text[last:next])
				b.WriteString("\n\n")
				last = next
			}
		case blockSet().nameAt(rest, isTagNameEnd) > 0:
			b.WriteString(text[last:i])
			b.WriteString("\n\n")
			last = i
			if n := hrLen(text[i:]); n > 0 {
				next = i + n
				b.WriteString(text[last:next])
				b.WriteString("\n\n")
				last = next
			}
		}
		k := strings.IndexByte(text[next:], '<')
		if k < 0 {
			break
		}
		i = next + k
	}
	b.WriteString(text[last:])
	return b.String()
}

// hrLen is the length of the <hr>, <hr/> or <hr /> s starts with, or 0.
func hrLen(s string) int {
	if !hasPrefixFold(s, "<hr") {
		return 0
	}
	j := skipSpace(s, 3)
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1
	}
	return 0
}

// splitParagraphs splits text at its blank lines: WordPress's preg_split('/\n\s*\n/', …), where
// the separator runs from a newline through the last newline of the whitespace after it.
func splitParagraphs(text string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '\n' {
			continue
		}
		end, last := i+1, -1
		for end < len(text) && isSpace(text[end]) {
			if text[end] == '\n' {
				last = end
			}
			end++
		}
		if last < 0 {
			i = end - 1
			continue
		}
		parts = append(parts, text[start:i])
		start = last + 1
		i = last
	}
	return append(parts, text[start:])
}

// replacer rewrites a text from left to right: each step copies the text up to a match, writes
// the match's replacement and goes on after it, as a regular expression's ReplaceAll does.
type replacer struct {
	text string
	b    strings.Builder
	last int // text[:last] is written or replaced
}

func newReplacer(text string) *replacer {
	r := &replacer{text: text}
	r.b.Grow(len(text))
	return r
}

// replace replaces text[from:to] by with.
func (r *replacer) replace(from, to int, with string) {
	r.b.WriteString(r.text[r.last:from])
	r.b.WriteString(with)
	r.last = to
}

func (r *replacer) String() string {
	if r.last == 0 {
		return r.text
	}
	r.b.WriteString(r.text[r.last:])
	return r.b.String()
}

// eachAt calls match for every occurrence of sub in text, left to right; match returns where to
// look for the next one (after its replacement, or just after the occurrence).
func eachAt(text, sub string, match func(i int) (next int)) {
	for i := 0; i <= len(text); {
		k := strings.Index(text[i:], sub)
		if k < 0 {
			return
		}
		i = match(i + k)
	}
}

// unwrapBlocks undoes the paragraphs around block tags, as WordPress's wpautop does after making
// paragraphs, one pass per pattern in its order:
//
//	<p>\s*</p>                              → (nothing)
//	<p>([^<]+)</(div|address|form)>         → <p>$1</p></$2>
//	<p>\s*(</?allblocks[^>]*>)\s*</p>       → $1
//	<p>(<li.+?)</p>                         → $1
//	<p><blockquote([^>]*)>                  → <blockquote$1><p>, and </blockquote></p> → </p></blockquote>
//	<p>\s*(</?allblocks[^>]*>)              → $1
//	(</?allblocks[^>]*>)\s*</p>             → $1
func unwrapBlocks(text string) string {
	// <p>\s*</p>
	r := newReplacer(text)
	eachAt(text, "<p>", func(i int) int {
		j := skipSpace(text, i+3)
		if strings.HasPrefix(text[j:], "</p>") {
			r.replace(i, j+4, "")
			return j + 4
		}
		return i + 1
	})
	text = r.String()

	// <p>([^<]+)</(div|address|form)>
	r = newReplacer(text)
	eachAt(text, "<p>", func(i int) int {
		k := strings.IndexByte(text[i+3:], '<')
		if k <= 0 {
			return i + 1
		}
		k += i + 3
		for _, end := range []string{"</div>", "</address>", "</form>"} {
			if hasPrefixFold(text[k:], end) {
				r.replace(i, k+len(end), text[i:k]+"</p>"+text[k:k+len(end)])
				return k + len(end)
			}
		}
		return i + 1
	})
	text = r.String()

	// <p>\s*(</?allblocks[^>]*>)\s*</p>
	r = newReplacer(text)
	gt := &finder{text: text, sub: ">"}
	eachAt(text, "<p>", func(i int) int {
		j := skipSpace(text, i+3)
		if j < len(text) && text[j] == '<' {
			if e := tagEnd(text, j, blockSet(), gt); e > 0 {
				k := skipSpace(text, e)
				if strings.HasPrefix(text[k:], "</p>") {
					r.replace(i, k+4, text[j:e])
					return k + 4
				}
			}
		}
		return i + 1
	})
	text = r.String()

	// <p>(<li.+?)</p>, where . is anything but a newline
	r = newReplacer(text)
	nl := &finder{text: text, sub: "\n"}
	endP := &finder{text: text, sub: "</p>"}
	eachAt(text, "<p>", func(i int) int {
		if !hasPrefixFold(text[i+3:], "<li") {
			return i + 1
		}
		k := endP.next(i + 7)
		if n := nl.next(i + 3); k < 0 || (n >= 0 && n < k) {
			return i + 1
		}
		r.replace(i, k+4, text[i+3:k])
		return k + 4
	})
	text = r.String()

	// <p><blockquote([^>]*)>
	r = newReplacer(text)
	gt = &finder{text: text, sub: ">"}
	eachAt(text, "<p><", func(i int) int {
		if !hasPrefixFold(text[i+4:], "blockquote") {
			return i + 1
		}
		k := gt.next(i + 14)
		if k < 0 {
			return i + 1
		}
		r.replace(i, k+1, "<blockquote"+text[i+14:k]+"><p>")
		return k + 1
	})
	text = strings.ReplaceAll(r.String(), "</blockquote></p>", "</p></blockquote>")

	// <p>\s*(</?allblocks[^>]*>)
	r = newReplacer(text)
	gt = &finder{text: text, sub: ">"}
	eachAt(text, "<p>", func(i int) int {
		j := skipSpace(text, i+3)
		if j < len(text) && text[j] == '<' {
			if e := tagEnd(text, j, blockSet(), gt); e > 0 {
				r.replace(i, e, text[j:e])
				return e
			}
		}
		return i + 1
	})
	text = r.String()

	// (</?allblocks[^>]*>)\s*</p>
	return dropAfterBlocks(text, "</p>")
}

// dropAfterBlocks removes suffix (and the spaces before it) after every block tag:
// preg_replace('!(</?allblocks[^>]*>)\s*SUFFIX!', '$1').
func dropAfterBlocks(text, suffix string) string {
	r := newReplacer(text)
	gt := &finder{text: text, sub: ">"}
	eachAt(text, "<", func(i int) int {
		if e := tagEnd(text, i, blockSet(), gt); e > 0 {
			k := skipSpace(text, e)
			if strings.HasPrefix(text[k:], suffix) {
				r.replace(i, k+len(suffix), text[i:e])
				return k + len(suffix)
			}
		}
		return i + 1
	})
	return r.String()
}

// dropBreaksAroundBlocks removes a <br /> right after a block tag, then one right before the
// tags of p, li, div, dl, dd, dt, th, pre, td, ul and ol:
// preg_replace('!(</?allblocks[^>]*>)\s*<br />!', '$1') and
// preg_replace('!<br />(\s*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)!', '$1').
func dropBreaksAroundBlocks(text string) string {
	text = dropAfterBlocks(text, "<br />")
	r := newReplacer(text)
	gt := &finder{text: text, sub: ">"}
	eachAt(text, "<br />", func(i int) int {
		j := skipSpace(text, i+6)
		if j < len(text) && text[j] == '<' {
			if e := tagEnd(text, j, brBlockSet(), gt); e > 0 {
				r.replace(i, e, text[i+6:e])
				return e
			}
		}
		return i + 1
	})
	return r.String()
}

// asciiLower is s with its ASCII letters in lower case, every byte where it was.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// keepRawNewlines replaces the newlines inside script, style, svg and math elements by a
// placeholder, so that they get no <br />: preg_replace_callback('/<(script|style|svg|math).*?<\/\1>/s', …).
func keepRawNewlines(text string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	lower := asciiLower(text)
	closers := map[string]*finder{}
	for _, n := range rawTextNames {
		closers[n] = &finder{text: lower, sub: "</" + n + ">"}
	}
	r := newReplacer(text)
	eachAt(lower, "<", func(i int) int {
		for _, n := range rawTextNames {
			if !strings.HasPrefix(lower[i+1:], n) {
				continue
			}
			k := closers[n].next(i + 1 + len(n))
			if k < 0 {
				continue
			}
			end := k + len(n) + 3
			r.replace(i, end, strings.ReplaceAll(text[i:end], "\n", keptNewline))
			return end
		}
		return i + 1
	})
	return r.String()
}

// takePres replaces every <pre>…</pre> in text by a placeholder, returning the text and the
// placeholders' contents, so that nothing autop does touches them. As in WordPress, a </pre>
// without its <pre> is left in place.
func takePres(text string) (string, []string) {
	if !strings.Contains(text, "<pre") {
		return text, nil
	}
	parts := strings.Split(text, "</pre>")
	var b strings.Builder
	var pres []string
	for i, part := range parts {
		if i == len(parts)-1 {
			b.WriteString(part)
			break
		}
		start := strings.Index(part, "<pre")
		if start < 0 {
			b.WriteString(part) // a </pre> without its <pre>: WordPress drops it too
			continue
		}
		b.WriteString(part[:start] + prePlaceholder(len(pres)))
		pres = append(pres, part[start:]+"</pre>")
	}
	return b.String(), pres
}

func prePlaceholder(i int) string { return "<pre wp-pre-tag-" + strconv.Itoa(i) + "></pre>" }

func putPres(text string, pres []string) string {
	if len(pres) == 0 {
		return text
	}
	pairs := make([]string, 0, 2*len(pres))
	for i, p := range pres {
		pairs = append(pairs, prePlaceholder(i), p)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// replaceInTags replaces old by new inside every tag and comment of text (WordPress's
// wp_replace_in_html_tags); an unterminated tag runs to the end of the text.
func replaceInTags(text, old, new string) string {
	if !strings.Contains(text, old) {
		return text
	}
	var b strings.Builder
	for {
		start := strings.IndexByte(text, '<')
		if start < 0 {
			b.WriteString(text)
			return b.String()
		}
		end := len(text)
		closing := ">"
		if strings.HasPrefix(text[start:], "<!--") {
			closing = "-->"
		}
		if i := strings.Index(text[start+1:], closing); i >= 0 {
			end = start + 1 + i + len(closing)
		}
		b.WriteString(text[:start])
		b.WriteString(strings.ReplaceAll(text[start:end], old, new))
		text = text[end:]
	}
}

// lineBreaks puts a <br /> before every newline that does not already follow one, swallowing the
// whitespace before the newline: WordPress's preg_replace('|(?<!<br />)\s*\n|', "<br />\n"),
// written out because RE2 has no look-behind. Like that pattern, for a run of whitespace ending
// in newlines it replaces from the run's start (or, after a <br />, from the run's second
// character) through its last newline.
func lineBreaks(text string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + len(text)/8)
	i := 0
	for i < len(text) {
		if !isSpace(text[i]) {
			j := i
			for j < len(text) && !isSpace(text[j]) {
				j++
			}
			b.WriteString(text[i:j])
			i = j
			continue
		}
		end, last := i, -1 // the whitespace run text[i:end], its last newline
		for end < len(text) && isSpace(text[end]) {
			if text[end] == '\n' {
				last = end
			}
			end++
		}
		from := i
		if strings.HasSuffix(text[:i], "<br />") {
			from = i + 1
		}
		if last < from {
			b.WriteString(text[i:end])
		} else {
			b.WriteString(text[i:from])
			b.WriteString("<br />\n")
			b.WriteString(text[last+1 : end])
		}
		i = end
	}
	return b.String()
}

// isSpace is RE2's \s (space, tab, newline, form feed, carriage return), as the patterns use.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
