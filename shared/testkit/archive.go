package testkit

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/campuscms/panel/shared/tenants"
)

// RewriteArchive copies a tenant archive, passing each entry's body through edit (nil: as is), with
// a manifest that matches the edited entries and no signature, as whoever edits an archive would
// (they have no key). It returns the new archive's path.
func RewriteArchive(t *testing.T, path, tenant string, edit func(name string, body []byte) []byte) string {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	outPath := filepath.Join(t.TempDir(), "crafted.tar")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	tw := tar.NewWriter(out)
	m := tenants.Manifest{Format: tenants.ArchiveFormat, Tenant: tenant}
	tr := tar.NewReader(in)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(hdr.Name, "manifest.") {
			if hdr.Name == "manifest.json" {
				var orig tenants.Manifest
				if err := json.Unmarshal(body, &orig); err != nil {
					t.Fatal(err)
				}
				m.CreatedAt, m.Items, m.Objects, m.ObjectBytes = orig.CreatedAt, orig.Items, orig.Objects, orig.ObjectBytes
			}
			continue
		}
		if edit != nil {
			body = edit(hdr.Name, body)
		}
		hdr.Size = int64(len(body))
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		m.Entries = append(m.Entries, tenants.ManifestEntry{Name: hdr.Name, Size: hdr.Size, SHA256: hex.EncodeToString(sum[:])})
	}
	raw, _ := json.Marshal(m)
	if err := tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o600, Size: int64(len(raw))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return outPath
}
