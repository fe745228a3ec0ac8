package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

// The command checks an export (writing nothing), imports it with files from a folder, prints
// its progress and the report, and a second run changes nothing; a bad file says why.
func TestImportWordPress(t *testing.T) {
	tn := testkit.NewTenant(t)
	export, err := filepath.Abs("../../shared/wpimport/testdata/small.xml")
	if err != nil {
		t.Fatal(err)
	}
	uploads := t.TempDir()
	if err := os.MkdirAll(filepath.Join(uploads, "2019", "03"), 0o755); err != nil {
		t.Fatal(err)
	}
	// One of the three images; the others are reported missing (their uses keep their addresses).
	jpeg := testkit.SmallJPEG(t)
	if err := os.WriteFile(filepath.Join(uploads, "2019", "03", "school-front.jpg"), jpeg, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := func(extra string) string {
		t.Helper()
		var out bytes.Buffer
		args := strings.Fields("tenant import-wordpress --id " + tn.ID + " --file " + export + " --media-dir " + uploads + " " + extra)
		if err := run(context.Background(), args, &out); err != nil {
			t.Fatalf("%s: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	dry := cmd("--dry-run")
	for _, want := range []string{"Would import:", "pages: 3 new", "notices: 4 new", "media: 1 new", "1 draft page", "[contact-form-7]", "canola2.jpg: not found in the media folder"} {
		if !strings.Contains(dry, want) {
			t.Errorf("dry run: no %q in\n%s", want, dry)
		}
	}
	res := testkit.Call(t, testkit.Request{Method: "GET", Path: "/pages", Tenant: tn.ID, Token: tn.AdminToken})
	if n, _ := res.Get("totalCount").(float64); n != 0 {
		t.Fatalf("a dry run wrote %v pages", n)
	}
	out := cmd("")
	for _, want := range []string{"redirects 12/12", "Imported:", "pages: 3 new", "redirects:", "done in"} {
		if !strings.Contains(out, want) {
			t.Errorf("import: no %q in\n%s", want, out)
		}
	}
	again := cmd("")
	if !strings.Contains(again, "pages: 0 new, 3 already up to date") {
		t.Errorf("second run:\n%s", again)
	}
	audit := testkit.Call(t, testkit.Request{Method: "GET", Path: "/audit-log?collection=pages", Tenant: tn.ID, Token: tn.AdminToken})
	if !strings.Contains(string(audit.Raw), `"username":"cmsctl"`) {
		t.Errorf("the import's writes are not the operator's: %.300s", audit.Raw)
	}

	var buf bytes.Buffer
	err = run(context.Background(), []string{"tenant", "import-wordpress", "--id", tn.ID, "--file", "../../shared/wpimport/testdata/notwxr.html"}, &buf)
	if err == nil || !strings.Contains(err.Error(), "not a WordPress export") {
		t.Errorf("a web page: %v", err)
	}
	if err := run(context.Background(), []string{"tenant", "import-wordpress", "--id", tn.ID}, &buf); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("no --file: %v", err)
	}
}
