package drafts_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/modules"
	"github.com/campuscms/panel/shared/schedule"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/testkit"
)

// livePage creates a published page (as the admin, who holds every right) with one text section.
func livePage(t *testing.T, tn testkit.Tenant, title, content string) (id, slug string) {
	t.Helper()
	res := must(t, as(t, tn, tn.AdminToken, "POST", "/pages", map[string]any{"title": title, "content": content, "status": true,
		"pageSections": []map[string]any{{"pageSectionTypeId": "4", "title": "Live section", "config": `[{"id":"i1","title":"Live item","description":"Live text"}]`}}}), 201)
	return res.Get("result.id").(string), res.Get("result.slug").(string)
}

// rawItem is the live record's stored item.
func rawItem(t *testing.T, tn testkit.Tenant, kind, id string) map[string]any {
	t.Helper()
	scope, err := store.NewScope(tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := testkit.Deps(t).Store.Get(context.Background(), store.Key{PK: scope.Collection(kind), SK: id}, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func setReview(t *testing.T, tn testkit.Tenant, on bool) {
	t.Helper()
	v := as(t, tn, tn.AdminToken, "GET", "/site-settings", nil).Get("result.version")
	must(t, as(t, tn, tn.AdminToken, "PATCH", "/site-settings", map[string]any{"requireReview": on, "version": v}), 200)
}

func version(res testkit.Response) int { return int(res.Get("result.version").(float64)) }

// TestDraftSavesLeaveLiveUntouched: any number of draft saves (autosaves) of a live page leave
// its stored item and its sections byte-identical, and every public read path (the website, the
// public API, the sitemap, visitor search) shows the live version; a stale save is a 409; the
// draft's compare names what differs; publishing shows the new text everywhere.
func TestDraftSavesLeaveLiveUntouched(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, slug := livePage(t, tn, "Admissions", "<p>Old admissions text</p>")
	author := testkit.NewUser(t, tn, "CMS_VIEW_PAGE", "CMS_EDIT_PAGE")
	beforeItem := rawItem(t, tn, "pages", id)
	beforeView := must(t, as(t, tn, tn.AdminToken, "GET", "/pages/"+id, nil), 200).Raw

	first := must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"content": "<p>Halfwritten zebracrossing</p>"}), 200)
	if first.Get("result.state") != "draft" || first.Get("result.isNew") != false || first.Get("result.fields.title") != "Admissions" ||
		first.Get("result.fields.pageSections.0.title") != "Live section" {
		t.Fatalf("first save: %s", first.Raw)
	}
	v := version(first)
	for i := range 5 {
		res := must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"version": v, "title": fmt.Sprintf("Admissions %d", i),
			"slug": "admissions-zebra", "pageSections": []map[string]any{{"pageSectionTypeId": "4", "title": "Draft section zebracrossing", "config": `[]`}}}), 200)
		v = version(res)
	}
	// Two tabs on one draft: the stale one is refused, never a silent overwrite.
	must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"version": v - 1, "title": "Other tab"}), http.StatusConflict)
	must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"title": "Third tab"}), http.StatusConflict)
	// Bad input is a 400 at save time, and changes nothing.
	must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"version": v, "slug": "Not A Slug!"}), http.StatusBadRequest)

	if after := rawItem(t, tn, "pages", id); !reflect.DeepEqual(beforeItem, after) {
		t.Fatalf("draft saves changed the live item:\n%v\n%v", beforeItem, after)
	}
	if after := must(t, as(t, tn, tn.AdminToken, "GET", "/pages/"+id, nil), 200).Raw; string(after) != string(beforeView) {
		t.Fatalf("draft saves changed the live page:\n%s\n%s", beforeView, after)
	}
	if n := as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/versions", nil).Get("totalCount"); n != float64(0) {
		t.Fatalf("draft saves kept %v versions of the live page", n)
	}
	checkReadPaths := func(wantText, goneText, wantSlug, goneSlug string) {
		t.Helper()
		if code, body := visit(t, tn, "/"+wantSlug); code != 200 || !contains(body, wantText) || contains(body, goneText) {
			t.Fatalf("website /%s: %d, want %q without %q: %.2000s", wantSlug, code, wantText, goneText, body)
		}
		if code, _ := visit(t, tn, "/"+goneSlug); code != 404 {
			t.Fatalf("website /%s: %d, want 404", goneSlug, code)
		}
		if code, body := public(t, tn, "/pages/"+wantSlug); code != 200 || !contains(body, wantText) || contains(body, goneText) {
			t.Fatalf("public API: %d %.1000s", code, body)
		}
		if code, body := public(t, tn, "/sitemap.xml"); code != 200 || !contains(body, "/"+wantSlug+"<") || contains(body, "/"+goneSlug+"<") {
			t.Fatalf("sitemap: %s", body)
		}
		if body := search(t, tn, goneText); contains(body, "/"+wantSlug+`"`) || contains(body, "/"+goneSlug+`"`) {
			t.Fatalf("visitor search for %q finds the page: %.2000s", goneText, body)
		}
	}
	checkReadPaths("Old admissions text", "zebracrossing", slug, "admissions-zebra")

	cmp := must(t, as(t, tn, author, "GET", "/pages/"+id+"/draft", nil), 200)
	if fmt.Sprint(cmp.Get("result.changed")) != "[title slug content pageSections]" || cmp.Get("result.live.title") != "Admissions" ||
		cmp.Get("result.draft.fields.title") != "Admissions 4" || cmp.Get("result.draft.saves") != float64(6) {
		t.Fatalf("compare: %s", cmp.Raw)
	}

	// The author may publish while review is not required; the site then shows the new text.
	pub := must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/publish", map[string]any{"version": v}), 200)
	if pub.Get("result.title") != "Admissions 4" || pub.Get("result.pageSections.0.title") != "Draft section zebracrossing" {
		t.Fatalf("publish: %s", pub.Raw)
	}
	checkReadPaths("Halfwritten zebracrossing", "Old admissions text", "admissions-zebra", slug)
	if res := as(t, tn, author, "GET", "/pages/"+id+"/draft", nil); res.Get("result.draft") != nil {
		t.Fatalf("draft left after publishing: %s", res.Raw)
	}
	// One version of the live page for the whole draft, however many saves it had.
	if list := as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/versions", nil); list.Get("totalCount") != float64(1) {
		t.Fatalf("versions after publishing: %s", list.Raw)
	}
}

// TestNewRecordStartsAsDraft: a new record made as a draft is on no read path and in no list
// until it is published; discarding it leaves nothing.
func TestNewRecordStartsAsDraft(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	res := must(t, as(t, tn, tn.AdminToken, "POST", "/notices/draft", map[string]any{"title": "Snow day", "message": "Closed tomorrow", "status": true}), 201)
	id := res.Get("result.id").(string)
	if res.Get("result.isNew") != true || res.Get("result.state") != "draft" {
		t.Fatalf("new draft: %s", res.Raw)
	}
	must(t, as(t, tn, tn.AdminToken, "GET", "/notices/"+id, nil), 404)
	if list := as(t, tn, tn.AdminToken, "GET", "/notices", nil); list.Get("totalCount") != float64(0) {
		t.Fatalf("a draft is listed: %s", list.Raw)
	}
	if _, body := public(t, tn, "/notices"); contains(body, "Snow day") {
		t.Fatalf("public notices show a draft: %s", body)
	}
	if list := as(t, tn, tn.AdminToken, "GET", "/drafts?collection=notices", nil); list.Get("totalCount") != float64(1) || list.Get("result.0.title") != "Snow day" {
		t.Fatalf("drafts list: %s", list.Raw)
	}
	must(t, as(t, tn, tn.AdminToken, "POST", "/notices/"+id+"/draft/publish", nil), 200)
	if _, body := public(t, tn, "/notices"); !contains(body, "Snow day") {
		t.Fatalf("published notice missing: %s", body)
	}
	if list := as(t, tn, tn.AdminToken, "GET", "/notices", nil); list.Get("totalCount") != float64(1) {
		t.Fatalf("published notice not counted: %s", list.Raw)
	}
	// A second draft, discarded: gone, the live notice unchanged.
	d := must(t, as(t, tn, tn.AdminToken, "PUT", "/notices/"+id+"/draft", map[string]any{"title": "Snow week"}), 200)
	must(t, as(t, tn, tn.AdminToken, "DELETE", "/notices/"+id+"/draft", map[string]any{"version": version(d) + 1}), http.StatusConflict)
	must(t, as(t, tn, tn.AdminToken, "DELETE", "/notices/"+id+"/draft", nil), 200)
	if res := as(t, tn, tn.AdminToken, "GET", "/notices/"+id+"/draft", nil); res.Get("result.draft") != nil || res.Get("result.live.title") != "Snow day" {
		t.Fatalf("after discard: %s", res.Raw)
	}
	must(t, as(t, tn, tn.AdminToken, "POST", "/notices/"+id+"/draft/publish", nil), 404)
	// Discarding a new record's draft leaves nothing at all.
	n := must(t, as(t, tn, tn.AdminToken, "POST", "/events/draft", map[string]any{"title": "Open day"}), 201).Get("result.id").(string)
	must(t, as(t, tn, tn.AdminToken, "DELETE", "/events/"+n+"/draft", nil), 200)
	must(t, as(t, tn, tn.AdminToken, "GET", "/events/"+n+"/draft", nil), 404)
	// Publishing a draft missing a required field is a 400 and leaves the draft.
	n = must(t, as(t, tn, tn.AdminToken, "POST", "/events/draft", map[string]any{"title": "No date"}), 201).Get("result.id").(string)
	must(t, as(t, tn, tn.AdminToken, "POST", "/events/"+n+"/draft/publish", nil), http.StatusBadRequest)
	must(t, as(t, tn, tn.AdminToken, "GET", "/events/"+n+"/draft", nil), 200)
}

// auditActions are the actions of the audit log's entries of record id, oldest first.
func auditActions(t *testing.T, tn testkit.Tenant, id string) []string {
	t.Helper()
	res := must(t, as(t, tn, tn.AdminToken, "GET", "/audit-log?collection=pages&limit=100", nil), 200)
	list, _ := res.Get("result").([]any)
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		e := list[i].(map[string]any)
		if e["recordId"] == id {
			out = append(out, fmt.Sprint(e["action"], ":", e["username"]))
		}
	}
	return out
}

// TestReviewRightsAndSteps: with review required, an author can't publish, approve or write live;
// an editor can't approve their own draft; each step is recorded with who and when, audited, and
// told (bell notifications); the thread keeps the comments.
func TestReviewRightsAndSteps(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, slug := livePage(t, tn, "Fees", "<p>Old fees</p>")
	setReview(t, tn, true)
	author := newStaff(t, tn, "author-"+tn.ID+"@example.org", "CMS_VIEW_PAGE", "CMS_CREATE_PAGE", "CMS_EDIT_PAGE")
	editor := newStaff(t, tn, "editor-"+tn.ID+"@example.org", "CMS_VIEW_PAGE", "CMS_EDIT_PAGE", "CMS_PUBLISH_PAGE")
	// A member of staff without the right gets no reviewer's mail.
	newStaff(t, tn, "viewer-"+tn.ID+"@example.org", "CMS_VIEW_PAGE")

	// No plain write of the live record, no new record straight to the site.
	must(t, as(t, tn, author, "PATCH", "/pages/"+id, map[string]any{"title": "Sneaky"}), http.StatusForbidden)
	must(t, as(t, tn, author, "POST", "/pages", map[string]any{"title": "Sneaky"}), http.StatusForbidden)

	d := must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"content": "<p>New fees</p>"}), 200)
	// A holder's plain edit of a record with a draft is refused: the draft would overwrite it.
	must(t, as(t, tn, editor, "PATCH", "/pages/"+id, map[string]any{"title": "Meanwhile"}), http.StatusConflict)
	must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/publish", nil), http.StatusForbidden)
	must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/approve", nil), http.StatusForbidden)
	must(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/approve", nil), http.StatusConflict) // not submitted yet
	must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/submit", map[string]any{"version": version(d) - 1}), http.StatusConflict)
	sub := must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/submit", nil), 200)
	if sub.Get("result.state") != "in_review" {
		t.Fatalf("submit: %s", sub.Raw)
	}
	waiting := must(t, as(t, tn, editor, "GET", "/drafts?state=in_review", nil), 200)
	if waiting.Get("totalCount") != float64(1) || waiting.Get("result.0.id") != id || waiting.Get("result.0.fields") != nil {
		t.Fatalf("waiting for review: %s", waiting.Raw)
	}
	if n := as(t, tn, tn.AdminToken, "GET", "/notifications", nil); !contains(string(n.Raw), "Waiting for review: page") {
		t.Fatalf("no bell notification of the submit: %s", n.Raw)
	}
	if got := mailsTo(t, tn); fmt.Sprint(got) != fmt.Sprintf("[editor-%s@example.org: Waiting for review: page “Fees”]", tn.ID) {
		t.Fatalf("mail after the submit: %v", got)
	}
	must(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/request-changes", map[string]any{}), http.StatusBadRequest)
	back := must(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/request-changes", map[string]any{"comment": "Add the deadline."}), 200)
	if back.Get("result.state") != "changes_requested" {
		t.Fatalf("request changes: %s", back.Raw)
	}
	if got := mailsTo(t, tn); len(got) != 2 || got[1] != fmt.Sprintf("author-%s@example.org: Changes requested: page “Fees”", tn.ID) {
		t.Fatalf("mail after the request for changes: %v", got)
	}
	// Both reach the local inbox through the mail worker, the author's with the reviewer's comment.
	if res := testkit.DeliverMail(t, tn.ID); res.Sent != 2 {
		t.Fatalf("delivered: %+v", res)
	}
	inbox := testkit.Mailbox(t).WaitFor(t, fmt.Sprintf("author-%s@example.org", tn.ID), 1)
	if inbox[0].Subject != "Changes requested: page “Fees”" || !strings.Contains(inbox[0].Text, "Add the deadline.") {
		t.Fatalf("the author's mail: %q %q", inbox[0].Subject, inbox[0].Text)
	}
	if c := must(t, as(t, tn, author, "GET", "/pages/"+id+"/comments", nil), 200); c.Get("totalCount") != float64(1) || c.Get("result.0.comment") != "Add the deadline." {
		t.Fatalf("comments: %s", c.Raw)
	}
	must(t, as(t, tn, author, "POST", "/pages/"+id+"/comments", map[string]any{"comment": "Done, see the second paragraph."}), 201)
	d = must(t, as(t, tn, author, "GET", "/pages/"+id+"/draft", nil), 200)
	v := int(d.Get("result.draft.version").(float64))
	must(t, as(t, tn, author, "PUT", "/pages/"+id+"/draft", map[string]any{"version": v, "content": "<p>New fees, due 1 May</p>"}), 200)
	must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/submit", nil), 200)
	must(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/approve", nil), 200)
	if code, body := visit(t, tn, "/"+slug); code != 200 || !contains(body, "Old fees") {
		t.Fatalf("approved but unpublished draft on the site: %d", code)
	}
	pub := must(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/publish", nil), 200)
	if pub.Get("result.content") != "<p>New fees, due 1 May</p>" {
		t.Fatalf("publish: %s", pub.Raw)
	}
	if code, body := visit(t, tn, "/"+slug); code != 200 || !contains(body, "due 1 May") {
		t.Fatalf("published page: %d", code)
	}
	authorName := as(t, tn, author, "GET", "/auth/me", nil).Get("result.username")
	want := []string{"create:admin", "draft-create:%[1]v", "draft-submit:%[1]v", "draft-request-changes:%[2]v", "comment:%[1]v",
		"draft-submit:%[1]v", "draft-approve:%[2]v", "draft-publish:%[2]v"}
	editorName := as(t, tn, editor, "GET", "/auth/me", nil).Get("result.username")
	got := auditActions(t, tn, id)
	for i := range want {
		if i > 0 {
			want[i] = fmt.Sprintf(want[i], authorName, editorName)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("audit log:\n got %v\nwant %v", got, want)
	}
	if n := as(t, tn, tn.AdminToken, "GET", "/notifications", nil); !contains(string(n.Raw), "Changes requested: page") || !contains(string(n.Raw), "Published: page") {
		t.Fatalf("bell notifications: %s", n.Raw)
	}

	// An editor can't approve their own draft while review is required, but may publish it.
	d = must(t, as(t, tn, editor, "PUT", "/pages/"+id+"/draft", map[string]any{"title": "Fees 2027"}), 200)
	must(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/submit", nil), 200)
	testkit.Expect(t, as(t, tn, editor, "POST", "/pages/"+id+"/draft/approve", nil), http.StatusForbidden,
		"You cannot approve your own draft: another reviewer must approve it.")
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/approve", nil), 200)
	// Review off: the author publishes.
	setReview(t, tn, false)
	must(t, as(t, tn, author, "POST", "/pages/"+id+"/draft/publish", nil), 200)
}

// TestPublishRacingDraftSave: a publish and a save of the same draft at once: one wins, the other
// is a 409, and the live page is the draft as published or unchanged, never a mix.
func TestPublishRacingDraftSave(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, _ := livePage(t, tn, "Race", "<p>Live v0</p>")
	for round := range 6 {
		d := must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"content": fmt.Sprintf("<p>Draft %d</p>", round),
			"title": fmt.Sprintf("Race %d", round)}), 200)
		v := version(d)
		var wg sync.WaitGroup
		var pub, save testkit.Response
		wg.Add(2)
		go func() {
			defer wg.Done()
			pub = as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/publish", map[string]any{"version": v})
		}()
		go func() {
			defer wg.Done()
			save = as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"version": v, "content": fmt.Sprintf("<p>Late %d</p>", round)})
		}()
		wg.Wait()
		if (pub.Status == 200) == (save.Status == 200) || (pub.Status != 200 && pub.Status != 409) || (save.Status != 200 && save.Status != 409) {
			t.Fatalf("round %d: publish %d %s, save %d %s", round, pub.Status, pub.Raw, save.Status, save.Raw)
		}
		live := must(t, as(t, tn, tn.AdminToken, "GET", "/pages/"+id, nil), 200)
		content, title := live.Get("result.content"), live.Get("result.title")
		draft := as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/draft", nil)
		if pub.Status == 200 {
			if content != fmt.Sprintf("<p>Draft %d</p>", round) || title != fmt.Sprintf("Race %d", round) || draft.Get("result.draft") != nil {
				t.Fatalf("round %d: published %v %v, draft %s", round, title, content, draft.Raw)
			}
			continue
		}
		if draft.Get("result.draft.fields.content") != fmt.Sprintf("<p>Late %d</p>", round) || content == fmt.Sprintf("<p>Late %d</p>", round) ||
			title == fmt.Sprintf("Race %d", round) {
			t.Fatalf("round %d: saved, but live %v %v, draft %s", round, title, content, draft.Raw)
		}
		must(t, as(t, tn, tn.AdminToken, "DELETE", "/pages/"+id+"/draft", nil), 200)
	}
}

// TestTrashKeepsTheDraft: deleting a record with a draft takes the draft along (out of the
// lists and routes); restoring the record from the trash brings the draft back as it was.
func TestTrashKeepsTheDraft(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, _ := livePage(t, tn, "Library", "<p>Open 9-5</p>")
	d := must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"content": "<p>Open 8-8</p>"}), 200)
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/submit", nil), 200)
	del := must(t, as(t, tn, tn.AdminToken, "DELETE", "/pages/"+id, nil), 200)
	_ = del
	must(t, as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/draft", nil), 404)
	must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"version": version(d) + 1, "title": "x"}), 404)
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/publish", nil), 404)
	if l := as(t, tn, tn.AdminToken, "GET", "/drafts?state=in_review", nil); l.Get("totalCount") != float64(0) {
		t.Fatalf("a trashed record's draft is listed: %s", l.Raw)
	}
	trash := must(t, as(t, tn, tn.AdminToken, "GET", "/trash", nil), 200)
	ver := trash.Get("result.0.version")
	must(t, as(t, tn, tn.AdminToken, "POST", fmt.Sprintf("/trash/pages/%s/%v/restore", id, ver), map[string]any{}), 200)
	back := must(t, as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/draft", nil), 200)
	if back.Get("result.draft.fields.content") != "<p>Open 8-8</p>" || back.Get("result.draft.state") != "in_review" || back.Get("result.live.content") != "<p>Open 9-5</p>" {
		t.Fatalf("restored draft: %s", back.Raw)
	}
	if l := as(t, tn, tn.AdminToken, "GET", "/drafts?state=in_review", nil); l.Get("totalCount") != float64(1) {
		t.Fatalf("restored draft not listed: %s", l.Raw)
	}
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/publish", nil), 200)
}

// TestScheduledPublishOfDraft: a draft published at a time stays a draft, the live page
// unchanged, until the schedule job runs after that time; a save in between cancels it.
func TestScheduledPublishOfDraft(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	id, slug := livePage(t, tn, "Exams", "<p>Exams in June</p>")
	d := must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"content": "<p>Exams in July</p>"}), 200)
	at := time.Now().UTC().Add(2 * time.Second).Truncate(time.Second).Add(time.Second)
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/publish", map[string]any{"publishAt": "tomorrow"}), http.StatusBadRequest)
	res := must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/publish", map[string]any{"version": version(d), "publishAt": at.Format(time.RFC3339)}), 200)
	if res.Get("result.publishAt") != at.Format(time.RFC3339) {
		t.Fatalf("scheduled: %s", res.Raw)
	}
	svc, err := collections.SharedService(testkit.Deps(t), modules.Linked())
	if err != nil {
		t.Fatal(err)
	}
	job := schedule.New(svc, nil).Only(tn.ID)
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, body := visit(t, tn, "/"+slug); !contains(body, "Exams in June") {
		t.Fatal("published before its time")
	}
	time.Sleep(time.Until(at) + 100*time.Millisecond)
	r, err := job.Run(context.Background())
	if err != nil || r.Moved != 1 {
		t.Fatalf("run: %+v %v", r, err)
	}
	if _, body := visit(t, tn, "/"+slug); !contains(body, "Exams in July") {
		t.Fatal("not published at its time")
	}
	if res := as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/draft", nil); res.Get("result.draft") != nil {
		t.Fatalf("draft left: %s", res.Raw)
	}
	if got := auditActions(t, tn, id); fmt.Sprint(got[len(got)-3:]) != "[draft-create:admin draft-schedule:admin draft-publish:scheduler]" {
		t.Fatalf("audit: %v", got)
	}

	// A save after scheduling cancels the scheduled publish.
	d = must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"content": "<p>Exams in August</p>"}), 200)
	at = time.Now().UTC().Add(time.Second).Truncate(time.Second).Add(time.Second)
	must(t, as(t, tn, tn.AdminToken, "POST", "/pages/"+id+"/draft/publish", map[string]any{"publishAt": at.Format(time.RFC3339)}), 200)
	d = must(t, as(t, tn, tn.AdminToken, "GET", "/pages/"+id+"/draft", nil), 200)
	must(t, as(t, tn, tn.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"version": d.Get("result.draft.version"), "title": "Exams!"}), 200)
	time.Sleep(time.Until(at) + 100*time.Millisecond)
	if r, err := job.Run(context.Background()); err != nil || r.Moved != 0 {
		t.Fatalf("run after the save: %+v %v", r, err)
	}
	if _, body := visit(t, tn, "/"+slug); !contains(body, "Exams in July") {
		t.Fatal("a cancelled schedule published")
	}
}

// TestDraftTenancy: another tenant's token reaches no draft, and a tenant's own token naming
// another tenant's record finds nothing.
func TestDraftTenancy(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	id, _ := livePage(t, a, "Mine", "<p>Mine</p>")
	must(t, as(t, a, a.AdminToken, "PUT", "/pages/"+id+"/draft", map[string]any{"title": "Mine, draft"}), 200)
	for _, m := range []struct{ method, path string }{{"GET", "/draft"}, {"PUT", "/draft"}, {"DELETE", "/draft"}, {"POST", "/draft/submit"},
		{"POST", "/draft/publish"}, {"GET", "/comments"}} {
		var body any
		if m.method == "PUT" {
			body = map[string]any{"title": "Theirs"}
		}
		if res := testkit.Call(t, testkit.Request{Method: m.method, Path: "/pages/" + id + m.path, Tenant: a.ID, Token: b.AdminToken, Body: body}); res.Status != 401 && res.Status != 403 {
			t.Fatalf("%s %s with another tenant's token: %d %s", m.method, m.path, res.Status, res.Raw)
		}
		if res := as(t, b, b.AdminToken, m.method, "/pages/"+id+m.path, body); res.Status != 404 {
			t.Fatalf("%s %s of another tenant's record: %d %s", m.method, m.path, res.Status, res.Raw)
		}
	}
	if l := as(t, b, b.AdminToken, "GET", "/drafts?collection=pages", nil); l.Get("totalCount") != float64(0) {
		t.Fatalf("another tenant's drafts listed: %s", l.Raw)
	}
	if res := as(t, a, a.AdminToken, "GET", "/pages/"+id+"/draft", nil); res.Get("result.draft.fields.title") != "Mine, draft" {
		t.Fatalf("draft changed: %s", res.Raw)
	}
}

var staffSeq atomic.Int64

// newStaff creates a member of staff with an email address and exactly perms, and signs them in.
func newStaff(t *testing.T, tn testkit.Tenant, email string, perms ...string) string {
	t.Helper()
	name := fmt.Sprintf("reviewer%d", staffSeq.Add(1))
	must(t, as(t, tn, tn.AdminToken, "POST", "/users", map[string]any{"firstName": "Staff", "lastName": "Member", "username": name,
		"email": email, "password": "staff-pass-1", "permissionIds": perms}), http.StatusCreated)
	return testkit.Login(t, tn.ID, name, "staff-pass-1")
}

// mailsTo are the tenant's outgoing mails as "to: subject", oldest first.
func mailsTo(t *testing.T, tn testkit.Tenant) []string {
	t.Helper()
	var out []string
	for _, m := range testkit.Outbox(t, tn.ID) {
		out = append(out, m.To+": "+m.Subject)
	}
	return out
}
