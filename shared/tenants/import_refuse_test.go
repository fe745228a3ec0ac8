package tenants_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/imaging/imagingtest"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
	"github.com/campuscms/panel/shared/testkit"
)

// An archive is untrusted input (it comes back from a school moving between deployments): the
// tests below edit an export the way an attacker would (adding entries and writing a manifest
// whose checksums match), and check that the import refuses it, that the tenant it aimed at is
// untouched, and that nothing of the import is left behind.

// archiveEntry is one entry of an archive being edited.
type archiveEntry struct {
	hdr  tar.Header
	body []byte
}

// deploymentKey is the test deployment's key (the development key: no KMS_KEY_ID, no SECRETS_KEY).
func deploymentKey(t *testing.T) secrets.Sealer {
	t.Helper()
	sealer, err := secrets.FromEnv(testkit.Deps(t).AWS)
	if err != nil {
		t.Fatal(err)
	}
	return sealer
}

// exportArchive exports tn, signed with the deployment's key, and returns the archive's path.
func exportArchive(t *testing.T, tn string) string {
	t.Helper()
	return exportSigned(t, tn, deploymentKey(t))
}

func exportSigned(t *testing.T, tn string, sealer secrets.Sealer) string {
	t.Helper()
	d := testkit.Deps(t)
	out := filepath.Join(t.TempDir(), tn+".tar")
	if _, err := (tenants.Export{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Tenant: tn, Out: out, Sealer: sealer}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out
}

// readEntries returns an archive's entries other than the manifest (and its signature).
func readEntries(t *testing.T, path string) []archiveEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	var out []archiveEntry
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(hdr.Name, "manifest.") {
			continue
		}
		out = append(out, archiveEntry{hdr: *hdr, body: body})
	}
}

// repack writes entries as an archive of tenant with a manifest that matches them (and no
// signature: whoever edits an archive has no key); after are written after the manifest.
func repack(t *testing.T, tenant string, entries []archiveEntry, after ...archiveEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crafted.tar")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	m := tenants.Manifest{Format: tenants.ArchiveFormat, Tenant: tenant, CreatedAt: time.Now().UTC()}
	write := func(e archiveEntry) tar.Header {
		hdr := e.hdr
		hdr.Size = int64(len(e.body))
		if err := tw.WriteHeader(&hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.body); err != nil {
			t.Fatal(err)
		}
		return hdr
	}
	for _, e := range entries {
		hdr := write(e)
		sum := sha256.Sum256(e.body)
		m.Entries = append(m.Entries, tenants.ManifestEntry{Name: hdr.Name, Size: hdr.Size, SHA256: hex.EncodeToString(sum[:])})
	}
	raw, _ := json.Marshal(m)
	if err := tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o600, Size: int64(len(raw))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(raw); err != nil {
		t.Fatal(err)
	}
	for _, e := range after {
		write(e)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// signatureOf is an archive's manifest.sig entry.
func signatureOf(t *testing.T, path string) archiveEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err != nil {
			t.Fatalf("no signature in %s: %v", path, err)
		}
		if hdr.Name == "manifest.sig" {
			body, _ := io.ReadAll(tr)
			return archiveEntry{hdr: *hdr, body: body}
		}
	}
}

// itemsEntry is an items/ entry holding the given items (DynamoDB JSON lines).
func itemsEntry(t *testing.T, name string, items ...dynamo.Item) archiveEntry {
	t.Helper()
	var buf bytes.Buffer
	for _, it := range items {
		enc, err := tenants.EncodeItemJSON(it)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(enc)
		buf.WriteByte('\n')
	}
	return archiveEntry{hdr: tar.Header{Name: name, Mode: 0o600, Format: tar.FormatPAX}, body: buf.Bytes()}
}

// objectEntry is an objects/ entry of key with a content type.
func objectEntry(key, contentType string, body []byte) archiveEntry {
	return archiveEntry{hdr: tar.Header{Name: "objects/" + key, Mode: 0o600, Format: tar.FormatPAX,
		PAXRecords: map[string]string{"CAMPUSCMS.content-type": contentType}}, body: body}
}

// rawItems counts every item under a tenant's keys, whatever its kind.
func rawItems(t *testing.T, tenant string) int {
	t.Helper()
	var items []dynamo.Item
	root := "T#" + tenant
	if err := testkit.Deps(t).Store.Table.Scan().Filter("$ = ? OR begins_with($, ?)", "PK", root, "PK", root+"#").
		Consistent(true).All(context.Background(), &items); err != nil {
		t.Fatal(err)
	}
	return len(items)
}

// userItem reads a user's item as stored.
func userItem(t *testing.T, tenant, id string) dynamo.Item {
	t.Helper()
	scope, _ := store.NewScope(tenant)
	var it dynamo.Item
	if err := testkit.Deps(t).Store.Table.Get("PK", scope.Collection("users")).Range("SK", dynamo.Equal, id).One(context.Background(), &it); err != nil {
		t.Fatal(err)
	}
	return it
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// TestImportRefusesItemsOfOtherTenants: an archive that carries items for another tenant's keys
// (its users, its username markers, a GSI key of its lists) or for a global partition (a host
// lookup, DOMAIN#) is refused, naming the item. The other tenant is untouched: nobody new signs
// in there, its admin still does, its host still maps to it; the target tenant has no item.
func TestImportRefusesItemsOfOtherTenants(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src, victim := testkit.NewTenant(t), testkit.NewTenant(t)
	victimHost := victim.ID + ".example.org"
	testkit.SetDomains(t, victim.ID, victimHost)
	testkit.LibraryJPEG(t, victim.ID, "crest.jpg", imagingtest.Photo(t, 32, 24, 2))
	archive := exportArchive(t, src.ID)
	srcScope, _ := store.NewScope(src.ID)
	victimScope, _ := store.NewScope(victim.ID)

	// An admin of the victim who signs in with the source admin's password.
	intruderID := ids.New()
	intruder := userItem(t, src.ID, src.AdminID)
	intruder["PK"], intruder["SK"], intruder["id"] = s(victimScope.Collection("users")), s(intruderID), s(intruderID)
	intruder["username"] = s("intruder")
	intruderMarker := dynamo.Item{"PK": s(victimScope.Partition("USERNAME")), "SK": s("intruder"), "userId": s(intruderID)}
	// The victim's own admin marker, pointed at nobody: its admin could no longer sign in.
	hijackedMarker := dynamo.Item{"PK": s(victimScope.Partition("USERNAME")), "SK": s("admin"), "userId": s(ids.New())}
	// A record of the source's own partition listed in the victim's users list.
	listed := userItem(t, src.ID, src.AdminID)
	listed["SK"], listed["id"], listed["username"] = s(intruderID), s(intruderID), s("listed")
	listed["GSI1PK"] = s(victimScope.Collection("users"))
	// The victim's website host mapped to the imported tenant.
	hostLookup := dynamo.Item{"PK": s("DOMAIN#" + victimHost), "SK": s("DOMAIN"), "host": s(victimHost), "tenantId": s(src.ID)}
	// A due item in the scheduler's global index that does not sit in the source's own due partition.
	strayDue := dynamo.Item{"PK": s(srcScope.Collection("faqs")), "SK": s(ids.New()), "GSI3PK": s("DUE"), "GSI3SK": s("2000-01-01T00:00:00Z#x")}

	cases := []struct {
		name  string
		items []dynamo.Item
		want  string // the refusal names the offending item
	}{
		{"user under another tenant's partition", []dynamo.Item{intruder, intruderMarker}, victimScope.Collection("users") + "|" + intruderID},
		{"username marker of another tenant", []dynamo.Item{hijackedMarker}, victimScope.Partition("USERNAME") + "|admin"},
		{"index key of another tenant", []dynamo.Item{listed}, "GSI1PK " + victimScope.Collection("users")},
		{"host lookup", []dynamo.Item{hostLookup}, "DOMAIN#" + victimHost + "|DOMAIN"},
		{"global index partition outside the due items", []dynamo.Item{strayDue}, "GSI3PK DUE"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			victimItems, victimObjects := itemsOf(t, victim.ID), objectsOf(t, victim.ID)
			entries := append(readEntries(t, archive), itemsEntry(t, "items/999999.jsonl", c.items...))
			crafted := repack(t, src.ID, entries)
			dst := fmt.Sprintf("t-crafted-%d-%s", i, strings.ToLower(src.ID[len(src.ID)-6:]))
			_, err := craftedImport(d, crafted, dst).Run(ctx)
			if !errors.Is(err, tenants.ErrArchive) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("import: %v, want a refusal naming %q", err, c.want)
			}
			// The victim: nobody new signs in, its admin still does, its host is its own.
			res := testkit.Call(t, testkit.Request{Method: "POST", Path: "/auth/login", Tenant: victim.ID,
				Body: map[string]any{"username": "intruder", "password": src.AdminPassword}})
			if res.Status == 200 {
				t.Fatalf("an intruder signed in to the victim: %s", res.Raw)
			}
			testkit.Login(t, victim.ID, victim.AdminUsername, victim.AdminPassword)
			if got, err := d.Store.TenantOfHost(ctx, victimHost); err != nil || got != victim.ID {
				t.Fatalf("host %s maps to %q (%v)", victimHost, got, err)
			}
			if a, b := fmt.Sprint(victimItems), fmt.Sprint(itemsOf(t, victim.ID)); a != b {
				t.Fatalf("the victim's items changed:\n%s\n%s", a, b)
			}
			if a, b := fmt.Sprint(victimObjects), fmt.Sprint(objectsOf(t, victim.ID)); a != b {
				t.Fatalf("the victim's objects changed:\n%s\n%s", a, b)
			}
			noTrace(t, dst) // no partial import
		})
	}
}

// TestImportRefusesObjectsOutsideTheSourcePrefixes: an object of the archive under another
// tenant's prefix (an HTML page in its media library) or outside every tenant prefix is
// refused, naming the entry; nothing lands in the victim's prefix and nothing is imported.
func TestImportRefusesObjectsOutsideTheSourcePrefixes(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src, victim := testkit.NewTenant(t), testkit.NewTenant(t)
	testkit.LibraryJPEG(t, src.ID, "logo.jpg", imagingtest.Photo(t, 32, 24, 3))
	testkit.LibraryJPEG(t, victim.ID, "crest.jpg", imagingtest.Photo(t, 32, 24, 2))
	archive := exportArchive(t, src.ID)
	page := []byte("<html><script>alert(document.cookie)</script></html>")
	cases := []struct{ name, key string }{
		{"another tenant's media", "media/" + victim.ID + "/" + ids.New() + "/index.html"},
		{"another tenant's uploads", "uploads/" + victim.ID + "/" + ids.New() + "/index.html"},
		{"outside every tenant", "index.html"},
		{"a dot segment out of the source's prefix", "media/" + src.ID + "/../" + victim.ID + "/index.html"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			victimObjects := objectsOf(t, victim.ID)
			entries := append(readEntries(t, archive), objectEntry(c.key, "text/html", page))
			crafted := repack(t, src.ID, entries)
			dst := fmt.Sprintf("t-obj-%d-%s", i, strings.ToLower(src.ID[len(src.ID)-6:]))
			_, err := craftedImport(d, crafted, dst).Run(ctx)
			if !errors.Is(err, tenants.ErrArchive) || !strings.Contains(err.Error(), "objects/"+c.key) {
				t.Fatalf("import: %v, want a refusal naming objects/%s", err, c.key)
			}
			if a, b := fmt.Sprint(victimObjects), fmt.Sprint(objectsOf(t, victim.ID)); a != b {
				t.Fatalf("the victim's objects changed:\n%s\n%s", a, b)
			}
			noTrace(t, dst)
		})
	}
}

// sparseEntry is the 512-byte header of an old-GNU sparse file entry that declares size bytes
// and stores none: a tar reader hands out size zero bytes for it.
func sparseEntry(name string, size int64) []byte {
	h := make([]byte, 512)
	copy(h[0:], name)
	copy(h[100:], "0000600\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	copy(h[124:], "00000000000\x00") // stored bytes: none
	copy(h[136:], "00000000000\x00")
	h[156] = 'S'
	copy(h[257:], "ustar  \x00")
	// realsize, base-256: the size a reader reports.
	h[483] = 0x80
	binary.BigEndian.PutUint64(h[487:495], uint64(size))
	copy(h[148:156], "        ")
	var sum int64
	for _, b := range h {
		sum += int64(b)
	}
	copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
	return h
}

// TestImportRefusesAHugeDeclaredEntry: a 10 kB archive whose sparse entry declares 8 GiB is
// refused by its header, naming the entry and the limit, before its body is read.
func TestImportRefusesAHugeDeclaredEntry(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	archive := exportArchive(t, src.ID)
	for i, name := range []string{"items/000099.jsonl", "objects/media/" + src.ID + "/" + ids.New() + "/huge.jpg"} {
		t.Run(name, func(t *testing.T) {
			// The export's entries, then the sparse entry, then the end of the archive.
			raw, err := os.ReadFile(repack(t, src.ID, readEntries(t, archive)))
			if err != nil {
				t.Fatal(err)
			}
			// Cut off the end-of-archive blocks: back to the 512-byte boundary after the
			// manifest's data (its JSON ends in '}', never in a zero byte).
			raw = bytes.TrimRight(raw, "\x00")
			raw = raw[:(len(raw)+511)/512*512]
			raw = append(raw, sparseEntry(name, 8<<30)...)
			raw = append(raw, make([]byte, 1024)...)
			crafted := filepath.Join(t.TempDir(), "sparse.tar")
			if err := os.WriteFile(crafted, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			// The file is small; the entry a reader sees is not.
			tr := tar.NewReader(bytes.NewReader(raw))
			var declared int64
			for {
				hdr, err := tr.Next()
				if err != nil {
					break
				}
				if hdr.Name == name {
					declared = hdr.Size
				}
			}
			if len(raw) > 64<<10 || declared != 8<<30 {
				t.Fatalf("crafted archive: %d bytes, entry declares %d", len(raw), declared)
			}
			dst := fmt.Sprintf("t-huge-%d-%s", i, strings.ToLower(src.ID[len(src.ID)-6:]))
			_, err = craftedImport(d, crafted, dst).Run(ctx)
			if !errors.Is(err, tenants.ErrArchive) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "8589934592 bytes") {
				t.Fatalf("import: %v, want a refusal naming %s and its declared size", err, name)
			}
			noTrace(t, dst)
		})
	}
}

// craftedImport is the import of a crafted archive into dst by an operator who trusts it: every
// check but the signature's still applies.
func craftedImport(d *app.Deps, archive, dst string) tenants.Import {
	return tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: archive, Tenant: dst, TrustUnsigned: true}
}

// noTrace fails the test if the refused import into dst left an item or an object.
func noTrace(t *testing.T, dst string) {
	t.Helper()
	if n := rawItems(t, dst); n != 0 {
		t.Fatalf("%d items of %s left by a refused import", n, dst)
	}
	if o := objectsOf(t, dst); len(o) != 0 {
		t.Fatalf("objects of %s left by a refused import: %v", dst, o)
	}
}

// TestImportRefusesTooManyEntries: an archive with more entries than allowed is refused by its
// headers, naming the limit and how to raise it; within the limit it imports.
func TestImportRefusesTooManyEntries(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	for i := range 3 {
		testkit.LibraryJPEG(t, src.ID, fmt.Sprintf("photo-%d.jpg", i), imagingtest.Photo(t, 16, 12, uint16(i)))
	}
	archive := exportArchive(t, src.ID)
	entries := len(readEntries(t, archive)) + 2 // and the manifest and its signature
	suffix := strings.ToLower(src.ID[len(src.ID)-6:])
	im := tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: archive,
		Tenant: "t-many-" + suffix, Sealer: deploymentKey(t), MaxEntries: entries - 1}
	_, err := im.Run(ctx)
	if !errors.Is(err, tenants.ErrArchive) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d entries", entries-1)) ||
		!strings.Contains(err.Error(), "--max-entries") {
		t.Fatalf("import: %v, want a refusal for more than %d entries", err, entries-1)
	}
	noTrace(t, im.Tenant)
	im.MaxEntries = entries
	if res, err := im.Run(ctx); err != nil || res.Objects != 3 || !res.Signed {
		t.Fatalf("import within the limit: %+v %v", res, err)
	}
}

// TestImportChecksTheSignature: an archive the deployment signed imports; one edited since (a
// manifest to match, no signature, or the old signature kept), one signed by another
// deployment's key, or any archive when the import has no key, is refused unless the operator
// trusts it, and then imports with the other checks.
func TestImportChecksTheSignature(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	key := deploymentKey(t)
	signed := exportArchive(t, src.ID)
	otherKey, err := secrets.NewLocal(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := exportSigned(t, src.ID, otherKey)
	// An edit within the source's own keys: a second admin, with the source admin's password.
	edited := readEntries(t, signed)
	extra := userItem(t, src.ID, src.AdminID)
	extraID := ids.New()
	extra["SK"], extra["id"], extra["username"] = s(extraID), s(extraID), s("extra-admin")
	edited = append(edited, itemsEntry(t, "items/999999.jsonl", extra))
	unsigned := repack(t, src.ID, edited)
	forged := repack(t, src.ID, edited, signatureOf(t, signed))

	suffix := strings.ToLower(src.ID[len(src.ID)-6:])
	cases := []struct {
		name    string
		archive string
		key     secrets.Sealer
		want    string // "" imports
	}{
		{"signed here", signed, key, ""},
		{"edited, unsigned", unsigned, key, "no manifest.sig"},
		{"edited, old signature", forged, key, "does not match its manifest"},
		{"signed by another deployment", elsewhere, key, "does not match its manifest"},
		{"no key to check with", signed, nil, "no deployment key"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			im := tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: c.archive,
				Tenant: fmt.Sprintf("t-sig-%d-%s", i, suffix), Sealer: c.key}
			res, err := im.Run(ctx)
			if c.want == "" {
				if err != nil || !res.Signed {
					t.Fatalf("import: %+v %v", res, err)
				}
				return
			}
			if !errors.Is(err, tenants.ErrUnsigned) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--trust-unsigned") {
				t.Fatalf("import: %v, want a refusal with %q", err, c.want)
			}
			noTrace(t, im.Tenant)
			im.TrustUnsigned = true
			if res, err = im.Run(ctx); err != nil || res.Signed || !strings.Contains(res.Unsigned, c.want) {
				t.Fatalf("trusted import: %+v %v", res, err)
			}
		})
	}
}

// TestImportNeverOverwrites: an item already under the new id's keys (left by something else)
// stops the import, which then deletes what it wrote; the item there is left as it was.
func TestImportNeverOverwrites(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	src := testkit.NewTenant(t)
	fill(t, src, src.ID+".example.org")
	archive := exportArchive(t, src.ID)
	dst := "t-taken-" + strings.ToLower(src.ID[len(src.ID)-6:])
	dstScope, _ := store.NewScope(dst)
	leftover := userItem(t, src.ID, src.AdminID)
	leftover["PK"], leftover["username"] = s(dstScope.Collection("users")), s("left-over")
	if err := d.Store.Table.Put(leftover).Run(ctx); err != nil {
		t.Fatal(err)
	}
	before := itemsOf(t, dst)
	_, err := (tenants.Import{St: d.Store, S3: s3client.New(d.AWS), Bucket: d.Config.MediaBucket, Archive: archive, Tenant: dst,
		Sealer: deploymentKey(t)}).Run(ctx)
	if err == nil || !strings.Contains(err.Error(), dstScope.Collection("users")+"|"+src.AdminID+" exists already") ||
		!strings.Contains(err.Error(), "nothing of the import was kept") {
		t.Fatalf("import over an item: %v", err)
	}
	if after := itemsOf(t, dst); fmt.Sprint(after) != fmt.Sprint(before) || rawItems(t, dst) != 1 {
		t.Fatalf("items under %s after the refused import:\n%v\nwant\n%v", dst, after, before)
	}
	if o := objectsOf(t, dst); len(o) != 0 {
		t.Fatalf("objects of %s left by a refused import: %v", dst, o)
	}
}
