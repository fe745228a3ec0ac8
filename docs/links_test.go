package docs

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestRelativeLinks fails for every relative link or image in README.md and docs/*.md whose
// target file does not exist, or whose #anchor names no heading of the Markdown file it points
// at (GitHub's heading ids). Links with a scheme (https:, mailto:) are not followed.
func TestRelativeLinks(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join("..", "README.md")}, files...)
	anchors := map[string]map[string]bool{} // Markdown file (clean path) → its heading ids
	anchorsOf := func(path string) (map[string]bool, error) {
		if a, ok := anchors[path]; ok {
			return a, nil
		}
		doc, err := parse(path)
		if err != nil {
			return nil, err
		}
		anchors[path] = doc.anchors
		return doc.anchors, nil
	}
	checked := 0
	for _, file := range files {
		doc, err := parse(file)
		if err != nil {
			t.Fatal(err)
		}
		name := display(file)
		for _, l := range doc.links {
			checked++
			target, fragment, _ := strings.Cut(l.target, "#")
			if target, err = url.PathUnescape(target); err != nil {
				t.Errorf("%s:%d: link %q: %v", name, l.line, l.target, err)
				continue
			}
			path := filepath.Clean(file)
			if target != "" {
				path = filepath.Clean(filepath.Join(filepath.Dir(file), filepath.FromSlash(target)))
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist", name, l.line, l.target, display(path))
					continue
				}
			}
			if fragment == "" || !strings.HasSuffix(strings.ToLower(path), ".md") {
				continue
			}
			ids, err := anchorsOf(path)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", name, l.line, l.target, err)
				continue
			}
			if !ids[strings.ToLower(fragment)] {
				t.Errorf("%s:%d: link %q: %s has no heading #%s", name, l.line, l.target, display(path), fragment)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: is the test running in docs/?")
	}
}

// TestSlug pins the GitHub heading ids the link check relies on.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"What a list costs (`shared/listing`, used by collections and media)": "what-a-list-costs-sharedlisting-used-by-collections-and-media",
		"Lists at 100 and 10,000 records":                                     "lists-at-100-and-10000-records",
		"Images: sized copies at upload":                                      "images-sized-copies-at-upload",
		"What the stack decides, and why":                                     "what-the-stack-decides-and-why",
		"Add a route or a Lambda":                                             "add-a-route-or-a-lambda",
		"Two-factor sign-in and sessions":                                     "two-factor-sign-in-and-sessions",
		"`make dev`":                                                          "make-dev",
		"The [public](public-api.md) API":                                     "the-public-api",
		"Émile's *first* page":                                                "émiles-first-page",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

type link struct {
	line   int
	target string
}

type document struct {
	links   []link
	anchors map[string]bool
}

var (
	// inlineLink matches [text](target "title") and ![alt](target); the text may hold one level
	// of brackets (an image inside a link).
	inlineLink = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)`)
	// inlineImage matches ![alt](target "title").
	inlineImage = regexp.MustCompile(`!\[[^\[\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)`)
	// refDef matches a reference definition: [label]: target
	refDef = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	// htmlRef matches src="…" and href="…" in inline HTML (<img src=…>, <a href=…>).
	htmlRef = regexp.MustCompile(`\b(?:src|href)\s*=\s*"([^"]*)"`)
	// htmlAnchor matches an explicit anchor: <a name="…"> or id="…".
	htmlAnchor = regexp.MustCompile(`\b(?:name|id)\s*=\s*"([^"]*)"`)
	heading    = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// parse reads a Markdown file: its relative links (outside code blocks and code spans) and the
// ids of its headings, numbered like GitHub's when two headings have the same id.
func parse(path string) (document, error) {
	f, err := os.Open(path)
	if err != nil {
		return document{}, err
	}
	defer f.Close()
	doc := document{anchors: map[string]bool{}}
	seen := map[string]int{}
	fence := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1024*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			for _, c := range trimmed[3:] {
				if string(c) != fence[:1] {
					break
				}
				fence += fence[:1]
			}
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			id := slug(m[2])
			if k := seen[id]; k > 0 {
				doc.anchors[fmt.Sprintf("%s-%d", id, k)] = true
			} else {
				doc.anchors[id] = true
			}
			seen[id]++
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			doc.anchors[strings.ToLower(m[1])] = true
		}
		text := codeSpan.ReplaceAllString(line, "")
		var targets []string
		// A linked image ([![alt](image)](target)) is matched whole by inlineLink, and its image
		// alone by inlineImage.
		for _, re := range []*regexp.Regexp{inlineLink, inlineImage} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				targets = append(targets, strings.Trim(m[1], "<>"))
			}
		}
		if m := refDef.FindStringSubmatch(text); m != nil {
			targets = append(targets, strings.Trim(m[1], "<>"))
		}
		for _, m := range htmlRef.FindAllStringSubmatch(text, -1) {
			targets = append(targets, m[1])
		}
		done := map[string]bool{}
		for _, target := range targets {
			if done[target] {
				continue
			}
			done[target] = true
			if target == "" || scheme.MatchString(target) || strings.HasPrefix(target, "//") {
				continue
			}
			doc.links = append(doc.links, link{line: n, target: target})
		}
	}
	return doc, sc.Err()
}

// slug is GitHub's id for a heading: its text (links reduced to their text, code spans to their
// content), lower-cased, every character but letters, digits, marks, '-', '_' and spaces
// dropped, and each space made a '-'.
func slug(h string) string {
	h = inlineLinkText.ReplaceAllString(h, "$1")
	h = htmlTag.ReplaceAllString(h, "")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	inlineLinkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag        = regexp.MustCompile(`<[^>]+>`)
)

// display names a path from the repository's root, as a reader would look it up.
func display(path string) string {
	root, err1 := filepath.Abs("..")
	abs, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(root, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}
