package website

import (
	"net/url"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/public"
	"github.com/campuscms/panel/shared/words"
)

// The website's search (/search?q=): the visible pages, events, notices, staff, resources and
// FAQs whose names hold every typed word (each begins a word of the name, in any order, accents
// and case ignored), found through the word index the panel's own search keeps
// (public.Reader.Search), grouped by kind, each with the text it matched, a page at a time. It is
// an HTML form and links: it works without JavaScript. Result pages ask search engines not to
// index them.

// searchGroup is one kind of result: its ?kind= value, the collection and its heading (a message
// key).
type searchGroup struct {
	param, kind, label string
	// name is the field a record is found by (its indexed name), text the fields its snippet
	// is taken from, in order (rich holds rich text).
	name string
	text []string
	rich map[string]bool
}

// searchGroups are the kinds the search shows, in the order it shows them (public.SearchKinds).
var searchGroups = []searchGroup{
	{param: "pages", kind: "pages", label: "search.pages", name: "title", text: []string{"description", "metaDescription", "content"}, rich: map[string]bool{"content": true}},
	{param: "events", kind: "events", label: "nav.events", name: "title", text: []string{"description", "location"}},
	{param: "notices", kind: "notices", label: "nav.notices", name: "title", text: []string{"message", "content"}, rich: map[string]bool{"content": true}},
	{param: "staff", kind: "staff-members", label: "nav.staff", name: "name", text: []string{"role", "bio"}},
	{param: "resources", kind: "resources", label: "nav.resources", name: "title", text: []string{"description", "category"}},
	{param: "faqs", kind: "faqs", label: "nav.faqs", name: "question", text: []string{"answer"}},
}

const (
	// searchPerGroup is how many results of each kind the first page shows; searchPerPage how
	// many one kind's own pages (its "More results") show.
	searchPerGroup = 5
	searchPerPage  = 20
	// searchMaxQuery is how much of the typed text is kept (and shown back): the search itself
	// reads at most words.MaxWords words of it.
	searchMaxQuery = 200
	// snippetRunes is about how long a result's text is; snippetLead how much of it comes
	// before the first word it matched.
	snippetRunes = 220
	snippetLead  = 60
	// snippetScan bounds the text looked through for a match (a long article's first part).
	snippetScan = 20_000
)

// searchData is the search page.
type searchData struct {
	// Query is what was typed (trimmed, at most searchMaxQuery characters).
	Query string
	// Group is the kind asked for (?kind=), "" for all of them; AllURL is the search of all.
	Group, GroupLabel, AllURL string
	// After says this is a later page of one kind.
	After bool
	// Groups are the kinds with results, in order.
	Groups []searchResults
	// None says the search found nothing.
	None bool
}

// searchResults are one kind's results on this page.
type searchResults struct {
	Param, Label string
	Results      []searchResult
	// More is the address of the next results of this kind; "" when there are none.
	More string
}

// searchResult is one found record as the results list shows it.
type searchResult struct {
	URL string
	// Download says the link is a file (a resource).
	Download bool
	Title    []segment
	Meta     string
	Snippet  []segment
}

// segment is a stretch of text; Mark says it is a word the search matched (drawn in <mark>).
type segment struct {
	Text string
	Mark bool
}

// search serves /search: the form alone without a query; else the results of every kind (a
// few of each, with a link to more), or of one kind (?kind=) a page at a time from ?after=.
func (s *Server) search(q *req) (*view, error) {
	if _, err := s.load(q, public.Want{}); err != nil {
		return nil, err
	}
	params := q.r.URL.Query()
	d := &searchData{Query: clipRunes(strings.TrimSpace(params.Get("q")), searchMaxQuery)}
	v := &view{Body: "search", Title: q.T("search.title"), NoIndex: true, Data: d}
	if d.Query == "" {
		return v, nil
	}
	v.Title = q.T("search.results", "query", clipRunes(d.Query, 60))
	d.AllURL = q.loc.Href(searchURL(d.Query, "", ""))
	groups := searchGroups
	after := ""
	for _, g := range searchGroups {
		if g.param == params.Get("kind") {
			groups, d.Group, d.GroupLabel = []searchGroup{g}, g.param, q.T(g.label)
			if a := params.Get("after"); ids.Valid(a) {
				after, d.After = a, true
			}
		}
	}
	query := words.Query(d.Query)
	if len(query) == 0 {
		// Only punctuation: no word to look for.
		d.None = true
		return v, nil
	}
	limit := searchPerGroup
	if d.Group != "" {
		limit = searchPerPage
	}
	pages := make([]public.SearchPage, len(groups))
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	for i, g := range groups {
		wg.Go(func() {
			pages[i], errs[i] = s.read.Search(q.r.Context(), q.site, public.SearchQuery{Kind: g.kind, Words: query, After: after, Limit: limit})
		})
	}
	wg.Wait()
	for i, g := range groups {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if len(pages[i].Records) == 0 {
			continue
		}
		out := searchResults{Param: g.param, Label: q.T(g.label)}
		for _, rec := range pages[i].Records {
			out.Results = append(out.Results, s.searchResult(q.site, q.loc, g, rec, query))
		}
		if more := pages[i].More; more != "" {
			out.More = q.loc.Href(searchURL(d.Query, g.param, more))
		}
		d.Groups = append(d.Groups, out)
	}
	d.None = len(d.Groups) == 0
	return v, nil
}

// searchURL is the address of a search: of one kind from after, or of every kind.
func searchURL(query, kind, after string) string {
	v := url.Values{"q": {query}}
	if kind != "" {
		v.Set("kind", kind)
	}
	if after != "" {
		v.Set("after", after)
	}
	return "/search?" + v.Encode()
}

// searchResult is a found record: its address on the website, its name with the matched words
// marked, a line about it and the stretch of its text that holds a matched word (else its start).
func (s *Server) searchResult(site *public.Site, loc *locale, g searchGroup, rec public.Record, query []string) searchResult {
	id := str(rec["id"])
	out := searchResult{Title: marked(strings.TrimSpace(str(rec[g.name])), query)}
	switch g.kind {
	case "pages":
		out.URL = "/" + url.PathEscape(str(rec["slug"]))
		if str(rec["slug"]) == homeSlug {
			out.URL = "/"
		}
	case "events":
		out.URL = "/events/" + id
		out.Meta = loc.Date(rec["startDate"])
		if end := loc.Date(rec["endDate"]); end != "" && end != out.Meta {
			out.Meta += " – " + end
		}
	case "notices":
		out.URL = "/notices/" + id
		if d := loc.Date(rec["updatedAt"]); d != "" {
			out.Meta = loc.T("notices.updated", "date", d)
		}
	case "staff-members":
		out.URL = "/staff#staff-" + id
		if dep := str(rec["department"]); ids.Valid(dep) {
			out.URL = "/staff?department=" + dep + "#staff-" + id
		}
	case "resources":
		out.URL = "/resources"
		if f := site.Display(str(rec["fileUrl"])); f != "" {
			out.URL, out.Download = f, true
		}
		out.Meta = strings.Join(nonEmpty([]string{str(rec["category"]), loc.Size(rec["fileSize"])}), " · ")
	case "faqs":
		out.URL = "/faqs#faq-" + id
	}
	if out.URL != "" && !out.Download {
		out.URL = loc.Href(out.URL)
	}
	if len(out.Title) == 0 {
		out.Title = []segment{{Text: loc.T("search.untitled")}}
	}
	var first string
	for _, f := range g.text {
		text := str(rec[f])
		if g.rich[f] {
			text = plainText(text)
		}
		text = collapseSpace(text)
		if text == "" {
			continue
		}
		if first == "" {
			first = text
		}
		if snip, ok := snippet(text, query); ok {
			out.Snippet = snip
			return out
		}
	}
	if first != "" {
		out.Snippet = []segment{{Text: clipWords(first, snippetRunes)}}
	}
	return out
}

// wordRune is a rune of a word as shared/words splits them (a combining mark stays with its
// letter).
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// matches are the byte ranges of the words of text that a query word begins (folded as the index
// folds them), in order.
func matches(text string, query []string) [][2]int {
	var out [][2]int
	start := -1
	check := func(end int) {
		w := words.Fold(text[start:end])
		for _, q := range query {
			if strings.HasPrefix(w, q) {
				out = append(out, [2]int{start, end})
				return
			}
		}
	}
	for i, r := range text {
		switch {
		case wordRune(r) && start < 0:
			start = i
		case !wordRune(r) && start >= 0:
			check(i)
			start = -1
		}
	}
	if start >= 0 {
		check(len(text))
	}
	return out
}

// marked is text in segments, the words a query word begins marked.
func marked(text string, query []string) []segment {
	return segments(text, matches(text, query))
}

func segments(text string, ranges [][2]int) []segment {
	var out []segment
	at := 0
	for _, m := range ranges {
		if m[0] > at {
			out = append(out, segment{Text: text[at:m[0]]})
		}
		out = append(out, segment{Text: text[m[0]:m[1]], Mark: true})
		at = m[1]
	}
	if at < len(text) {
		out = append(out, segment{Text: text[at:]})
	}
	return out
}

// snippet is the stretch of text around its first matched word, about snippetRunes long, cut at
// spaces with an ellipsis where it was cut, its matched words marked; ok is false when no word
// of text matches.
func snippet(text string, query []string) ([]segment, bool) {
	scan := text
	if len(scan) > snippetScan {
		cut := snippetScan
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		scan = text[:cut]
	}
	found := matches(scan, query)
	if len(found) == 0 {
		return nil, false
	}
	start := runesBefore(text, found[0][0], snippetLead)
	if start > 0 {
		// Begin at a word: after the first space of the lead.
		if sp := strings.IndexByte(text[start:found[0][0]], ' '); sp >= 0 {
			start += sp + 1
		}
	}
	end := runesAfter(text, start, snippetRunes)
	if end < len(text) {
		if sp := strings.LastIndexByte(text[start:end], ' '); sp > found[0][1]-start {
			end = start + sp
		}
	}
	out := marked(text[start:end], query)
	if start > 0 {
		out = append([]segment{{Text: "…"}}, out...)
	}
	if end < len(text) {
		out = append(out, segment{Text: "…"})
	}
	return out, true
}

// runesBefore is the byte offset n runes before at (0 at most).
func runesBefore(s string, at, n int) int {
	for ; n > 0 && at > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:at])
		at -= size
	}
	return at
}

// runesAfter is the byte offset n runes after at (len(s) at most).
func runesAfter(s string, at, n int) int {
	for ; n > 0 && at < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return at
}

// clipRunes is s cut to at most n runes.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// clipWords is s cut at a space to about n runes, with an ellipsis when cut.
func clipWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:n])
	if sp := strings.LastIndexByte(cut, ' '); sp > 0 {
		cut = cut[:sp]
	}
	return cut + "…"
}

// inlineTags are the elements of rich text that sit inside a line of text.
var inlineTags = map[string]bool{"a": true, "abbr": true, "b": true, "code": true, "em": true, "i": true, "mark": true,
	"s": true, "small": true, "span": true, "strong": true, "sub": true, "sup": true, "u": true}

// collapseSpace is s with every run of white space one space, trimmed.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// plainText is the text of rich text (sanitised HTML): its text nodes, blocks apart, at most
// snippetScan bytes of it.
func plainText(fragment string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(fragment))
	for b.Len() < snippetScan {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			text := z.Text()
			if room := snippetScan - b.Len(); len(text) > room {
				for room > 0 && !utf8.RuneStart(text[room]) {
					room--
				}
				text = text[:room]
			}
			b.Write(text)
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			// A block between two words keeps them apart ("<p>a</p><p>b</p>" is "a b"); an
			// inline element does not ("<b>C</b>afé" is one word).
			if name, _ := z.TagName(); !inlineTags[string(name)] {
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}
