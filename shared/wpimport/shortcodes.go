package wpimport

import (
	"html"
	"path"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/lazyre"
)

// scTag is a shortcode tag found in the text: an opening tag ([name attrs] or [name attrs /]) or
// a closing tag ([/name]).
type scTag struct {
	start, end  int // text[start:end] is the tag, brackets included
	name        string
	attrs       string // what follows the name up to the closing bracket (or the self-closing slash)
	closing     bool
	selfClosing bool
}

// maxShortcodeDepth bounds how deeply shortcodes nest inside each other's content; deeper tags
// are treated as having no content (a hostile post cannot make the conversion recurse without end).
const maxShortcodeDepth = 50

// scanShortcodes finds the shortcode tags of text, left to right, not overlapping, in time linear
// in the text. A tag is WordPress's: "[" then a name (a letter, then letters, digits, "_" or "-")
// ended by anything but a name character, then attributes up to the first "]"; a closing tag is
// exactly "[/name]". WordPress only knows the shortcodes its plugins registered; an export does
// not say which those were, so every name is taken for one, with two guards for prose: a name
// starts with a letter (a citation like [1] is no tag), and attributes hold no "[" ("a[b and
// [c]" is text, then the tag [c]). The second also keeps the scan linear: a refused "[" is
// scanned only up to the next one.
func scanShortcodes(text string) []scTag {
	var tags []scTag
	nextBracket := -1 // memo: the index of the first "]" at or after the last search, len(text) when none
	findBracket := func(from int) int {
		if nextBracket < from {
			if i := strings.IndexByte(text[from:], ']'); i >= 0 {
				nextBracket = from + i
			} else {
				nextBracket = len(text)
			}
		}
		return nextBracket
	}
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '[')
		if j < 0 {
			break
		}
		i += j
		t, ok := tagAt(text, i, findBracket)
		if !ok {
			i++
			continue
		}
		tags = append(tags, t)
		i = t.end
	}
	return tags
}

// tagAt reads the shortcode tag starting at text[i] == '[', if there is one.
func tagAt(text string, i int, findBracket func(int) int) (scTag, bool) {
	p := i + 1
	closing := p < len(text) && text[p] == '/'
	if closing {
		p++
	}
	nameStart := p
	if p >= len(text) || !isLetter(text[p]) {
		return scTag{}, false
	}
	for p < len(text) && isNameChar(text[p]) {
		p++
	}
	name := text[nameStart:p]
	if closing {
		if p < len(text) && text[p] == ']' {
			return scTag{start: i, end: p + 1, name: name, closing: true}, true
		}
		return scTag{}, false
	}
	end := findBracket(p)
	if end >= len(text) || strings.IndexByte(text[p:end], '[') >= 0 {
		// No closing bracket, or another tag's opening one first: prose, not a shortcode.
		return scTag{}, false
	}
	attrs := text[p:end]
	t := scTag{start: i, end: end + 1, name: name, attrs: attrs}
	if strings.HasSuffix(attrs, "/") {
		t.attrs, t.selfClosing = attrs[:len(attrs)-1], true
	}
	return t, true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameChar(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' }

// reAttr is WordPress's shortcode attribute syntax (shortcode_parse_atts): name="value",
// name='value', name=value, "positional", 'positional', positional.
var reAttr = lazyre.New(`([\w-]+)\s*=\s*"([^"]*)"(?:\s|$)|([\w-]+)\s*=\s*'([^']*)'(?:\s|$)|([\w-]+)\s*=\s*([^\s'"]+)(?:\s|$)|"([^"]*)"(?:\s|$)|'([^']*)'(?:\s|$)|(\S+)(?:\s|$)`)

// scAttrs are a shortcode's attributes: named (keys lower-cased) and positional.
type scAttrs struct {
	named      map[string]string
	positional []string
}

func parseAttrs(s string) scAttrs {
	a := scAttrs{named: map[string]string{}}
	s = strings.NewReplacer("\u00a0", " ", "\u200b", " ").Replace(s)
	for _, m := range reAttr().FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] != "":
			a.named[strings.ToLower(m[1])] = attrValue(m[2])
		case m[3] != "":
			a.named[strings.ToLower(m[3])] = attrValue(m[4])
		case m[5] != "":
			a.named[strings.ToLower(m[5])] = attrValue(m[6])
		case m[7] != "":
			a.positional = append(a.positional, attrValue(m[7]))
		case m[8] != "":
			a.positional = append(a.positional, attrValue(m[8]))
		case m[9] != "":
			a.positional = append(a.positional, attrValue(m[9]))
		}
	}
	return a
}

// attrValue drops a value with an unclosed HTML tag in it, as WordPress does.
func attrValue(v string) string {
	open := false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '<':
			if open {
				return ""
			}
			open = true
		case '>':
			open = false
		}
	}
	if open {
		return ""
	}
	return v
}

// shortcodes converts the shortcodes of text (HTML after the paragraph rule or the blocks'
// removal): [caption] to a figure, [gallery] to a figure per image, [embed], [audio], [video]
// and [playlist] to links; every other shortcode is left out (its content kept) and reported.
// [[name]] is WordPress's escape for a literal [name].
func (c Convert) shortcodes(text string, f *findings) string {
	if !strings.Contains(text, "[") {
		return text
	}
	tags := scanShortcodes(text)
	if len(tags) == 0 {
		return text
	}
	r := &scRenderer{text: text, tags: tags, next: nextClosing(tags), c: c, f: f}
	var b strings.Builder
	b.Grow(len(text))
	r.render(&b, 0, len(text), 0, len(tags), 0)
	return b.String()
}

// nextClosing returns, for each opening tag, the index of the first closing tag of its name after
// it (-1 when there is none): the end of its content, as WordPress's pattern reads it (not
// counting nested tags of the same name).
func nextClosing(tags []scTag) []int {
	next := make([]int, len(tags))
	last := map[string]int{}
	for i := len(tags) - 1; i >= 0; i-- {
		t := tags[i]
		if t.closing {
			last[t.name] = i
			next[i] = -1
			continue
		}
		if j, ok := last[t.name]; ok {
			next[i] = j
		} else {
			next[i] = -1
		}
	}
	return next
}

type scRenderer struct {
	text string
	tags []scTag
	next []int
	c    Convert
	f    *findings
}

// render writes text[from:to], whose tags are tags[lo:hi], with its shortcodes converted.
func (r *scRenderer) render(b *strings.Builder, from, to, lo, hi, depth int) {
	pos := from
	for i := lo; i < hi; {
		t := r.tags[i]
		if t.closing { // a closing tag without its opening one: dropped
			b.WriteString(r.text[pos:t.start])
			pos = t.end
			r.f.add(Finding{Kind: KindShortcode, Name: t.name, Detail: "[/" + t.name + "] without its opening tag"})
			i++
			continue
		}
		j := -1 // the closing tag, if the shortcode encloses content
		if !t.selfClosing && depth < maxShortcodeDepth && r.next[i] >= 0 && r.next[i] < hi {
			j = r.next[i]
		}
		end, nextTag := t.end, i+1
		if j >= 0 {
			end, nextTag = r.tags[j].end, j+1
		}
		if t.start > pos && r.text[t.start-1] == '[' && end < to && r.text[end] == ']' {
			// [[name]…] is the escaped, literal [name]…
			b.WriteString(r.text[pos : t.start-1])
			b.WriteString(r.text[t.start:end])
			pos = end + 1
			i = nextTag
			continue
		}
		b.WriteString(r.text[pos:t.start])
		inner := func() string { return "" }
		if j >= 0 {
			inner = func() string {
				var ib strings.Builder
				r.render(&ib, t.end, r.tags[j].start, i+1, j, depth+1)
				return ib.String()
			}
		}
		r.convert(b, t, inner)
		pos = end
		i = nextTag
	}
	b.WriteString(r.text[pos:to])
}

// convert writes what shortcode t becomes; inner renders its content.
func (r *scRenderer) convert(b *strings.Builder, t scTag, inner func() string) {
	a := parseAttrs(t.attrs)
	tag := truncate(r.text[t.start:t.end], 200)
	switch strings.ToLower(t.name) {
	case "caption", "wp_caption":
		b.WriteString(caption(a, inner()))
	case "gallery":
		r.gallery(b, a, tag)
	case "embed":
		content := inner()
		u := strings.TrimSpace(stripTags(content))
		if isHTTP(u) && !strings.ContainsAny(u, " \t\n") {
			r.embedLink(b, u, "[embed]")
			return
		}
		b.WriteString(content)
		r.f.add(Finding{Kind: KindShortcode, Name: t.name, Detail: tag})
	case "audio", "video":
		src := mediaSource(a)
		if src == "" {
			r.f.add(Finding{Kind: KindShortcode, Name: t.name, Detail: tag + ": no file given, left out"})
			return
		}
		b.WriteString(`<p><a href="` + html.EscapeString(src) + `">` + html.EscapeString(fileName(src)) + `</a></p>`)
		r.f.add(Finding{Kind: KindEmbed, Name: src, Detail: "[" + t.name + "] is now a link to its file"})
	case "playlist":
		r.playlist(b, a, tag)
	default:
		b.WriteString(inner())
		r.f.add(Finding{Kind: KindShortcode, Name: t.name, Detail: tag})
	}
}

// reCaptionImage finds a caption's image (with the link around it, if any) and what follows it,
// as WordPress's img_caption_shortcode does.
var reCaptionImage = lazyre.New(`(?is)^(.*?)((?:<a [^>]+>\s*)?<img [^>]+>(?:\s*</a>)?)(.*)$`)

// reBreaksAround are line breaks and spaces at either end of a caption (the paragraph rule puts
// a <br /> between the image and its caption when they are on separate lines).
var reBreaksAround = lazyre.New(`(?i)^(?:\s|<br\s*/?>)+|(?:\s|<br\s*/?>)+$`)

// caption converts [caption …]<a><img></a> Caption text[/caption] to a figure; the caption may
// also be the caption attribute (WordPress before 3.4).
func caption(a scAttrs, content string) string {
	text, image := a.named["caption"], content
	if m := reCaptionImage().FindStringSubmatch(content); m != nil {
		image = m[2]
		if text == "" {
			text = m[1] + " " + m[3]
		}
	}
	text = reBreaksAround().ReplaceAllString(strings.TrimSpace(text), "")
	image = strings.TrimSpace(image)
	if image == "" && text == "" {
		return ""
	}
	out := "<figure>" + image
	if text != "" {
		out += "<figcaption>" + text + "</figcaption>"
	}
	return out + "</figure>"
}

// gallery writes a figure for each image of [gallery ids="…"] (or include="…").
func (r *scRenderer) gallery(b *strings.Builder, a scAttrs, tag string) {
	list := a.named["ids"]
	if list == "" {
		list = a.named["include"]
	}
	ids := idList(list)
	if len(ids) == 0 {
		r.f.add(Finding{Kind: KindGallery, Name: "gallery", Detail: tag + ": a gallery of the post's attached images, left out; add the images to the page by hand"})
		return
	}
	shown := 0
	for _, id := range ids {
		u, alt, capt, ok := r.c.attachment(id)
		if !ok {
			r.f.add(Finding{Kind: KindMissingMedia, Name: "attachment " + strconv.Itoa(id), Detail: "an image of " + tag + " is not in the export"})
			continue
		}
		b.WriteString(`<figure><img src="` + html.EscapeString(u) + `" alt="` + html.EscapeString(alt) + `">`)
		if capt = strings.TrimSpace(capt); capt != "" {
			b.WriteString("<figcaption>" + html.EscapeString(capt) + "</figcaption>")
		}
		b.WriteString("</figure>")
		shown++
	}
	r.f.add(Finding{Kind: KindGallery, Name: "gallery", Detail: tag + ": now " + strconv.Itoa(shown) + " images one after the other"})
}

// playlist writes a list of links to the files of [playlist ids="…"].
func (r *scRenderer) playlist(b *strings.Builder, a scAttrs, tag string) {
	ids := idList(a.named["ids"])
	var items []string
	for _, id := range ids {
		u, _, capt, ok := r.c.attachment(id)
		if !ok {
			r.f.add(Finding{Kind: KindMissingMedia, Name: "attachment " + strconv.Itoa(id), Detail: "a file of " + tag + " is not in the export"})
			continue
		}
		label := strings.TrimSpace(capt)
		if label == "" {
			label = fileName(u)
		}
		items = append(items, `<li><a href="`+html.EscapeString(u)+`">`+html.EscapeString(label)+`</a></li>`)
	}
	if len(items) == 0 {
		r.f.add(Finding{Kind: KindShortcode, Name: "playlist", Detail: tag + ": no files given, left out"})
		return
	}
	b.WriteString("<ul>" + strings.Join(items, "") + "</ul>")
	r.f.add(Finding{Kind: KindEmbed, Name: "playlist", Detail: tag + ": now a list of links to its " + strconv.Itoa(len(items)) + " files"})
}

// embedLink writes the paragraph with a link an embed becomes, and reports it.
func (r *scRenderer) embedLink(b *strings.Builder, u, what string) {
	b.WriteString(linkParagraph(u))
	r.f.add(Finding{Kind: KindEmbed, Name: u, Detail: what + " is now a link"})
}

func linkParagraph(u string) string {
	e := html.EscapeString(u)
	return `<p><a href="` + e + `">` + e + `</a></p>`
}

// mediaSource is the file of an [audio] or [video] shortcode: src, or the attribute named by
// its format.
func mediaSource(a scAttrs) string {
	for _, k := range []string{"src", "mp3", "m4a", "ogg", "wav", "wma", "flac", "mp4", "m4v", "webm", "ogv", "wmv", "flv"} {
		if v := strings.TrimSpace(a.named[k]); v != "" {
			return v
		}
	}
	return ""
}

// idList reads "1, 2,3" as ids, skipping what is not a positive number.
func idList(s string) []int {
	var ids []int
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil && n > 0 {
			ids = append(ids, n)
		}
	}
	return ids
}

// fileName is the last segment of a URL's path ("song.mp3"), or the URL.
func fileName(u string) string {
	p := u
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if name := path.Base(p); name != "." && name != "/" && name != "" {
		return name
	}
	return u
}

func isHTTP(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// stripTags removes tags (anything from "<" to ">") from s.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '<':
			in = true
		case s[i] == '>' && in:
			in = false
		case !in:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
