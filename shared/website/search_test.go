package website_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/themes"
)

// search asks the website's search of tn for q (and more parameters).
func search(t *testing.T, tn testkit.Tenant, q string, more ...string) page {
	t.Helper()
	v := url.Values{"q": {q}}
	for i := 0; i+1 < len(more); i += 2 {
		v.Set(more[i], more[i+1])
	}
	return get(t, tn, "/search?"+v.Encode())
}

// headings are the texts of a page's <h2>s, in order.
func headings(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<h2[^>]*>([^<]*)</h2>`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// resultLinks are the addresses the results of a search page link, in order.
func resultLinks(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<li class="list-item search-result"><div>\s*<h3><a href="([^"]*)"`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// cacheableAndCookieless: a search answer is cached like every page and never sets a cookie.
func cacheableAndCookieless(t *testing.T, p page) {
	t.Helper()
	if c := p.header.Values("Set-Cookie"); len(c) > 0 {
		t.Errorf("Set-Cookie %v", c)
	}
	if cc := p.header.Get("Cache-Control"); !strings.Contains(cc, "public") || p.header.Get("ETag") == "" {
		t.Errorf("cache headers: %q, ETag %q", cc, p.header.Get("ETag"))
	}
}

// TestSearchScopeAndVisibility: the search finds what the website shows, grouped by kind in a
// fixed order, its words marked, and nothing unpublished, inactive, not yet published, expired,
// trashed, kept from search engines or another tenant's.
func TestSearchScopeAndVisibility(t *testing.T) {
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	soon := time.Now().AddDate(0, 0, 5).Format(time.DateOnly)
	page := func(title string, extra map[string]any) string {
		body := map[string]any{"title": title, "description": "All about the Harbour and its boats."}
		for k, v := range extra {
			body[k] = v
		}
		return staff(t, tn, "POST", "/pages", body).Get("result.slug").(string)
	}
	open := page("Harbour Open Day", map[string]any{"content": "<p>Come and see the <strong>harbour</strong> at work.</p>"})
	page("Harbour draft", map[string]any{"isPublished": false})
	page("Harbour inactive page", map[string]any{"status": false})
	page("Harbour later", map[string]any{"publishAt": future})
	page("Harbour expired", map[string]any{"unpublishAt": "2020-01-01T00:00:00Z"})
	page("Harbour private", map[string]any{"noIndex": true})
	ev := staff(t, tn, "POST", "/events", map[string]any{"title": "Harbour regatta", "startDate": soon, "location": "North quay",
		"description": "Boats race round the harbour wall."}).Get("result.id").(string)
	staff(t, tn, "POST", "/events", map[string]any{"title": "Harbour inactive event", "startDate": soon, "status": false})
	staff(t, tn, "POST", "/events", map[string]any{"title": "Harbour scheduled event", "startDate": soon, "publishAt": future})
	notice := staff(t, tn, "POST", "/notices", map[string]any{"title": "Harbour car park closed",
		"message": "The car park by the harbour is closed on Friday; please park on Mill Lane."}).Get("result.id").(string)
	trashed := staff(t, tn, "POST", "/notices", map[string]any{"title": "Harbour trashed notice", "message": "x"}).Get("result.id").(string)
	staff(t, tn, "DELETE", "/notices/"+trashed, nil)
	person := staff(t, tn, "POST", "/staff-members", map[string]any{"name": "Ana Harbourne", "role": "Harbour master",
		"bio": "Ana has run the harbour for ten years."}).Get("result.id").(string)
	staff(t, tn, "POST", "/resources", map[string]any{"title": "Harbour map", "fileUrl": "01ARZ3NDEKTSV4RRFFQ69G5FAV/harbour-map.pdf",
		"category": "Visitors", "description": "Where to find the quays."})
	faq := staff(t, tn, "POST", "/faqs", map[string]any{"question": "When does the harbour gate open?",
		"answer": "Every day. The harbour gate opens at nine and closes at six."}).Get("result.id").(string)
	staff(t, other, "POST", "/notices", map[string]any{"title": "Harbour of the other school", "message": "x"})
	staff(t, other, "POST", "/pages", map[string]any{"title": "Harbour other page"})

	p := search(t, tn, "harbour")
	must(t, p, 200, `<meta name="robots" content="noindex">`, `<h1>Results for “harbour”</h1>`,
		`<a href="/`+open+`"><mark>Harbour</mark> Open Day</a>`,
		// The text that matched, its words marked.
		`<p class="snippet">All about the <mark>Harbour</mark> and its boats.</p>`,
		`<a href="/events/`+ev+`"><mark>Harbour</mark> regatta</a>`, `Boats race round the <mark>harbour</mark> wall.`,
		`<a href="/notices/`+notice+`"><mark>Harbour</mark> car park closed</a>`,
		`<a href="/staff#staff-`+person+`">Ana <mark>Harbourne</mark></a>`, `<mark>Harbour</mark> master`,
		`<a href="/media/`+tn.ID+`/01ARZ3NDEKTSV4RRFFQ69G5FAV/harbour-map.pdf" download><mark>Harbour</mark> map</a>`,
		`<a href="/faqs#faq-`+faq+`">When does the <mark>harbour</mark> gate open?</a>`,
		`Every day. The <mark>harbour</mark> gate opens at nine and closes at six.`)
	cacheableAndCookieless(t, p)
	groups := headings(p.body[strings.Index(p.body, "<main"):strings.Index(p.body, "</main>")])
	if want := []string{"Pages", "Events", "Notices", "Staff", "Resources", "FAQs"}; fmt.Sprint(groups) != fmt.Sprint(want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	for _, hidden := range []string{"draft", "inactive", "later", "expired", "private", "scheduled", "trashed", "other"} {
		if strings.Contains(p.body, "Harbour "+hidden) || strings.Contains(p.body, "<mark>Harbour</mark> "+hidden) {
			t.Errorf("the search shows the %s record", hidden)
		}
	}
	if links := resultLinks(p.body); len(links) != 6 {
		t.Errorf("%d results, want 6: %v", len(links), links)
	}
	// Every typed word begins a word of the name, any order, accents and case ignored.
	p = search(t, tn, "DÂY hârb")
	must(t, p, 200, `<mark>Harbour</mark> Open <mark>Day</mark>`)
	if links := resultLinks(p.body); len(links) != 1 {
		t.Errorf("open day: %v", links)
	}
	// The home page is found at its address, /.
	staff(t, tn, "POST", "/pages", map[string]any{"title": "Welcome home", "slug": "home"})
	must(t, search(t, tn, "welcome"), 200, `<a href="/"><mark>Welcome</mark> home</a>`)
	// The other tenant finds only its own.
	p = search(t, other, "harbour")
	must(t, p, 200, "<mark>Harbour</mark> of the other school", "<mark>Harbour</mark> other page")
	if links := resultLinks(p.body); len(links) != 2 {
		t.Errorf("the other tenant's search: %v", links)
	}
	// Nothing found says so.
	p = search(t, tn, "zebra")
	must(t, p, 200, `No results for “zebra”.`)
	if links := resultLinks(p.body); len(links) != 0 {
		t.Errorf("zebra: %v", links)
	}
}

// TestSearchPages: the first page shows a few of each kind and a link to more; a kind's own pages
// go on from the last result shown, newest first, passing over what the website hides, each
// with a bounded number of reads, until there is no more.
func TestSearchPages(t *testing.T) {
	tn := testkit.NewTenant(t)
	var want []string
	for i := range 26 {
		body := map[string]any{"title": fmt.Sprintf("Lantern walk %d", i), "message": "Bring a lantern."}
		if i%5 == 2 {
			body["status"] = false // hidden ones among them
		}
		id := staff(t, tn, "POST", "/notices", body).Get("result.id").(string)
		if i%5 != 2 {
			want = append([]string{"/notices/" + id}, want...)
		}
	}
	staff(t, tn, "POST", "/faqs", map[string]any{"question": "Can I bring a lantern?", "answer": "Yes."})
	p := search(t, tn, "lantern")
	must(t, p, 200, `<h2 id="results-notices">Notices</h2>`, `<h2 id="results-faqs">FAQs</h2>`)
	links := resultLinks(p.body)
	if fmt.Sprint(links[:5]) != fmt.Sprint(want[:5]) || len(links) != 6 {
		t.Fatalf("first page %v, want the 5 newest notices %v and the FAQ", links, want[:5])
	}
	if p.calls > 16 {
		t.Errorf("the first page took %d DynamoDB calls", p.calls)
	}
	more := regexp.MustCompile(`<a href="(/search\?[^"]*)">More results<span class="visually-hidden"> in Notices</span>`).FindStringSubmatch(p.body)
	if more == nil {
		t.Fatalf("no More results link: %s", p.body)
	}
	if strings.Count(p.body, ">More results<") != 1 {
		t.Error("a More results link for a kind with nothing more")
	}
	// More results goes on after the five shown.
	seen := links[:5]
	next := strings.ReplaceAll(more[1], "&amp;", "&")
	for n := 0; next != ""; n++ {
		if n > 5 {
			t.Fatal("the pages never end")
		}
		p := get(t, tn, next)
		must(t, p, 200, `<meta name="robots" content="noindex">`, `<h2 id="results-notices">Notices</h2>`, `All results for “lantern”`)
		cacheableAndCookieless(t, p)
		if strings.Contains(p.body, "results-faqs") {
			t.Error("a kind's page shows other kinds")
		}
		if p.calls > 6 {
			t.Errorf("a page of notices took %d DynamoDB calls", p.calls)
		}
		page := resultLinks(p.body)
		if len(page) > 20 {
			t.Errorf("%d results on one page", len(page))
		}
		seen = append(seen, page...)
		next = ""
		if m := regexp.MustCompile(`<a href="(/search\?[^"]*)">More results`).FindStringSubmatch(p.body); m != nil {
			next = strings.ReplaceAll(m[1], "&amp;", "&")
		}
	}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("notices shown\n%v\nwant every visible one once, newest first\n%v", seen, want)
	}
}

// TestSearchHostileQueries: whatever is typed, the answer is a 200 page that shows it back
// escaped; an empty query is the form alone.
func TestSearchHostileQueries(t *testing.T) {
	tn := testkit.NewTenant(t)
	staff(t, tn, "POST", "/notices", map[string]any{"title": "Script club", "message": "x"})
	p := get(t, tn, "/search")
	must(t, p, 200, "<h1>Search</h1>", `<form class="search-form" role="search" action="/search" method="get"`,
		`<label for="search-q">Search for</label>`, `<meta name="robots" content="noindex">`)
	if html := withoutStyles(p.body); strings.Contains(html, "No results") || strings.Contains(html, "search-result") {
		t.Error("an empty query searched")
	}
	cacheableAndCookieless(t, p)
	long := strings.Repeat("script ", 300)
	for _, q := range []string{
		`<script>alert(1)</script>`, `"><img src=x onerror=alert(2)>`, long, "!!! ??? … — ###", `'; DROP TABLE --`,
		"\u202e\u0000\ufffd", strings.Repeat("é", 1500),
	} {
		p := search(t, tn, q)
		if p.status != 200 {
			t.Fatalf("%.40q: %d %.300s", q, p.status, p.body)
		}
		for _, raw := range []string{"<script>alert", "<img src=x", `"><img`} {
			if strings.Contains(p.body, raw) {
				t.Errorf("%.40q echoed unescaped", q)
			}
		}
		if !strings.Contains(p.body, `<meta name="robots" content="noindex">`) {
			t.Errorf("%.40q: not noindex", q)
		}
		cacheableAndCookieless(t, p)
	}
	must(t, search(t, tn, `<script>alert(1)</script>`), 200, `value="&lt;script&gt;alert(1)&lt;/script&gt;"`)
	// Its words are searched for (every one: "alert" is in no name).
	must(t, search(t, tn, `<script>`), 200, `<mark>Script</mark> club`)
	must(t, search(t, tn, "!!! ???"), 200, `No results for “!!! ???”.`)
	// What is shown back is cut to 200 characters.
	if p := search(t, tn, long); strings.Contains(p.body, long[:250]) || !strings.Contains(p.body, "<mark>Script</mark> club") {
		t.Error("a long query is shown whole, or not searched")
	}
	// Unknown kinds and cursors are ignored, not errors.
	must(t, search(t, tn, "script", "kind", "nothing", "after", "<x>"), 200, "<mark>Script</mark> club")
	must(t, search(t, tn, "script", "kind", "notices", "after", "not-an-id"), 200, "<mark>Script</mark> club")
}

// TestSearchBoxInEveryThemesHeader: every theme's header has the search form, a labelled
// search landmark that posts nowhere (GET /search), while the header's Show Search is on.
func TestSearchBoxInEveryThemesHeader(t *testing.T) {
	tn := testkit.NewTenant(t)
	box := `<form class="site-search" role="search" action="/search" method="get" aria-label="Site search">`
	inEveryTheme(t, tn, func(th themes.Theme) {
		for _, path := range []string{"/", "/events", "/search?q=x", "/no-such-page"} {
			p := get(t, tn, path)
			header := p.body[strings.Index(p.body, `<header class="site-header`):strings.Index(p.body, "</header>")]
			for _, want := range []string{box, `<label for="site-search-q" class="visually-hidden">Search this site</label>`,
				`<input id="site-search-q" name="q" type="search"`} {
				if !strings.Contains(header, want) {
					t.Fatalf("%s %s: the header lacks %s", th.ID, path, want)
				}
			}
		}
	})
	staff(t, tn, "PATCH", "/header", map[string]any{"showSearch": false})
	if p := get(t, tn, "/"); strings.Contains(withoutStyles(p.body), "site-search") {
		t.Error("the search box shows with Show Search off")
	}
}
