package wpimport_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/testkit"
	"github.com/campuscms/panel/shared/wpimport"
)

func TestMain(m *testing.M) { testkit.Main(m) }

type call = testkit.Request

// uploads is a copy of the fixture site's wp-content/uploads: its three images (the scaled one
// under the name WordPress gave it), and with broken, the first one is markup named .jpg.
func uploads(t *testing.T, broken bool) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"2008/06/canola2.jpg", "2019/03/school-front.jpg", "2024/03/concert-hall-scaled.jpg"} {
		body := testkit.SmallJPEG(t)
		if broken && strings.Contains(name, "canola2") {
			body = []byte("<html><body><script>alert(document.cookie)</script></body></html>")
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fixture(name string) wpimport.Opener {
	return func() (io.ReadCloser, error) { return os.Open(filepath.Join("testdata", name)) }
}

// importer is the package's importer over the test binary's services, with files from dir.
func importer(t *testing.T, dir string) *wpimport.Importer {
	t.Helper()
	svc, err := collections.BuiltService(testkit.Deps(t))
	if err != nil {
		t.Fatal(err)
	}
	files, err := wpimport.NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return wpimport.NewRunner(testkit.Deps(t), svc, files).Importer
}

func list(t *testing.T, tn testkit.Tenant, path string) []map[string]any {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: path, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, 200, "")
	raw, _ := res.Body["result"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		out = append(out, r.(map[string]any))
	}
	return out
}

func byField(recs []map[string]any, field, value string) map[string]any {
	for _, r := range recs {
		if r[field] == value {
			return r
		}
	}
	return nil
}

func detail(t *testing.T, tn testkit.Tenant, collection, id string) map[string]any {
	t.Helper()
	res := testkit.Call(t, call{Method: "GET", Path: "/" + collection + "/" + id, Tenant: tn.ID, Token: tn.AdminToken})
	testkit.Expect(t, res, 200, "")
	return res.Body["result"].(map[string]any)
}

func TestImportASite(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	caller := testkit.AdminCaller(t, tn)
	im := importer(t, uploads(t, false))
	rep, err := im.Run(context.Background(), caller, fixture("small.xml"), wpimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := rep.Text()
	t.Log("\n" + text)
	for kind, n := range map[string]int{wpimport.KindPage: 3, wpimport.KindNotice: 4, wpimport.KindMedia: 3} {
		if rep.Imported[kind] != n {
			t.Errorf("imported %s: %d, want %d", kind, rep.Imported[kind], n)
		}
	}
	for what, n := range map[string]int{"draft pages": 1, "private pages": 1, "password-protected pages": 1, "trashed pages": 1, "comments": 1, "users": 1} {
		if rep.Skipped[what] != n {
			t.Errorf("skipped %s: %d, want %d", what, rep.Skipped[what], n)
		}
	}
	for _, want := range []string{"[contact-form-7] in the page \"Admissions\"", "block latest-posts", "categories (not kept): Events, News",
		"tags (not kept): Music, Sports", "2015/01/old-badge.gif", "had no title", "\"Term dates\" had no content",
		"Menu \"Footer\" was not imported", "Menu items more than two levels deep: 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not say %q", want)
		}
	}

	// Pages: a child's slug keeps its parent; SEO from Yoast and Rank Math; images and links
	// rewritten to the imported copies and the new addresses; the featured image.
	pages := list(t, tn, "/pages?limit=50")
	history := byField(pages, "slug", "about-us-history")
	about := byField(pages, "slug", "about-us")
	admissions := byField(pages, "slug", "admissions")
	if history == nil || about == nil || admissions == nil {
		t.Fatalf("pages: %v", pages)
	}
	h := detail(t, tn, "pages", history["id"].(string))
	content := h["content"].(string)
	if !strings.Contains(content, "/media/"+tn.ID+"/") || strings.Contains(content, "srcset") {
		t.Errorf("history's images are not the imported copies: %s", content)
	}
	if !strings.Contains(content, `href="/about-us"`) {
		t.Errorf("history's link to /?page_id=2 is not /about-us: %s", content)
	}
	if !strings.Contains(content, "old-badge.gif") {
		t.Errorf("a missing image should keep its old address: %s", content)
	}
	a := detail(t, tn, "pages", about["id"].(string))
	if a["metaTitle"] == "" || a["metaTitle"] == nil || a["metaDescription"] == nil || a["image"] == nil || a["image"] == "" {
		t.Errorf("about us lost its Yoast fields or featured image: %v", a)
	}
	if d := detail(t, tn, "pages", admissions["id"].(string)); d["metaTitle"] == nil || strings.Contains(d["content"].(string), "contact-form-7") {
		t.Errorf("admissions: Rank Math title or shortcode: %v", d)
	}

	// Posts become notices: the untitled one gets a title, scripts never reach the content.
	notices := list(t, tn, "/notices?limit=50")
	if len(notices) != 4 {
		t.Fatalf("notices: %d", len(notices))
	}
	for _, n := range notices {
		d := detail(t, tn, "notices", n["id"].(string))
		c, _ := d["content"].(string)
		if strings.Contains(c, "<script") || strings.Contains(c, "onerror") || d["title"] == "" || d["message"] == "" {
			t.Errorf("notice %v", d)
		}
	}
	sports := byField(notices, "title", "Sports day results")
	if sports == nil || !strings.Contains(detail(t, tn, "notices", sports["id"].(string))["content"].(string), "<figcaption>") {
		t.Errorf("the [caption] did not become a figure: %v", sports)
	}

	// Media with their alt text; the menu, two levels; redirects from the old addresses.
	media := list(t, tn, "/media?limit=50")
	if len(media) != 3 {
		t.Errorf("media: %v", media)
	}
	for _, m := range media {
		if alt, _ := m["altText"].(string); alt == "" {
			t.Errorf("%v lost its alt text", m["name"])
		}
	}
	menu := testkit.Call(t, call{Method: "GET", Path: "/menu-items", Tenant: tn.ID, Token: tn.AdminToken})
	if !strings.Contains(string(menu.Raw), "School archive") || !strings.Contains(string(menu.Raw), `"type":"PAGE"`) {
		t.Errorf("menu: %s", menu.Raw)
	}
	redirects := list(t, tn, "/redirects?limit=100")
	for _, from := range []string{"/about-us/history", "/?page_id=3", "/?p=10", "/2024/06/14/sports-day-results"} {
		if byField(redirects, "fromPath", from) == nil {
			t.Errorf("no redirect from %s: %v", from, redirects)
		}
	}
	if r := byField(redirects, "fromPath", "/about-us/history"); r != nil && r["to"] != "/about-us-history" {
		t.Errorf("redirect to %v", r["to"])
	}

	// Every write is the engine's: audited as the caller.
	audit := testkit.Call(t, call{Method: "GET", Path: "/audit-log?limit=100", Tenant: tn.ID, Token: tn.AdminToken})
	if !strings.Contains(string(audit.Raw), `"username":"admin","action":"create","collection":"pages"`) {
		t.Errorf("the import's writes are not in the audit log: %.400s", audit.Raw)
	}

	// Again: nothing new, nothing copied, nothing changed.
	again, err := im.Run(context.Background(), caller, fixture("small.xml"), wpimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Imported) != 0 || len(again.Updated) != 0 {
		t.Errorf("a second run wrote again: imported %v updated %v", again.Imported, again.Updated)
	}
	if again.Unchanged[wpimport.KindPage] != 3 || again.Unchanged[wpimport.KindNotice] != 4 || again.Unchanged[wpimport.KindMedia] != 3 {
		t.Errorf("second run: %v", again.Unchanged)
	}
	if n := len(list(t, tn, "/pages?limit=50")); n != 3 {
		t.Errorf("pages after a second run: %d", n)
	}
}

// A dry run reads and reports as an import does, and writes nothing.
func TestDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	im := importer(t, uploads(t, false))
	rep, err := im.Run(context.Background(), testkit.AdminCaller(t, tn), fixture("small.xml"), wpimport.Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported[wpimport.KindPage] != 3 || rep.Imported[wpimport.KindMedia] != 3 || rep.Imported[wpimport.KindRedirect] == 0 {
		t.Errorf("dry run: %v", rep.Imported)
	}
	if !strings.Contains(rep.Text(), "Would import") || !strings.Contains(rep.Text(), "contact-form-7") {
		t.Errorf("dry run report:\n%s", rep.Text())
	}
	for _, path := range []string{"/pages", "/notices", "/media", "/redirects"} {
		if n := len(list(t, tn, path)); n != 0 {
			t.Errorf("a dry run wrote %d to %s", n, path)
		}
	}
}

// A run stopped half way (a crash after the fifth step) is resumed from its checkpoint: the end
// is as one run's, nothing written twice.
func TestAStoppedImportResumes(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	caller := testkit.AdminCaller(t, tn)
	im := importer(t, uploads(t, false))
	crash := errors.New("the function ran out of time")
	var at wpimport.Checkpoint
	rep, err := im.Run(context.Background(), caller, fixture("small.xml"), wpimport.Options{
		Progress: func(p wpimport.Progress, _ *wpimport.Report) error {
			at = p.At
			if p.Done == 5 {
				return crash
			}
			return nil
		}})
	if !errors.Is(err, crash) || at.Step != 5 {
		t.Fatalf("first run: %v at %v", err, at)
	}
	if n := len(list(t, tn, "/pages")) + len(list(t, tn, "/notices")); n >= 7 {
		t.Fatalf("the first run wrote everything: %d", n)
	}
	rep, err = im.Run(context.Background(), caller, fixture("small.xml"), wpimport.Options{From: at, Report: rep})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported[wpimport.KindPage] != 3 || rep.Imported[wpimport.KindNotice] != 4 || rep.Imported[wpimport.KindMedia] != 3 {
		t.Errorf("resumed: %v\n%s", rep.Imported, rep.Text())
	}
	if n := len(list(t, tn, "/pages")); n != 3 {
		t.Errorf("pages: %d", n)
	}
}

// Markup named as a JPEG is refused as an upload would be, reported, and its uses keep the old
// address; the rest is imported.
func TestHostileAttachment(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	rep, err := importer(t, uploads(t, true)).Run(context.Background(), testkit.AdminCaller(t, tn), fixture("small.xml"), wpimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Imported[wpimport.KindMedia] != 2 || !strings.Contains(rep.Text(), "canola2.jpg: The file's contents do not match its type.") {
		t.Errorf("report:\n%s", rep.Text())
	}
	if n := len(list(t, tn, "/media")); n != 2 {
		t.Errorf("media: %d", n)
	}
}

// An import writes as its caller in its caller's tenant only: another tenant sees none of it.
func TestImportStaysInItsTenant(t *testing.T) {
	t.Parallel()
	a, b := testkit.NewTenant(t), testkit.NewTenant(t)
	if _, err := importer(t, uploads(t, false)).Run(context.Background(), testkit.AdminCaller(t, a), fixture("small.xml"), wpimport.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/pages", "/notices", "/media", "/redirects"} {
		if n := len(list(t, b, path)); n != 0 {
			t.Errorf("tenant b sees %d of a's %s", n, path)
		}
	}
}
