package main

import (
	"archive/tar"
	"io"
	"os"
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
	signed, unsigned := filepath.Join(dir, "signed.tar"), filepath.Join(dir, "unsigned.tar")
	runSteps(t, []step{{"export", "tenant export --id " + tn.ID + " --out " + signed, "", "exported to"}})
	withoutSignature(t, signed, unsigned)
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

// withoutSignature copies an archive without its manifest.sig.
func withoutSignature(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	tr, tw := tar.NewReader(in), tar.NewWriter(out)
	signed := false
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Name == "manifest.sig" {
			signed = true
			continue
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(tw, tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil || !signed {
		t.Fatalf("close %v; the export was signed: %v", err, signed)
	}
}
