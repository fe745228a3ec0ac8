package trash_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

func must(t *testing.T, res testkit.Response, status int) testkit.Response {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d: %s", res.Status, status, res.Raw)
	}
	return res
}

func as(t *testing.T, tn testkit.Tenant, token, method, path string, body any) testkit.Response {
	t.Helper()
	return testkit.Call(t, call{Method: method, Path: path, Tenant: tn.ID, Token: token, Body: body})
}

// trash lists the tenant's trash (query after ?) as "kind:title" strings, and its entries.
func trash(t *testing.T, tn testkit.Tenant, query string) (string, []map[string]any) {
	t.Helper()
	res := must(t, as(t, tn, tn.AdminToken, "GET", "/trash?"+query, nil), 200)
	var names []string
	var out []map[string]any
	for _, e := range res.Body["result"].([]any) {
		m := e.(map[string]any)
		names = append(names, fmt.Sprintf("%v:%v", m["kind"], m["title"]))
		out = append(out, m)
	}
	return strings.Join(names, ","), out
}

// body is a valid create body of collection key with fields set.
func body(t *testing.T, tn testkit.Tenant, key string, fields map[string]any) map[string]any {
	t.Helper()
	reg, err := collections.Load()
	if err != nil {
		t.Fatal(err)
	}
	b := testkit.SampleBody(t, tn, reg, reg[key], 1)
	for k, v := range fields {
		b[k] = v
	}
	return b
}

func entryPath(e map[string]any) string {
	return fmt.Sprintf("/trash/%v/%v/%v", e["kind"], e["id"], e["version"])
}

func count(t *testing.T, tn testkit.Tenant, path string) float64 {
	t.Helper()
	n, _ := must(t, as(t, tn, tn.AdminToken, "GET", path, nil), 200).Get("totalCount").(float64)
	return n
}

// TestAPageGoesToTheTrashAndComesBack: a deleted page (with its sections) leaves the list, its
// counter, its slug and the public site; the trash lists it with who and when; restoring brings
// it back whole under its own id, and a slug taken meanwhile gets the next free one, said so.
func TestAPageGoesToTheTrashAndComesBack(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := tn.AdminToken
	types := map[string]string{}
	for _, it := range must(t, as(t, tn, admin, "GET", "/page-section-types", nil), 200).Body["result"].([]any) {
		m := it.(map[string]any)
		types[m["slug"].(string)] = m["id"].(string)
	}
	page := must(t, as(t, tn, admin, "POST", "/pages", map[string]any{"title": "Open Day", "isPublished": true,
		"pageSections": []map[string]any{{"title": "Welcome", "pageSectionTypeId": types["banner"], "config": []map[string]any{{"title": "Hi"}}}}}), 201)
	id := page.Get("result.id").(string)
	if page.Get("result.slug") != "open-day" || count(t, tn, "/pages") != 1 {
		t.Fatalf("page %s", page.Raw)
	}
	must(t, as(t, tn, admin, "DELETE", "/pages/"+id, nil), 200)
	must(t, as(t, tn, admin, "GET", "/pages/"+id, nil), 404)
	if count(t, tn, "/pages") != 0 {
		t.Fatal("the counter still counts the deleted page")
	}
	must(t, testkit.Call(t, call{Method: "GET", Path: "/api/v1/public/pages/open-day", Tenant: tn.ID}), 404)
	names, list := trash(t, tn, "")
	if names != "pages:Open Day" || list[0]["byName"] != "admin" || list[0]["deletedAt"] == "" || list[0]["purgedAt"] == "" {
		t.Fatalf("trash: %s %v", names, list)
	}
	// The slug is free again: another page takes it.
	must(t, as(t, tn, admin, "POST", "/pages", map[string]any{"title": "Open Day"}), 201)

	res := must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 200)
	if res.Get("result.id") != id || res.Get("result.slug") != "open-day-2" || !strings.Contains(res.Message(), `"open-day-2"`) ||
		res.Get("result.pageSections.0.title") != "Welcome" || res.Get("result.createdAt") != page.Get("result.createdAt") {
		t.Fatalf("restored: %s", res.Raw)
	}
	if count(t, tn, "/pages") != 2 {
		t.Fatal("the counter did not count the restored page")
	}
	if names, _ := trash(t, tn, ""); names != "" {
		t.Fatalf("still in the trash: %s", names)
	}
	// It goes on with its history: the deleted state is a version, the next edit another.
	versions := must(t, as(t, tn, admin, "GET", "/pages/"+id+"/versions", nil), 200)
	if versions.Get("result.0.action") != "delete" {
		t.Fatalf("versions: %s", versions.Raw)
	}
	must(t, as(t, tn, admin, "PATCH", "/pages/"+id, map[string]any{"description": "Back", "version": res.Get("result.version")}), 200)
	// Restoring twice, or what is not in the trash, is a 404.
	must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 404)
	log := must(t, as(t, tn, admin, "GET", "/audit-log?collection=pages", nil), 200)
	if log.Get("result.1.action") != "restore" || log.Get("result.2.action") != "create" || log.Get("result.3.action") != "delete" {
		t.Fatalf("audit log: %s", log.Raw)
	}
}

// TestDeleteForever: the entry and the record's history go, with an audit entry; it cannot be
// restored or purged again.
func TestDeleteForever(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := tn.AdminToken
	id := must(t, as(t, tn, admin, "POST", "/faqs", map[string]any{"question": "Parking?", "answer": "Yes"}), 201).Get("result.id").(string)
	must(t, as(t, tn, admin, "PATCH", "/faqs/"+id, map[string]any{"answer": "Behind the hall", "version": 1}), 200)
	must(t, as(t, tn, admin, "DELETE", "/faqs/"+id, nil), 200)
	_, list := trash(t, tn, "kind=faqs")
	if len(list) != 1 || list[0]["version"] != float64(2) {
		t.Fatalf("trash: %v", list)
	}
	must(t, as(t, tn, admin, "DELETE", entryPath(list[0]), nil), 200)
	must(t, as(t, tn, admin, "DELETE", entryPath(list[0]), nil), 404)
	must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 404)
	if names, _ := trash(t, tn, ""); names != "" {
		t.Fatalf("trash after purge: %s", names)
	}
	if log := must(t, as(t, tn, admin, "GET", "/audit-log?action=purge", nil), 200); log.Get("result.0.recordId") != id {
		t.Fatalf("audit: %s", log.Raw)
	}
	// Pages of the trash, by cursor, all and by kind.
	for i := range 3 {
		fid := must(t, as(t, tn, admin, "POST", "/faqs", map[string]any{"question": fmt.Sprint("Q", i), "answer": "A"}), 201).Get("result.id").(string)
		must(t, as(t, tn, admin, "DELETE", "/faqs/"+fid, nil), 200)
	}
	for _, kind := range []string{"", "faqs"} {
		seen, cursor := 0, ""
		for page := 0; page < 5; page++ {
			res := must(t, as(t, tn, admin, "GET", "/trash?limit=2&kind="+kind+"&cursor="+cursor, nil), 200)
			seen += len(res.Body["result"].([]any))
			cursor, _ = res.Body["nextCursor"].(string)
			if cursor == "" {
				break
			}
		}
		if seen != 3 {
			t.Fatalf("paged %d entries of kind %q, want 3", seen, kind)
		}
	}
	for _, q := range []string{"limit=0", "limit=101", "cursor=garbage", "kind=header", "kind=nothing"} {
		must(t, as(t, tn, admin, "GET", "/trash?"+q, nil), 400)
	}
	for _, p := range []string{"/trash/faqs/" + id + "/x", "/trash/header/" + id + "/1", "/trash/faqs/not-an-id/1", "/trash/nothing/" + id + "/1"} {
		must(t, as(t, tn, admin, "DELETE", p, nil), 404)
	}
}

// TestAFormGoesWithItsSubmissions: a form with submissions can be deleted now; its submissions
// are out of reach and out of the unchecked count while it is in the trash, back with it, and
// gone with it for good.
func TestAFormGoesWithItsSubmissions(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := tn.AdminToken
	form := must(t, as(t, tn, admin, "POST", "/custom-forms", body(t, tn, "custom-forms", map[string]any{"name": "Visit", "status": true,
		"fields": `[{"id":"NEW_1","label":"Name","fieldType":"text","required":true}]`})), 201)
	id := form.Get("result.id").(string)
	for i := range 3 {
		must(t, testkit.Call(t, call{Method: "POST", Path: "/api/v1/public/forms/" + id + "/submissions", Tenant: tn.ID,
			Body: map[string]any{"Name": fmt.Sprint("Visitor ", i)}}), 201)
	}
	unchecked := func() any {
		return must(t, as(t, tn, admin, "GET", "/custom-form-submissions?formId="+id, nil), 200).Get("totalCount")
	}
	if unchecked() != float64(3) {
		t.Fatal("three submissions expected")
	}
	must(t, as(t, tn, admin, "DELETE", "/custom-forms/"+id, nil), 200)
	must(t, as(t, tn, admin, "GET", "/custom-form-submissions?formId="+id, nil), 404)
	must(t, testkit.Call(t, call{Method: "POST", Path: "/api/v1/public/forms/" + id + "/submissions", Tenant: tn.ID, Body: map[string]any{"Name": "Late"}}), 404)
	_, list := trash(t, tn, "kind=custom-forms")
	must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 200)
	if unchecked() != float64(3) {
		t.Fatal("the submissions did not come back with the form")
	}
	must(t, as(t, tn, admin, "DELETE", "/custom-forms/"+id, nil), 200)
	_, list = trash(t, tn, "kind=custom-forms")
	must(t, as(t, tn, admin, "DELETE", entryPath(list[0]), nil), 200)
	// A form made again under the same id would find nothing of the old one's.
	dash := must(t, as(t, tn, admin, "GET", "/custom-forms", nil), 200)
	if dash.Get("totalCount") != float64(0) {
		t.Fatalf("forms: %s", dash.Raw)
	}
}

// TestRestoringAUserFollowsTheRules: a username taken meanwhile is a clear 409; a user comes back
// without a password (none is kept) and cannot sign in until one is set; restoring a user holding
// rights the caller does not hold is refused like granting them.
func TestRestoringAUserFollowsTheRules(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := tn.AdminToken
	uid := must(t, as(t, tn, admin, "POST", "/users", map[string]any{"firstName": "Ann", "lastName": "Lee", "username": "ann",
		"password": "ann-pass-123", "permissionIds": []string{"CMS_VIEW_FAQ"}}), 201).Get("result.id").(string)
	must(t, as(t, tn, admin, "DELETE", "/users/"+uid, nil), 200)
	must(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "ann", "password": "ann-pass-123"}}), 401)
	other := must(t, as(t, tn, admin, "POST", "/users", map[string]any{"firstName": "Ann", "lastName": "Other", "username": "ann", "password": "ann-pass-456"}), 201)
	_, list := trash(t, tn, "kind=users")
	res := must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 409)
	if !strings.Contains(res.Message(), "Username is already taken") {
		t.Fatalf("clash: %s", res.Raw)
	}
	must(t, as(t, tn, admin, "DELETE", "/users/"+other.Get("result.id").(string), nil), 200)
	// A manager of users who holds no FAQ right cannot bring back a user holding one.
	manager := testkit.NewUser(t, tn, "CMS_VIEW_TRASH", "CMS_CREATE_USER", "CMS_VIEW_USER")
	must(t, as(t, tn, manager, "POST", entryPath(list[0])+"/restore", nil), 403)
	back := must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 200)
	if back.Get("result.username") != "ann" {
		t.Fatalf("restored: %s", back.Raw)
	}
	must(t, testkit.Call(t, call{Method: "POST", Path: "/auth/login", Tenant: tn.ID, Body: map[string]any{"username": "ann", "password": "ann-pass-123"}}), 401)
	must(t, as(t, tn, admin, "PATCH", "/users/"+uid, map[string]any{"password": "ann-pass-789", "version": back.Get("result.version")}), 200)
	testkit.Login(t, tn.ID, "ann", "ann-pass-789")
}

// TestAPhotoOfADeletedAlbum: restoring what refers to something gone is a clear 400.
func TestAPhotoOfADeletedAlbum(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	admin := tn.AdminToken
	album := must(t, as(t, tn, admin, "POST", "/albums", body(t, tn, "albums", map[string]any{"title": "Sports day"})), 201).Get("result.id").(string)
	photo := must(t, as(t, tn, admin, "POST", "/photos", body(t, tn, "photos", map[string]any{"albumId": album, "caption": "Race"})), 201).Get("result.id").(string)
	must(t, as(t, tn, admin, "DELETE", "/photos/"+photo, nil), 200)
	must(t, as(t, tn, admin, "DELETE", "/albums/"+album, nil), 200)
	_, list := trash(t, tn, "kind=photos")
	res := must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 400)
	if !strings.Contains(res.Message(), "not found") {
		t.Fatalf("message: %s", res.Raw)
	}
	_, albums := trash(t, tn, "kind=albums")
	must(t, as(t, tn, admin, "POST", entryPath(albums[0])+"/restore", nil), 200)
	must(t, as(t, tn, admin, "POST", entryPath(list[0])+"/restore", nil), 200)
}

// TestTheTrashIsTheTenantsAndNeedsItsRights: another tenant's token gets nothing and cannot
// restore into its own tenant; the trash needs its view right, a restore the kind's create right
// and a purge its delete right; two restores at once bring the record back once.
func TestTheTrashIsTheTenantsAndNeedsItsRights(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	id := must(t, as(t, a, a.AdminToken, "POST", "/faqs", map[string]any{"question": "Q", "answer": "A"}), 201).Get("result.id").(string)
	must(t, as(t, a, a.AdminToken, "DELETE", "/faqs/"+id, nil), 200)
	_, list := trash(t, a, "")
	p := entryPath(list[0])
	must(t, testkit.Call(t, call{Method: "GET", Path: "/trash", Tenant: a.ID, Token: b.AdminToken}), 401)
	must(t, as(t, b, b.AdminToken, "POST", p+"/restore", nil), 404)
	must(t, as(t, b, b.AdminToken, "DELETE", p, nil), 404)
	if names, _ := trash(t, b, ""); names != "" {
		t.Fatalf("tenant b sees %s", names)
	}
	must(t, as(t, a, testkit.NewUser(t, a), "GET", "/trash", nil), 403)
	viewer := testkit.NewUser(t, a, "CMS_VIEW_TRASH")
	must(t, as(t, a, viewer, "GET", "/trash", nil), 200)
	must(t, as(t, a, viewer, "POST", p+"/restore", nil), 403)
	must(t, as(t, a, viewer, "DELETE", p, nil), 403)
	// Restoring takes the kind's VIEW as well as its CREATE (issue 40).
	must(t, as(t, a, testkit.NewUser(t, a, "CMS_VIEW_TRASH", "CMS_CREATE_FAQ"), "POST", p+"/restore", nil), 403)
	restorer := testkit.NewUser(t, a, "CMS_VIEW_TRASH", "CMS_VIEW_FAQ", "CMS_CREATE_FAQ")
	must(t, as(t, a, restorer, "DELETE", p, nil), 403)

	var wg sync.WaitGroup
	statuses := make([]int, 4)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = as(t, a, restorer, "POST", p+"/restore", nil).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		switch s {
		case 200:
			ok++
		case 404, 409:
		default:
			t.Fatalf("restore answered %d", s)
		}
	}
	if ok != 1 || count(t, a, "/faqs") != 1 {
		t.Fatalf("restores at once: %v, count %v", statuses, count(t, a, "/faqs"))
	}
}

// TestTheTrashShowsOnlyKindsTheCallerMayView: CMS_VIEW_TRASH alone lists no record of a kind
// the holder may not view (a deleted department's name, a FAQ's question); each kind's VIEW adds
// its entries, a page is filled with visible entries only, and asking for a kind one may not
// view is refused.
func TestTheTrashShowsOnlyKindsTheCallerMayView(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for i := range 3 {
		id := must(t, as(t, tn, tn.AdminToken, "POST", "/faqs", map[string]any{"question": fmt.Sprintf("Q%d", i), "answer": "A"}), 201).Get("result.id").(string)
		must(t, as(t, tn, tn.AdminToken, "DELETE", "/faqs/"+id, nil), 200)
		dep := must(t, as(t, tn, tn.AdminToken, "POST", "/departments", map[string]any{"name": fmt.Sprintf("Secret dept %d", i)}), 201).Get("result.id").(string)
		must(t, as(t, tn, tn.AdminToken, "DELETE", "/departments/"+dep, nil), 200)
	}
	list := func(token, query string) (string, string) {
		t.Helper()
		res := must(t, as(t, tn, token, "GET", "/trash?"+query, nil), 200)
		var names []string
		for _, e := range res.Body["result"].([]any) {
			m := e.(map[string]any)
			names = append(names, fmt.Sprintf("%v:%v", m["kind"], m["title"]))
		}
		next, _ := res.Body["nextCursor"].(string)
		return strings.Join(names, ","), next
	}
	if all, _ := list(tn.AdminToken, ""); strings.Count(all, "departments:") != 3 || strings.Count(all, "faqs:") != 3 {
		t.Fatalf("admin sees %s", all)
	}
	only := testkit.NewUser(t, tn, "CMS_VIEW_TRASH")
	if names, _ := list(only, ""); names != "" {
		t.Fatalf("CMS_VIEW_TRASH alone sees %s", names)
	}
	must(t, as(t, tn, only, "GET", "/trash?kind=departments", nil), 403)
	faqs := testkit.NewUser(t, tn, "CMS_VIEW_TRASH", "CMS_VIEW_FAQ")
	must(t, as(t, tn, faqs, "GET", "/trash?kind=departments", nil), 403)
	if names, _ := list(faqs, "kind=faqs"); names != "faqs:Q2,faqs:Q1,faqs:Q0" {
		t.Fatalf("faqs of the faq viewer: %s", names)
	}
	// Pages of two, newest first, with the departments between them left out.
	first, next := list(faqs, "limit=2")
	if first != "faqs:Q2,faqs:Q1" || next == "" {
		t.Fatalf("first page %s (next %q)", first, next)
	}
	if second, _ := list(faqs, "limit=2&cursor="+next); second != "faqs:Q0" {
		t.Fatalf("second page %s", second)
	}
}
