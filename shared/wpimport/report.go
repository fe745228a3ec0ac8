package wpimport

import (
	"fmt"
	"sort"
	"strings"
)

// maxLines bounds each list of the report (a job keeps its report in one item).
const maxLines = 300

// counts are numbers by what they count ("pages", "draft posts").
type counts map[string]int

func (c counts) add(what string, n int) {
	if n > 0 {
		c[what] += n
	}
}

// lines is a bounded list of report lines that counts what it leaves out.
type lines struct {
	Items []string `json:"items"`
	More  int      `json:"more,omitempty"`
}

func (l *lines) add(format string, args ...any) {
	if len(l.Items) >= maxLines {
		l.More++
		return
	}
	l.Items = append(l.Items, fmt.Sprintf(format, args...))
}

// Report is what an import did, or with DryRun what it would do: the same from cmsctl and the
// panel's Import screen, which both show its Sections.
type Report struct {
	DryRun bool   `json:"dryRun"`
	Site   string `json:"site"`
	// Imported counts new records by kind (KindPage…), Updated those an earlier run wrote that
	// this one changed, Unchanged those it found as they were.
	Imported  counts `json:"imported"`
	Updated   counts `json:"updated"`
	Unchanged counts `json:"unchanged"`
	// Skipped counts what is not imported, by what it is ("draft pages", "comments", "users").
	Skipped    counts   `json:"skipped"`
	Categories []string `json:"categories"`
	Tags       []string `json:"tags"`
	// Shortcodes are the shortcodes and blocks left out, each with where it was.
	Shortcodes lines `json:"shortcodes"`
	// Missing are the files not found, with why; their uses keep the old URL.
	Missing lines `json:"missing"`
	// Notes are what was changed on the way in (a slug taken, a title made, a menu level lifted).
	Notes lines `json:"notes"`
	// Failed are the items refused, with why (a plan's limit, a check).
	Failed lines `json:"failed"`
}

// NewReport is an empty report.
func NewReport(dryRun bool) *Report {
	return &Report{DryRun: dryRun, Imported: counts{}, Updated: counts{}, Unchanged: counts{}, Skipped: counts{}}
}

// Section is one part of the report as it is shown: a title and its lines.
type Section struct {
	Title string   `json:"title"`
	Lines []string `json:"lines"`
}

// Sections are the report as cmsctl prints it and the Import screen shows it.
func (r *Report) Sections() []Section {
	verb := "Imported"
	if r.DryRun {
		verb = "Would import"
	}
	var out []Section
	add := func(title string, ls []string) {
		if len(ls) > 0 {
			out = append(out, Section{Title: title, Lines: ls})
		}
	}
	var done []string
	for _, kind := range []string{KindPage, KindNotice, KindMedia, KindMenu, KindRedirect} {
		n, u, same := r.Imported[kind], r.Updated[kind], r.Unchanged[kind]
		if n+u+same == 0 {
			continue
		}
		line := fmt.Sprintf("%s: %d new", kind, n)
		if u > 0 {
			line += fmt.Sprintf(", %d updated", u)
		}
		if same > 0 {
			line += fmt.Sprintf(", %d already up to date", same)
		}
		done = append(done, line)
	}
	if len(done) == 0 {
		done = []string{"nothing"}
	}
	add(verb, done)
	var skipped []string
	for _, k := range sortedCounts(r.Skipped) {
		skipped = append(skipped, counted(r.Skipped[k], k))
	}
	add("Not imported", skipped)
	var terms []string
	if len(r.Categories) > 0 {
		terms = append(terms, fmt.Sprintf("%s (not kept): %s", counted(len(r.Categories), "categories"), strings.Join(r.Categories, ", ")))
	}
	if len(r.Tags) > 0 {
		terms = append(terms, fmt.Sprintf("%s (not kept): %s", counted(len(r.Tags), "tags"), strings.Join(r.Tags, ", ")))
	}
	add("Categories and tags", terms)
	add("Shortcodes and blocks left out", r.Shortcodes.all())
	add("Files not found (their uses keep the old address)", r.Missing.all())
	add("Failed", r.Failed.all())
	add("Notes", r.Notes.all())
	return out
}

// Text is the report as lines of text.
func (r *Report) Text() string {
	var b strings.Builder
	for _, s := range r.Sections() {
		b.WriteString(s.Title + ":\n")
		for _, l := range s.Lines {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

func (l lines) all() []string {
	out := append([]string(nil), l.Items...)
	if l.More > 0 {
		out = append(out, fmt.Sprintf("…and %d more", l.More))
	}
	return out
}

func sortedCounts(c counts) []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedFieldKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// singular are the last words of what the report counts, as one of them is said.
var singular = map[string]string{"pages": "page", "posts": "post", "comments": "comment", "users": "user",
	"categories": "category", "tags": "tag", "items": "item"}

// counted is n things: "1 draft page", "2 draft pages".
func counted(n int, what string) string {
	if n == 1 {
		words := strings.Fields(what)
		for i, w := range words {
			if one, ok := singular[w]; ok {
				words[i] = one
				break
			}
		}
		what = strings.Join(words, " ")
	}
	return fmt.Sprintf("%d %s", n, what)
}
