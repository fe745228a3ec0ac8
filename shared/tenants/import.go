package tenants

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
)

// Importing an archive into a new tenant id: the archive is checked against its manifest first
// (every entry's size and SHA-256, nothing missing, nothing extra), then every item is written
// with the old id rewritten wherever it is part of a key or a media address, every object is
// copied under the new id, the counters are recounted from the imported records, and the
// tenant's details item goes last. Not imported: sessions, sign-in challenges and lockout windows
// (nobody is signed in to a new tenant), host lookups and the domain list (a host belongs to one
// tenant: set them again with set-domains), and two-factor enrolments in progress. Two-factor keys
// are sealed for their tenant: the import opens each with the old tenant's binding and seals it
// with the new one's (Sealer); without a sealer, or where a key does not open (an archive from a
// deployment with another key), the key and its recovery codes are dropped and that user sets
// two-factor sign-in up again.

// importObjects is what an import needs of S3.
type importObjects interface {
	PutObject(ctx context.Context, in *s3.PutObjectInput, opts ...func(*s3.Options)) (*s3.PutObjectOutput, error)
}

// Import reads an archive into a new tenant.
type Import struct {
	St      *store.Store
	S3      importObjects
	Bucket  string
	Archive string
	Tenant  string
	// Sealer reseals two-factor keys for the new tenant; nil drops them.
	Sealer secrets.Sealer
}

// ImportResult says what an import did.
type ImportResult struct {
	From           string
	Items, Objects int
	Skipped        map[string]int
	Counters       int
	// CountersCopied are counters no record derives (a form's unchecked submissions): as archived.
	CountersCopied int
	// TwoFactorMoved users keep two-factor sign-in; TwoFactorResets set it up again.
	TwoFactorMoved, TwoFactorResets int
}

// skippedKinds are the partitions an import leaves out.
var skippedKinds = map[string]bool{"SESSION": true, "CHALLENGE": true, "LOGIN": true}

// verify reads the archive once: every entry's checksum against the manifest.
func (im Import) verify() (Manifest, error) {
	f, err := os.Open(im.Archive)
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	tr := tar.NewReader(bufio.NewReader(f))
	got := map[string]ManifestEntry{}
	var m Manifest
	seenManifest := false
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return m, fmt.Errorf("%w: %v", ErrArchive, err)
		}
		if hdr.Name == "manifest.json" {
			raw, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			if err != nil || json.Unmarshal(raw, &m) != nil {
				return m, fmt.Errorf("%w: unreadable manifest", ErrArchive)
			}
			seenManifest = true
			continue
		}
		h := sha256.New()
		n, err := io.Copy(h, tr)
		if err != nil {
			return m, fmt.Errorf("%w: %s: %v", ErrArchive, hdr.Name, err)
		}
		got[hdr.Name] = ManifestEntry{Name: hdr.Name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	}
	if !seenManifest || m.Format != ArchiveFormat {
		return m, fmt.Errorf("%w: no %s manifest", ErrArchive, ArchiveFormat)
	}
	if len(got) != len(m.Entries) {
		return m, fmt.Errorf("%w: %d entries, the manifest lists %d", ErrArchive, len(got), len(m.Entries))
	}
	for _, e := range m.Entries {
		if got[e.Name] != e {
			return m, fmt.Errorf("%w: %s does not match its checksum", ErrArchive, e.Name)
		}
	}
	return m, nil
}

// Run imports the archive. It refuses a tenant id that exists already.
func (im Import) Run(ctx context.Context) (ImportResult, error) {
	res := ImportResult{Skipped: map[string]int{}}
	scope, err := store.NewScope(im.Tenant)
	if err != nil {
		return res, err
	}
	m, err := im.verify()
	if err != nil {
		return res, err
	}
	res.From = m.Tenant
	if _, err := store.NewScope(m.Tenant); err != nil {
		return res, fmt.Errorf("%w: tenant %q", ErrArchive, m.Tenant)
	}
	if _, err := im.St.GetTenant(ctx, scope); err == nil {
		return res, fmt.Errorf("tenants: tenant %q exists already: import into a new id", im.Tenant)
	} else if !store.IsNotFound(err) {
		return res, err
	}
	rw := rewriter{from: m.Tenant, to: im.Tenant}
	f, err := os.Open(im.Archive)
	if err != nil {
		return res, err
	}
	defer f.Close()
	tr := tar.NewReader(bufio.NewReader(f))
	var tenantItem dynamo.Item
	counts := counterRecount{root: scope.Root()}
	var batch []any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		_, err := im.St.Table.Batch("PK", "SK").Write().Put(batch...).Run(ctx)
		batch = batch[:0]
		return store.Wrap("import items", err)
	}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return res, err
		}
		switch {
		case strings.HasPrefix(hdr.Name, "items/"):
			sc := bufio.NewScanner(tr)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				var raw map[string]json.RawMessage
				if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
					return res, fmt.Errorf("%w: %s: %v", ErrArchive, hdr.Name, err)
				}
				item, err := decodeItem(raw)
				if err != nil {
					return res, err
				}
				kind := kindOf("T#"+m.Tenant, str(item["PK"]), str(item["SK"]))
				if skippedKinds[kind] {
					res.Skipped[kind]++
					continue
				}
				if item, err = rw.item(item); err != nil {
					return res, fmt.Errorf("%w: %s: %v", ErrArchive, hdr.Name, err)
				}
				if kind == "root:COUNT" {
					// Recounted from the records below; kept only where no record says it.
					counts.archived = append(counts.archived, item)
					continue
				}
				if kind == "users" {
					moved, reset, err := im.moveTwoFactor(ctx, item, m.Tenant)
					if err != nil {
						return res, err
					}
					res.TwoFactorMoved += moved
					res.TwoFactorResets += reset
				}
				if kind == "root:TENANT" {
					delete(item, "domains")
					delete(item, "suspended")
					tenantItem = item
					continue
				}
				counts.add(item)
				batch = append(batch, item)
				res.Items++
				if len(batch) == 25 {
					if err := flush(); err != nil {
						return res, err
					}
				}
			}
			if err := sc.Err(); err != nil {
				return res, err
			}
		case strings.HasPrefix(hdr.Name, "objects/"):
			key := rw.str(strings.TrimPrefix(hdr.Name, "objects/"))
			body, err := io.ReadAll(tr)
			if err != nil {
				return res, err
			}
			in := &s3.PutObjectInput{Bucket: aws.String(im.Bucket), Key: aws.String(key), Body: bytes.NewReader(body)}
			if v := hdr.PAXRecords[paxContentType]; v != "" {
				in.ContentType = aws.String(v)
			}
			if v := hdr.PAXRecords[paxCacheControl]; v != "" {
				in.CacheControl = aws.String(v)
			}
			if _, err := im.S3.PutObject(ctx, in); err != nil {
				return res, fmt.Errorf("tenants: put %s: %w", key, err)
			}
			res.Objects++
		}
	}
	if err := flush(); err != nil {
		return res, err
	}
	for name, n := range counts.counts {
		pk, sk := scope.CounterKey(name)
		batch = append(batch, dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
			"count": &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}})
		res.Counters++
		if len(batch) == 25 {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	for _, it := range counts.archived {
		name := strings.TrimPrefix(str(it["SK"]), "COUNT#")
		if _, recounted := counts.counts[name]; recounted {
			continue
		}
		batch = append(batch, it)
		res.CountersCopied++
		if len(batch) == 25 {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	if err := flush(); err != nil {
		return res, err
	}
	if tenantItem == nil {
		return res, fmt.Errorf("%w: no tenant details item", ErrArchive)
	}
	if err := im.St.Table.Put(tenantItem).If("attribute_not_exists(PK)").Run(ctx); err != nil {
		return res, store.Wrap("import tenant", err)
	}
	return res, nil
}

func str(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// moveTwoFactor reseals a user's two-factor key from tenant from to the import's tenant (moved
// 1), or drops it with its recovery codes (reset 1: no sealer, or the key does not open). An
// enrolment in progress is dropped either way. Only a failure to seal is an error.
func (im Import) moveTwoFactor(ctx context.Context, item dynamo.Item, from string) (moved, reset int, err error) {
	delete(item, "totpPendingKey")
	sealed := str(item["totpKey"])
	if sealed == "" {
		return 0, 0, nil
	}
	user := str(item["id"])
	if im.Sealer != nil {
		if key, err := im.Sealer.Open(ctx, sealed, auth.TwoFactorBinding(from, user)); err == nil {
			resealed, err := im.Sealer.Seal(ctx, key, auth.TwoFactorBinding(im.Tenant, user))
			if err != nil {
				return 0, 0, fmt.Errorf("reseal the two-factor key of user %s: %w", user, err)
			}
			item["totpKey"] = &types.AttributeValueMemberS{Value: resealed}
			return 1, 0, nil
		}
	}
	for _, a := range []string{"totpKey", "totpLastStep", "recoveryHashes"} {
		delete(item, a)
	}
	return 0, 1, nil
}

// rewriter moves values from one tenant id to another: keys under T#{from}, media addresses
// under media/, uploads/ and trash/{from}/, and ids that are the tenant's own.
type rewriter struct{ from, to string }

func (rw rewriter) str(s string) string {
	if s == "T#"+rw.from || strings.HasPrefix(s, "T#"+rw.from+"#") {
		// A key: every part that is the tenant id (its own, and a singleton's id in its
		// history's partition, T#{t}#HIST#footer#{t}).
		parts := strings.Split(s, "#")
		for i, p := range parts {
			if p == rw.from {
				parts[i] = rw.to
			}
		}
		s = strings.Join(parts, "#")
	}
	for _, root := range []string{"media/", "uploads/", "trash/"} {
		s = strings.ReplaceAll(s, root+rw.from+"/", root+rw.to+"/")
	}
	return s
}

func (rw rewriter) item(item dynamo.Item) (dynamo.Item, error) {
	out := make(dynamo.Item, len(item))
	for k, v := range item {
		if s, ok := v.(*types.AttributeValueMemberS); ok && rw.isOwnID(k, s.Value) {
			out[k] = &types.AttributeValueMemberS{Value: rw.to}
			continue
		}
		if b, ok := v.(*types.AttributeValueMemberB); ok && k == "state" {
			// A kept version's state (gzip-compressed JSON): a singleton's id and the media
			// addresses inside it move like the record's own.
			state, err := rw.state(b.Value)
			if err != nil {
				return nil, err
			}
			out[k] = &types.AttributeValueMemberB{Value: state}
			continue
		}
		av, err := rw.av(v)
		if err != nil {
			return nil, err
		}
		out[k] = av
	}
	return out, nil
}

// isOwnID reports whether attribute k holding s is the tenant's own id: a singleton's id, a
// record's tenantId.
func (rw rewriter) isOwnID(k, s string) bool {
	return (k == "id" || k == "tenantId") && s == rw.from
}

// state rewrites a kept version's state (collections.EncodeState's encoding).
func (rw rewriter) state(zipped []byte) ([]byte, error) {
	rec, err := collections.DecodeState(zipped)
	if err != nil {
		return nil, fmt.Errorf("tenants: a kept state: %w", err)
	}
	return collections.EncodeState(rw.jsonValue("", rec).(collections.Record))
}

// jsonValue is av for a decoded JSON value (k: its key in the enclosing object).
func (rw rewriter) jsonValue(k string, v any) any {
	switch x := v.(type) {
	case string:
		if rw.isOwnID(k, x) {
			return rw.to
		}
		return rw.str(x)
	case []any:
		for i, e := range x {
			x[i] = rw.jsonValue("", e)
		}
	case map[string]any:
		for key, e := range x {
			x[key] = rw.jsonValue(key, e)
		}
	}
	return v
}

func (rw rewriter) av(v types.AttributeValue) (types.AttributeValue, error) {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: rw.str(x.Value)}, nil
	case *types.AttributeValueMemberSS:
		out := make([]string, len(x.Value))
		for i, s := range x.Value {
			out[i] = rw.str(s)
		}
		return &types.AttributeValueMemberSS{Value: out}, nil
	case *types.AttributeValueMemberL:
		out := make([]types.AttributeValue, len(x.Value))
		for i, e := range x.Value {
			av, err := rw.av(e)
			if err != nil {
				return nil, err
			}
			out[i] = av
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case *types.AttributeValueMemberM:
		m, err := rw.item(x.Value)
		return &types.AttributeValueMemberM{Value: m}, err
	}
	return v, nil
}

// counterRecount rebuilds the counters from the records: a listed record (it has a list index
// key) counts in its collection's counter and in its facet's (GSI3), and a media record's size in
// the library's bytes.
type counterRecount struct {
	root     string
	counts   map[string]int64
	archived []dynamo.Item
}

func (c *counterRecount) add(item dynamo.Item) {
	if c.counts == nil {
		c.counts = map[string]int64{}
	}
	pk := str(item["PK"])
	if str(item["GSI1PK"]) != pk || !strings.HasPrefix(pk, c.root+"#") {
		return
	}
	kind := strings.TrimPrefix(pk, c.root+"#")
	if strings.Contains(kind, "#") {
		return
	}
	c.counts[kind]++
	if facet, ok := strings.CutPrefix(str(item["GSI3PK"]), pk+"#"); ok && facet != "" {
		c.counts[kind+"#"+facet]++
	}
	if kind == "media" {
		if n, ok := item["fileSize"].(*types.AttributeValueMemberN); ok {
			size, _ := strconv.ParseInt(n.Value, 10, 64)
			c.counts[plans.CountMediaBytes] += size
		}
	}
}
