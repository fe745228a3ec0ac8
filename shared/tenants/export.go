package tenants

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
)

// A tenant's archive: one tar stream with every item of the tenant (DynamoDB JSON lines, in
// pages of a Query of each of its partitions) under items/, every media object under objects/{key}, and manifest.json last:
// the tenant, the counts and each entry's size and SHA-256. It is written to FILE.part with a
// checkpoint beside it (FILE.part.state) after every entry; an export that stopped is resumed by
// running it again (the file is cut back to the last whole entry, and the Queries and the object
// listing go on from where they were), and renamed to FILE when the manifest is in. With the
// deployment's key (Sealer), manifest.sig follows the manifest: its signature (archive_check.go).

// ArchiveFormat names the archive layout in its manifest.
const ArchiveFormat = "campuscms-tenant/1"

// Manifest is an archive's table of contents.
type Manifest struct {
	Format      string          `json:"format"`
	Tenant      string          `json:"tenant"`
	CreatedAt   time.Time       `json:"createdAt"`
	Items       int             `json:"items"`
	Objects     int             `json:"objects"`
	ObjectBytes int64           `json:"objectBytes"`
	Entries     []ManifestEntry `json:"entries"`
}

// ManifestEntry is one entry of the archive and its checksum.
type ManifestEntry struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// exportState is the checkpoint of an export in progress.
type exportState struct {
	Tenant    string   `json:"tenant"`
	Offset    int64    `json:"offset"`
	Manifest  Manifest `json:"manifest"`
	Page      int      `json:"page"`
	ItemsDone bool     `json:"itemsDone"`
	// Partitions are the tenant's partitions as listed when the export began (tenantPartitions),
	// Part the one being read and QueryFrom where its Query goes on.
	Partitions []string       `json:"partitions,omitempty"`
	Part       int            `json:"part"`
	QueryFrom  map[string]any `json:"queryFrom,omitempty"`
	Prefix     int            `json:"prefix"`
	After      string         `json:"after"`
}

// exportObjects is what an export needs of S3.
type exportObjects interface {
	ListObjectsV2(ctx context.Context, in *s3.ListObjectsV2Input, opts ...func(*s3.Options)) (*s3.ListObjectsV2Output, error)
	GetObject(ctx context.Context, in *s3.GetObjectInput, opts ...func(*s3.Options)) (*s3.GetObjectOutput, error)
}

// Export writes one tenant's archive.
type Export struct {
	St     *store.Store
	S3     exportObjects
	Bucket string
	Tenant string
	Out    string
	// Sealer is the deployment's key: it signs the manifest (manifest.sig), which an import on
	// this deployment checks. Nil writes an unsigned archive.
	Sealer secrets.Sealer
	// AfterEntry, when set, runs after each entry is written (tests inject a crash).
	AfterEntry func(n int) error
}

// PAX records carrying an object's headers.
const (
	paxContentType  = "CAMPUSCMS.content-type"
	paxCacheControl = "CAMPUSCMS.cache-control"
)

// Run writes the archive (or finishes the one a stopped run left) and returns its manifest. It
// writes an audit entry in the tenant's log when done.
func (e Export) Run(ctx context.Context) (Manifest, error) {
	scope, err := store.NewScope(e.Tenant)
	if err != nil {
		return Manifest{}, err
	}
	if _, err := e.St.GetTenant(ctx, scope); err != nil {
		return Manifest{}, fmt.Errorf("tenants: tenant %q: %w", e.Tenant, err)
	}
	part, statePath := e.Out+".part", e.Out+".part.state"
	st := exportState{Tenant: e.Tenant, Manifest: Manifest{Format: ArchiveFormat, Tenant: e.Tenant, CreatedAt: time.Now().UTC()}}
	if raw, err := os.ReadFile(statePath); err == nil {
		var prev exportState
		// A checkpoint of an export that read items by Scan (no partition list) is not resumed.
		if json.Unmarshal(raw, &prev) == nil && prev.Tenant == e.Tenant && (prev.ItemsDone || prev.Partitions != nil) {
			st = prev
		}
	}
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	// Back to the end of the last whole entry the checkpoint knows.
	if err := f.Truncate(st.Offset); err != nil {
		return Manifest{}, err
	}
	if _, err := f.Seek(st.Offset, io.SeekStart); err != nil {
		return Manifest{}, err
	}
	tw := tar.NewWriter(f)
	entries := 0
	// commit ends an entry: pads it, notes where the file now ends, saves the checkpoint.
	commit := func(entry ManifestEntry) error {
		if err := tw.Flush(); err != nil {
			return err
		}
		off, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		st.Offset = off
		st.Manifest.Entries = append(st.Manifest.Entries, entry)
		raw, _ := json.Marshal(st)
		if err := os.WriteFile(statePath, raw, 0o600); err != nil {
			return err
		}
		entries++
		if e.AfterEntry != nil {
			return e.AfterEntry(entries)
		}
		return nil
	}

	// The items: one paged Query of each of the tenant's partitions (tenantPartitions, listed
	// once and kept in the checkpoint), never a Scan of the table.
	if !st.ItemsDone && st.Partitions == nil {
		if st.Partitions, err = tenantPartitions(ctx, e.St, scope); err != nil {
			return Manifest{}, err
		}
	}
	for !st.ItemsDone {
		q := e.St.Table.Get("PK", st.Partitions[st.Part]).SearchLimit(500).Consistent(true)
		if st.QueryFrom != nil {
			from, err := decodeJSONItem(st.QueryFrom)
			if err != nil {
				return Manifest{}, err
			}
			q = q.StartFrom(dynamo.PagingKey(from))
		}
		var items []dynamo.Item
		next, err := q.AllWithLastEvaluatedKey(ctx, &items)
		if err != nil {
			return Manifest{}, store.Wrap("query tenant", err)
		}
		// Where the next page starts: on in this partition, or the next one.
		advance := func() error {
			st.QueryFrom = nil
			if next != nil {
				var err error
				st.QueryFrom, err = encodeJSONItem(next)
				return err
			}
			st.Part++
			st.ItemsDone = st.Part >= len(st.Partitions)
			return nil
		}
		if len(items) == 0 {
			if err := advance(); err != nil {
				return Manifest{}, err
			}
			continue
		}
		var buf bytes.Buffer
		for _, it := range items {
			enc, err := encodeItem(it)
			if err != nil {
				return Manifest{}, err
			}
			line, _ := json.Marshal(enc)
			buf.Write(line)
			buf.WriteByte('\n')
		}
		st.Page++
		name := fmt.Sprintf("items/%06d.jsonl", st.Page)
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(buf.Len()), ModTime: st.Manifest.CreatedAt, Format: tar.FormatPAX}); err != nil {
			return Manifest{}, err
		}
		sum := sha256.Sum256(buf.Bytes())
		if _, err := tw.Write(buf.Bytes()); err != nil {
			return Manifest{}, err
		}
		st.Manifest.Items += len(items)
		if err := advance(); err != nil {
			return Manifest{}, err
		}
		if err := commit(ManifestEntry{Name: name, Size: int64(buf.Len()), SHA256: hex.EncodeToString(sum[:])}); err != nil {
			return Manifest{}, err
		}
	}

	prefixes := mediaref.TenantPrefixes(scope)
	for ; st.Prefix < len(prefixes); st.Prefix, st.After = st.Prefix+1, "" {
		in := &s3.ListObjectsV2Input{Bucket: aws.String(e.Bucket), Prefix: aws.String(prefixes[st.Prefix])}
		if st.After != "" {
			in.StartAfter = aws.String(st.After)
		}
		pages := s3.NewListObjectsV2Paginator(e.S3, in)
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return Manifest{}, fmt.Errorf("tenants: list %s: %w", prefixes[st.Prefix], err)
			}
			for _, o := range page.Contents {
				entry, err := e.writeObject(ctx, tw, aws.ToString(o.Key), st.Manifest.CreatedAt)
				if err != nil {
					return Manifest{}, err
				}
				st.Manifest.Objects++
				st.Manifest.ObjectBytes += entry.Size
				st.After = aws.ToString(o.Key)
				if err := commit(entry); err != nil {
					return Manifest{}, err
				}
			}
		}
	}

	raw, _ := json.MarshalIndent(st.Manifest, "", "  ")
	if err := tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o600, Size: int64(len(raw)), ModTime: st.Manifest.CreatedAt}); err != nil {
		return Manifest{}, err
	}
	if _, err := tw.Write(raw); err != nil {
		return Manifest{}, err
	}
	if e.Sealer != nil {
		sig, err := signManifest(ctx, e.Sealer, e.Tenant, raw)
		if err != nil {
			return Manifest{}, err
		}
		if err := tw.WriteHeader(&tar.Header{Name: signatureName, Mode: 0o600, Size: int64(len(sig)), ModTime: st.Manifest.CreatedAt}); err != nil {
			return Manifest{}, err
		}
		if _, err := tw.Write(sig); err != nil {
			return Manifest{}, err
		}
	}
	if err := tw.Close(); err != nil {
		return Manifest{}, err
	}
	if err := f.Sync(); err != nil {
		return Manifest{}, err
	}
	if err := os.Rename(part, e.Out); err != nil {
		return Manifest{}, err
	}
	_ = os.Remove(statePath)
	entry := audit.Item(scope, audit.Entry{At: time.Now().UTC(), Username: "cmsctl", Action: audit.ActionExport, Collection: "tenant", RecordID: e.Tenant})
	if err := e.St.Table.Put(entry).Run(ctx); err != nil {
		return st.Manifest, store.Wrap("audit the export", err)
	}
	return st.Manifest, nil
}

// writeObject streams one object into the archive, hashing it on the way.
func (e Export) writeObject(ctx context.Context, tw *tar.Writer, key string, at time.Time) (ManifestEntry, error) {
	obj, err := e.S3.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(e.Bucket), Key: aws.String(key)})
	if err != nil {
		return ManifestEntry{}, fmt.Errorf("tenants: get %s: %w", key, err)
	}
	defer obj.Body.Close()
	name := "objects/" + key
	hdr := &tar.Header{Name: name, Mode: 0o600, Size: aws.ToInt64(obj.ContentLength), ModTime: at, Format: tar.FormatPAX,
		PAXRecords: map[string]string{paxContentType: aws.ToString(obj.ContentType), paxCacheControl: aws.ToString(obj.CacheControl)}}
	if err := tw.WriteHeader(hdr); err != nil {
		return ManifestEntry{}, err
	}
	h := sha256.New()
	n, err := io.Copy(tw, io.TeeReader(obj.Body, h))
	if err != nil {
		return ManifestEntry{}, fmt.Errorf("tenants: copy %s: %w", key, err)
	}
	if n != hdr.Size {
		return ManifestEntry{}, fmt.Errorf("tenants: %s: %d bytes read, %d announced", key, n, hdr.Size)
	}
	return ManifestEntry{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

func encodeJSONItem(item map[string]types.AttributeValue) (map[string]any, error) {
	return encodeItem(item)
}

func decodeJSONItem(m map[string]any) (map[string]types.AttributeValue, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return decodeItem(r)
}

// ErrArchive answers an archive an import refuses: one that does not match its manifest, or
// holds what its tenant's archive may not (archive_check.go). The error names the entry.
var ErrArchive = errors.New("tenants: archive refused")
