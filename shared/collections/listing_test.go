package collections_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// seedFAQs creates n FAQs named "Question 01".."Question n" through the API, one at a time so
// their updatedAt order is their creation order.
func seedFAQs(t *testing.T, tn testkit.Tenant, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		mustStatus(t, testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"question": fmt.Sprintf("Question %02d", i), "answer": "A", "position": i}}), 201)
	}
}

func questions(res testkit.Response) string {
	var out []string
	for _, it := range res.Body["result"].([]any) {
		out = append(out, fmt.Sprint(it.(map[string]any)["question"]))
	}
	return strings.Join(out, ",")
}

func get(t *testing.T, tn testkit.Tenant, path string) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: "GET", Path: path, Tenant: tn.ID, Token: tn.AdminToken})
}

func TestCursorPaging(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	seedFAQs(t, tn, 12)
	p1 := get(t, tn, "/faqs?limit=5")
	mustStatus(t, p1, 200)
	if got := questions(p1); got != "Question 12,Question 11,Question 10,Question 09,Question 08" || p1.Get("totalCount") != float64(12) {
		t.Fatalf("page 1: %s", p1.Raw)
	}
	if p1.Get("prevCursor") != nil || p1.Get("nextCursor") == nil {
		t.Fatalf("page 1 cursors: %s", p1.Raw)
	}
	p2 := get(t, tn, "/faqs?limit=5&page=2&cursor="+url.QueryEscape(p1.Get("nextCursor").(string)))
	mustStatus(t, p2, 200)
	if got, byNumber := questions(p2), questions(get(t, tn, "/faqs?limit=5&page=2")); got != byNumber ||
		got != "Question 07,Question 06,Question 05,Question 04,Question 03" {
		t.Fatalf("page 2 by cursor %q, by number %q", got, byNumber)
	}
	p3 := get(t, tn, "/faqs?limit=5&page=3&cursor="+url.QueryEscape(p2.Get("nextCursor").(string)))
	if got := questions(p3); got != "Question 02,Question 01" || p3.Get("nextCursor") != nil {
		t.Fatalf("page 3: %s", p3.Raw)
	}
	back := get(t, tn, "/faqs?limit=5&page=2&cursor="+url.QueryEscape(p3.Get("prevCursor").(string)))
	if got := questions(back); got != questions(p2) {
		t.Fatalf("back to page 2: %q, want %q", got, questions(p2))
	}
	// Name order pages through GSI2 the same way.
	n1 := get(t, tn, "/faqs?limit=5&sort=question&order=asc")
	n2 := get(t, tn, "/faqs?limit=5&page=2&sort=question&order=asc&cursor="+url.QueryEscape(n1.Get("nextCursor").(string)))
	if got := questions(n2); got != "Question 06,Question 07,Question 08,Question 09,Question 10" {
		t.Fatalf("name order page 2: %q", got)
	}
}

// forge rewrites one field of a cursor's JSON.
func forge(t *testing.T, c string, edit func(m map[string]any)) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, _ := json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(out)
}

func TestForeignAndTamperedCursors(t *testing.T) {
	t.Parallel()
	tn, other := testkit.NewTenant(t), testkit.NewTenant(t)
	seedFAQs(t, tn, 6)
	seedFAQs(t, other, 6)
	theirs := get(t, other, "/faqs?limit=5").Get("nextCursor").(string)
	mine := get(t, tn, "/faqs?limit=5").Get("nextCursor").(string)
	retarget := func(m map[string]any) {
		k := m["k"].(map[string]any)
		for name, v := range k {
			k[name] = strings.Replace(v.(string), "T#"+tn.ID+"#", "T#"+other.ID+"#", 1)
		}
		m["h"] = strings.Replace(m["h"].(string), "T#"+tn.ID+"#", "T#"+other.ID+"#", 1)
	}
	cases := []struct{ name, path string }{
		{"another tenant's cursor", "/faqs?limit=5&page=2&cursor=" + url.QueryEscape(theirs)},
		{"my cursor pointed at another tenant", "/faqs?limit=5&page=2&cursor=" + url.QueryEscape(forge(t, mine, retarget))},
		{"another collection's keys", "/faqs?limit=5&page=2&cursor=" + url.QueryEscape(forge(t, mine, func(m map[string]any) {
			m["k"].(map[string]any)["PK"] = "T#" + tn.ID + "#users"
		}))},
		{"used with another order", "/faqs?limit=5&page=2&sort=question&cursor=" + url.QueryEscape(mine)},
		{"used with a search", "/faqs?limit=5&page=2&search=q&cursor=" + url.QueryEscape(mine)},
		{"an extra key attribute", "/faqs?limit=5&page=2&cursor=" + url.QueryEscape(forge(t, mine, func(m map[string]any) {
			m["k"].(map[string]any)["GSI2PK"] = "x"
		}))},
		{"not base64", "/faqs?limit=5&page=2&cursor=***"},
		{"not json", "/faqs?limit=5&page=2&cursor=" + base64.RawURLEncoding.EncodeToString([]byte("nope"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := get(t, tn, c.path)
			mustStatus(t, res, 400)
			if res.Get("errors.cursor") == nil {
				t.Fatalf("no cursor error: %s", res.Raw)
			}
		})
	}
	mustStatus(t, get(t, tn, "/faqs?limit=5&page=2&cursor="+url.QueryEscape(mine)), 200)
}

// TestNameSearchMatchesWordsWithItsCount: a search finds the records having a word that begins
// with each typed word, newest first (by name when the list is sorted by name), with their count.
func TestNameSearchMatchesWordsWithItsCount(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, q := range []string{"Alpha two", "  alphabet", "ALPHA one", "Beta", "Gamma alpha"} {
		mustStatus(t, testkit.Call(t, call{Method: "POST", Path: "/faqs", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"question": q, "answer": "A"}}), 201)
	}
	cases := []struct {
		query, want string
		total       float64
	}{
		{"?search=alp", "Gamma alpha,ALPHA one,alphabet,Alpha two", 4},
		{"?search=ALPHA+O", "ALPHA one", 1},
		{"?search=o+alpha", "ALPHA one", 1},
		{"?search=alp&sort=question", "ALPHA one,Alpha two,alphabet,Gamma alpha", 4},
		{"?search=alp&sort=question&order=desc", "Gamma alpha,alphabet,Alpha two,ALPHA one", 4},
		{"?search=alp&limit=5&page=2", "", 4},
		{"?search=beta", "Beta", 1},
		{"?search=pha", "", 0},
		{"?search=%21%21", "Gamma alpha,Beta,ALPHA one,alphabet,Alpha two", 5}, // nothing to search by
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res := get(t, tn, "/faqs"+c.query)
			mustStatus(t, res, 200)
			if got := questions(res); got != c.want || res.Get("totalCount") != c.total {
				t.Fatalf("got %q (total %v), want %q (total %v)", got, res.Get("totalCount"), c.want, c.total)
			}
		})
	}
}

func TestSortByOtherColumnsOnlyWhileSmall(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	seedFAQs(t, tn, 3)
	mustStatus(t, get(t, tn, "/faqs?sort=position"), 200)
	if res := get(t, tn, "/faqs"); res.Get("sortable") != nil {
		t.Fatalf("a small list names sortable columns: %s", res.Raw)
	}
	// Past the threshold by its counter (seeding 1,000 records through moto's transactions
	// would take minutes; the guard reads only the counter).
	deps := testkit.Deps(t)
	scope, _ := store.NewScope(tn.ID)
	if err := deps.Store.AddToCounter(scope, "faqs", listing.SortAllMax).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := get(t, tn, "/faqs?sort=position")
	mustStatus(t, res, 400)
	if msg := res.Message(); !strings.Contains(msg, "updatedAt, createdAt, question") {
		t.Fatalf("message %q does not name the sortable columns", msg)
	}
	for _, ok := range []string{"/faqs", "/faqs?sort=question", "/faqs?sort=createdAt&order=asc", "/faqs?sort=updatedAt"} {
		mustStatus(t, get(t, tn, ok), 200)
	}
	if res := get(t, tn, "/faqs"); fmt.Sprint(res.Get("sortable")) != "[updatedAt createdAt question]" {
		t.Fatalf("sortable: %s", res.Raw)
	}
}

func TestCountersFollowCreateAndDelete(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	scope, _ := store.NewScope(tn.ID)
	st := testkit.Deps(t).Store
	count := func(name string) int64 {
		n, err := st.Count(context.Background(), scope, name)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var ids []string
	for i := 0; i < 3; i++ {
		res := testkit.Call(t, call{Method: "POST", Path: "/events", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"title": fmt.Sprint("E", i), "startDate": "2026-01-01", "endDate": "2026-01-02", "location": "Hall"}})
		mustStatus(t, res, 201)
		ids = append(ids, res.Get("result.id").(string))
		if got := count("events"); got != int64(i+1) {
			t.Fatalf("after create %d: counter %d", i+1, got)
		}
	}
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/events/" + ids[0], Tenant: tn.ID, Token: tn.AdminToken}), 200)
	if got := count("events"); got != 2 {
		t.Fatalf("after delete: counter %d", got)
	}
	if res := get(t, tn, "/events"); res.Get("totalCount") != float64(2) || len(res.Body["result"].([]any)) != 2 {
		t.Fatalf("list after delete: %s", res.Raw)
	}
	// The first admin and the Administrator role are counted and listed too.
	if count("users") != 1 || count("roles") != 1 {
		t.Fatalf("users %d, roles %d", count("users"), count("roles"))
	}
	if res := get(t, tn, "/users"); res.Get("totalCount") != float64(1) || res.Get("result.0.id") != tn.AdminID {
		t.Fatalf("users: %s", res.Raw)
	}
}

func TestUnreadCounterAndBell(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	var ids []string
	for i := 0; i < 5; i++ {
		res := testkit.Call(t, call{Method: "POST", Path: "/notifications", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"title": fmt.Sprint("N", i), "message": "M"}})
		mustStatus(t, res, 201)
		ids = append(ids, res.Get("result.id").(string))
	}
	bell := func() testkit.Response { return get(t, tn, "/notifications?read=false&limit=5") }
	titles := func(res testkit.Response) string {
		var out []string
		for _, it := range res.Body["result"].([]any) {
			out = append(out, fmt.Sprint(it.(map[string]any)["title"]))
		}
		return strings.Join(out, ",")
	}
	if res := bell(); titles(res) != "N4,N3,N2,N1,N0" || res.Get("facetCount") != float64(5) {
		t.Fatalf("bell: %s", res.Raw)
	}
	mark := func(list ...string) {
		mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"passcode": "x", "notificaitonIds": list}}), 200)
	}
	mark(ids[4], ids[3])
	mark(ids[4]) // already read: no change, no double count
	if res := bell(); titles(res) != "N2,N1,N0" || res.Get("facetCount") != float64(3) || res.Get("totalCount") != float64(3) {
		t.Fatalf("after marking: %s", res.Raw)
	}
	// A patch that sets read, and a delete of an unread one, keep the counter too.
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/" + ids[2], Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"read": true}}), 200)
	mustStatus(t, testkit.Call(t, call{Method: "DELETE", Path: "/notifications/" + ids[0], Tenant: tn.ID, Token: tn.AdminToken}), 200)
	if res := bell(); titles(res) != "N1" || res.Get("facetCount") != float64(1) {
		t.Fatalf("after patch and delete: %s", res.Raw)
	}
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/" + ids[2], Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"read": false}}), 200)
	if res := bell(); titles(res) != "N2,N1" || res.Get("facetCount") != float64(2) {
		t.Fatalf("after unread again: %s", res.Raw)
	}
	if res := get(t, tn, "/notifications"); res.Get("totalCount") != float64(4) || res.Get("facetCount") != float64(2) {
		t.Fatalf("all: %s", res.Raw)
	}
}

// TestMarkingAHundredRead: PATCH /notifications/ with 100 unread ids (101 transaction items in
// one go) marks them all, in transactions DynamoDB accepts, and the unread counter follows.
func TestMarkingAHundredRead(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	var ids []string
	for i := 0; i < 100; i++ {
		res := testkit.Call(t, call{Method: "POST", Path: "/notifications", Tenant: tn.ID, Token: tn.AdminToken,
			Body: map[string]any{"title": fmt.Sprint("N", i), "message": "M"}})
		mustStatus(t, res, 201)
		ids = append(ids, res.Get("result.id").(string))
	}
	res := testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"passcode": "x", "notificaitonIds": ids}})
	mustStatus(t, res, 200)
	if res := get(t, tn, "/notifications?read=false&limit=5"); res.Get("facetCount") != float64(0) || res.Get("totalCount") != float64(0) {
		t.Fatalf("unread after marking 100: %s", res.Raw)
	}
	if res := get(t, tn, "/notifications?limit=5"); res.Get("totalCount") != float64(100) {
		t.Fatalf("all: %s", res.Raw)
	}
	// Each mark is recorded like any edit (issue 39, item 5): one audit entry per notification,
	// naming "read", and the unread state it replaced kept as version 1, in every transaction.
	log := get(t, tn, "/audit-log?collection=notifications&action=update&limit=100")
	marked := map[string]bool{}
	for _, e := range log.Body["result"].([]any) {
		if e := e.(map[string]any); fmt.Sprint(e["changed"]) == "[read]" {
			marked[e["recordId"].(string)] = true
		}
	}
	for _, id := range ids {
		if !marked[id] {
			t.Fatalf("no audit entry marks %s read: %d of 100 do", id, len(marked))
		}
	}
	for _, i := range []int{0, 32, 33, 66, 99} {
		v := get(t, tn, "/notifications/"+ids[i]+"/versions")
		if v.Get("totalCount") != float64(1) || v.Get("result.0.version") != float64(1) || fmt.Sprint(v.Get("result.0.changed")) != "[read]" {
			t.Fatalf("versions of notification %d after marking it read: %s", i, v.Raw)
		}
	}
	// 101 ids is more than a request may mark, whatever their state.
	mustStatus(t, testkit.Call(t, call{Method: "PATCH", Path: "/notifications/", Tenant: tn.ID, Token: tn.AdminToken,
		Body: map[string]any{"passcode": "x", "notificaitonIds": append(ids, tn.AdminID)}}), 400)
}
