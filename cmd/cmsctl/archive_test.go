package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/testkit"
)

func TestExportImportCommands(t *testing.T) {
	tn := testkit.NewTenant(t)
	file := filepath.Join(t.TempDir(), "x.tar")
	copyID := tn.ID + "-copy"
	runSteps(t, []step{
		{"export", "tenant export --id " + tn.ID + " --out " + file, "", "signed with this deployment's key"},
		{"export unknown", "tenant export --id nobody-here --out " + file + "2", "not found", ""},
		{"import", "tenant import --archive " + file + " --id " + copyID, "", "its signature checked"},
		{"import again", "tenant import --archive " + file + " --id " + copyID, "exists already", ""},
		{"import without id", "tenant import --archive " + file, "usage:", ""},
	})
	testkit.Login(t, copyID, tn.AdminUsername, tn.AdminPassword)
}

// TestImportCommandRefusesUntrustedArchives: an archive without this deployment's signature is
// refused with a hint at --trust-unsigned, and imported with it; --max-entries caps the entries;
// the help text says what an import refuses.
func TestImportCommandRefusesUntrustedArchives(t *testing.T) {
	tn := testkit.NewTenant(t)
	dir := t.TempDir()
	signed := filepath.Join(dir, "signed.tar")
	runSteps(t, []step{{"export", "tenant export --id " + tn.ID + " --out " + signed, "", "exported to"}})
	unsigned := testkit.RewriteArchive(t, signed, tn.ID, nil)
	runSteps(t, []step{
		{"unsigned", "tenant import --archive " + unsigned + " --id " + tn.ID + "-a", "no manifest.sig; import it only if you trust where it came from (--trust-unsigned)", ""},
		{"too many entries", "tenant import --archive " + signed + " --id " + tn.ID + "-b --max-entries 1", "more than 1 entries", ""},
		{"unsigned, trusted", "tenant import --archive " + unsigned + " --id " + tn.ID + "-c --trust-unsigned", "", "imported because of --trust-unsigned"},
	})
	testkit.Login(t, tn.ID+"-c", tn.AdminUsername, tn.AdminPassword)
	if u := fullUsage(); !strings.Contains(u, "--trust-unsigned") || !strings.Contains(u, "--max-entries") || !strings.Contains(u, "another tenant's") {
		t.Fatalf("the help text does not say what an import refuses:\n%s", u)
	}
}
