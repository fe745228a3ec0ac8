package pages_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/pages"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// largestWrite is the transaction of the largest legitimate write, item by item: a page whose
// 38 sections are all replaced by 38 new ones, whose title's 7 indexed words are all replaced,
// whose slug and publishAt move. A restore of the state before it is the same write backwards.
var largestWrite = []struct {
	what  string
	items int
}{
	{"the page itself (conditioned on its version)", 1},
	{"38 new sections put", pages.MaxSections},
	{"38 replaced sections deleted", pages.MaxSections},
	{"the 7 new words' index entries put", 7},
	{"the 7 old words' index entries deleted", 7},
	{"the new slug's marker put, the old one's deleted", 2},
	{"the due item moved (one item at a stable key)", 1},
	{"the version it replaces, kept", 1},
	{"its audit entry", 1},
	{"its accessibility findings' entry and their counter", pages.AccessibilityItems},
	{"a draft's removal, when the save publishes it", pages.DraftItems},
}

// measuredLargest is what the tests' largest save writes: no draft is published, and the page's
// findings (each banner's "More" button) are as many before as after, so their entry is written
// (its title changes) but not their counter.
const measuredLargest = pages.LargestWrite - pages.DraftItems - 1

// TestTheLargestWriteFits: the largest legitimate save of a page, and the restore that undoes
// it, are each one transaction of pages.LargestWrite items, within DynamoDB's 100 — where they
// were 101, and answered "save it in smaller parts", which a restore never can.
func TestTheLargestWriteFits(t *testing.T) {
	t.Parallel()
	total := 0
	for _, part := range largestWrite {
		total += part.items
	}
	if total != pages.LargestWrite || pages.LargestWrite > store.MaxTransactionItems {
		t.Fatalf("the largest write adds up to %d items; pages.LargestWrite says %d; DynamoDB takes %d", total, pages.LargestWrite, store.MaxTransactionItems)
	}
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	sections := func(tag string) []map[string]any {
		out := make([]map[string]any, pages.MaxSections)
		for i := range out {
			out[i] = map[string]any{"title": fmt.Sprintf("%s %d", tag, i), "pageSectionTypeId": types["banner"], "config": items(1, nil)}
		}
		return out
	}
	title := strings.Repeat("Open Day Campus Tours Admissions Scholarships Library ", 3)
	res := as(t, tn, "POST", "/pages", map[string]any{"title": title, "slug": "open-day", "publishAt": "2098-01-01T00:00:00Z", "pageSections": sections("A")})
	check(t, res, http.StatusCreated, "")
	id := res.Get("result.id").(string)

	measure := func(name string, do func() testkit.Response) {
		t.Helper()
		from := len(testkit.Faults(t).Calls(tn.ID))
		res := do()
		check(t, res, http.StatusOK, "")
		_, n, _, index := txItems(t, tn.ID, from)
		if len(n) != 1 || n[0] != measuredLargest || index[0] != 14 {
			t.Fatalf("%s: transactions of %v items (%v of the word index), want one of %d", name, n, index, measuredLargest)
		}
	}
	measure("the largest save", func() testkit.Response {
		return as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": sections("B"),
			"title": strings.Repeat("Research Faculty Alumni Events Sport Housing Careers ", 3), "slug": "research", "publishAt": "2099-01-01T00:00:00Z"})
	})
	measure("its restore", func() testkit.Response {
		return as(t, tn, "POST", "/pages/"+id+"/versions/1/restore", map[string]any{"version": 2})
	})
	got := as(t, tn, "GET", "/pages/"+id, nil)
	if got.Get("result.slug") != "open-day" || got.Get("result.publishAt") != "2098-01-01T00:00:00Z" || len(sectionsOf(t, got)) != pages.MaxSections {
		t.Fatalf("after the restore: %v %v", got.Get("result.slug"), got.Get("result.publishAt"))
	}
}

// noise is n letters and spaces that compress poorly (as a page of real text never does): the
// shortest way to a state too large to keep.
func noise(r *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// bigSections are n sections of a slider whose items hold long descriptions of noise, each
// config near the 100 KB a section may hold.
func bigSections(r *rand.Rand, types map[string]string, n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		var list []string
		for j := range 19 {
			list = append(list, fmt.Sprintf(`{"id":"i%d","title":"T","description":%q}`, j, noise(r, 5000)))
		}
		out[i] = map[string]any{"title": fmt.Sprintf("S%d", i), "pageSectionTypeId": types["slider"], "config": "[" + strings.Join(list, ",") + "]"}
	}
	return out
}

// TestEveryAcceptedSaveCanBeEditedAndDeleted: a save that would leave a page too large for its
// history to keep is refused before anything is written (it used to be accepted, and then every
// edit, restore and delete of the page answered 413, shortening it included); the largest save
// accepted can be followed by an edit, a delete and a restore from the trash.
func TestEveryAcceptedSaveCanBeEditedAndDeleted(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	types := typeIDs(t, tn)
	r := rand.New(rand.NewPCG(1, 2))
	content := "<p>" + noise(r, 262144-7) + "</p>"
	// The most one save can send (a body of at most 1 MB): the largest content and as many
	// sections near their largest as fit beside it.
	const most = 7
	try := func(n int) (string, testkit.Response) {
		id, _ := newPage(t, tn, fmt.Sprintf("Huge %d", n))
		return id, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "content": content, "pageSections": bigSections(r, types, n)})
	}
	id, res := try(most)
	check(t, res, http.StatusRequestEntityTooLarge, "")
	if !strings.Contains(res.Message(), "history") || version(t, tn, id) != 1 {
		t.Fatalf("the save past what history keeps: %s; version %v", res.Raw, version(t, tn, id))
	}
	// The largest save accepted: as many of those sections as fit.
	lo, hi, largest := -1, most, "" // try(hi) is refused; try(lo) is accepted (none tried yet)
	for hi-lo > 1 {
		mid := (lo + hi + 1) / 2
		if id, res := try(mid); res.Status == http.StatusOK {
			lo, largest = mid, id
		} else {
			check(t, res, http.StatusRequestEntityTooLarge, "")
			hi = mid
		}
	}
	if largest == "" {
		t.Fatal("not even the content alone was accepted")
	}
	t.Logf("the largest save accepted: %d KB of content and %d sections of noise", len(content)/1024, lo)
	check(t, as(t, tn, "PATCH", "/pages/"+largest, map[string]any{"version": 2, "description": "Edited after the largest save"}), http.StatusOK, "")
	check(t, as(t, tn, "DELETE", "/pages/"+largest, nil), http.StatusOK, "")
	check(t, as(t, tn, "POST", fmt.Sprintf("/trash/pages/%s/3/restore", largest), nil), http.StatusOK, "")
	if got := as(t, tn, "GET", "/pages/"+largest, nil); got.Get("result.description") != "Edited after the largest save" || len(sectionsOf(t, got)) != lo {
		t.Fatalf("back from the trash: %v, %d sections", got.Get("result.description"), len(sectionsOf(t, got)))
	}
}

// TestAPageStoredPastTheLimitCanStillBeShortened: a page saved before the rule above, whose
// state is already too large to keep, is not stuck: an edit keeps a version that says so (its
// state was too large to keep) instead of refusing, so the page can be shortened and deleted.
func TestAPageStoredPastTheLimitCanStillBeShortened(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, _ := newPage(t, tn, "Legacy")
	// Written behind the API's back, as an older release let it be: 40 sections of noise.
	st := testkit.Deps(t).Store
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range pages.MaxSections {
		sid := fmt.Sprintf("01J%023d", i)
		err := st.Table.Put(map[string]any{"PK": scope.Partition("PAGE", id), "SK": "SEC#" + sid, "id": sid, "pageId": id, "title": "Old",
			"pageSectionTypeId": "3", "status": true, "position": i + 1, "config": `[{"id":"a","title":"` + noise(r, 90_000) + `"}]`}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
	}
	res := as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 1, "pageSections": []any{}})
	check(t, res, http.StatusOK, "")
	list := as(t, tn, "GET", "/pages/"+id+"/versions", nil)
	if list.Get("result.0.version") != float64(1) || list.Get("result.0.tooLarge") != true {
		t.Fatalf("the version of a state too large to keep: %s", list.Raw)
	}
	check(t, as(t, tn, "GET", "/pages/"+id+"/versions/1", nil), http.StatusNotFound, "This version was too large to keep: only who replaced it, when and how are recorded.")
	check(t, as(t, tn, "POST", "/pages/"+id+"/versions/1/restore", map[string]any{"version": 2}), http.StatusNotFound,
		"This version was too large to keep: only who replaced it, when and how are recorded.")
	check(t, as(t, tn, "PATCH", "/pages/"+id, map[string]any{"version": 2, "description": "Shorter now"}), http.StatusOK, "")
	check(t, as(t, tn, "DELETE", "/pages/"+id, nil), http.StatusOK, "")
}

// check is testkit.Expect for answers too long to print whole.
func check(t *testing.T, res testkit.Response, status int, message string) {
	t.Helper()
	if res.Status != status || (message != "" && res.Message() != message) {
		raw := string(res.Raw)
		if len(raw) > 400 {
			raw = raw[:400] + "…"
		}
		t.Fatalf("status %d, want %d (%q); body %s", res.Status, status, message, raw)
	}
}
