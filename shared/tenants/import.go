package tenants

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
)

// Importing an archive into a new tenant id. The archive is untrusted (archive_check.go), so it
// is read three times before and while anything is written: its headers (entry sizes and count
// within the limits, known names, the manifest and its signature), then every entry checked
// against the manifest (size and SHA-256, nothing missing, nothing extra) and every item and
// object against the source tenant's keys and prefixes, and only then written: every item with
// the old id rewritten wherever it is part of a key or a media address, every object copied under
// the new id, the counters recounted from the imported records, and the tenant's details item
// last. Each entry is hashed again as it is written, so an archive changed in between is refused
// too. Every write is conditional (attribute_not_exists on the key, If-None-Match on an object):
// an import never overwrites anything, and one that fails part way deletes what it wrote. Not
// imported: sessions, sign-in challenges and lockout windows (nobody is signed in to a new
// tenant), host lookups and the domain list (a host belongs to one tenant: set them again with
// set-domains), and two-factor enrolments in progress. Two-factor keys are sealed for their
// tenant: the import opens each with the old tenant's binding and seals it with the new one's
// (Sealer); without a sealer, or where a key does not open (an archive from a deployment with
// another key), the key and its recovery codes are dropped and that user sets two-factor sign-in
// up again.

// ActionImport is the audit action of a tenant's import: its entry in the new tenant's log, by
// the operator.
const ActionImport = "import"

// importObjects is what an import needs of S3.
type importObjects interface {
	PutObject(ctx context.Context, in *s3.PutObjectInput, opts ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	DeleteObject(ctx context.Context, in *s3.DeleteObjectInput, opts ...func(*s3.Options)) (*s3.DeleteObjectOutput, error)
}

// Import reads an archive into a new tenant.
type Import struct {
	St      *store.Store
	S3      importObjects
	Bucket  string
	Archive string
	Tenant  string
	// Sealer is the deployment's key: it checks the archive's signature and reseals two-factor
	// keys for the new tenant (nil: no signature can be checked, two-factor keys are dropped).
	Sealer secrets.Sealer
	// TrustUnsigned imports an archive whose signature is missing or does not verify (one from
	// another deployment, or from before archives were signed): the operator vouches for it.
	// Every other check still applies.
	TrustUnsigned bool
	// MaxEntries caps the archive's entries (0: DefaultMaxEntries).
	MaxEntries int
	// Workers is how many writes run at once (0: 16).
	Workers int
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
	// Signed is whether the archive's signature verified with the deployment's key; Unsigned
	// says why not when the operator trusted it anyway.
	Signed   bool
	Unsigned string
}

// skippedKinds are the partitions an import leaves out: sign-in state (password reset links included), and the mail the source
// had yet to send (its own worker sends it; a copy would send it twice).
var skippedKinds = map[string]bool{"SESSION": true, "CHALLENGE": true, "LOGIN": true, "RESET": true, "MAILOUT": true}

// archiveHead is what the headers pass learns: the manifest, its raw bytes and its signature.
type archiveHead struct {
	m        Manifest
	raw, sig []byte
	entries  map[string]ManifestEntry
}

// readHead reads the archive's headers only (the file seeks past every body but the manifest's
// and the signature's): each entry's declared size within its limit, a regular file with a known
// name, not twice, at most MaxEntries of them; then the manifest, which must list exactly the
// entries there are.
func (im Import) readHead() (archiveHead, error) {
	var h archiveHead
	f, err := os.Open(im.Archive)
	if err != nil {
		return h, err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	seen := map[string]bool{}
	for n := 1; ; n++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return h, refuse("entry %d: %v", n, err)
		}
		if n > im.maxEntries() {
			return h, refuse("more than %d entries (%s is entry %d): refused before reading further; if the archive is genuine, raise the limit (--max-entries)",
				im.maxEntries(), hdr.Name, n)
		}
		if err := checkHeader(im, hdr); err != nil {
			return h, err
		}
		if seen[hdr.Name] {
			return h, refuse("%s is in the archive twice", hdr.Name)
		}
		seen[hdr.Name] = true
		switch hdr.Name {
		case manifestName:
			if h.raw, err = io.ReadAll(tr); err != nil {
				return h, refuse("%s: %v", hdr.Name, err)
			}
		case signatureName:
			if h.sig, err = io.ReadAll(tr); err != nil {
				return h, refuse("%s: %v", hdr.Name, err)
			}
		}
	}
	if h.raw == nil || json.Unmarshal(h.raw, &h.m) != nil || h.m.Format != ArchiveFormat {
		return h, refuse("no readable %s manifest", ArchiveFormat)
	}
	if !store.ValidTenantID(h.m.Tenant) {
		return h, refuse("the manifest names tenant %q", h.m.Tenant)
	}
	h.entries = make(map[string]ManifestEntry, len(h.m.Entries))
	for _, e := range h.m.Entries {
		if _, dup := h.entries[e.Name]; dup || !seen[e.Name] || e.Name == manifestName || e.Name == signatureName {
			return h, refuse("the manifest lists %s, which is not an entry of the archive (or lists it twice)", e.Name)
		}
		h.entries[e.Name] = e
	}
	for name := range seen {
		if _, listed := h.entries[name]; !listed && name != manifestName && name != signatureName {
			return h, refuse("%s is not in the manifest", name)
		}
	}
	return h, nil
}

// checkHeader refuses an entry by its header: a declared size over its limit, a name an export
// never writes, anything but a regular file.
func checkHeader(im Import, hdr *tar.Header) error {
	if err := checkEntryName(hdr.Name); err != nil {
		return err
	}
	if limit, what := im.entryLimit(hdr.Name); hdr.Size > limit || hdr.Size < 0 {
		return refuse("%s declares %d bytes; %s entry may hold at most %d (%s): refused before reading it", hdr.Name, hdr.Size, what, limit, plans.FormatBytes(limit))
	}
	if hdr.Typeflag != tar.TypeReg {
		return refuse("%s is not a regular file (type %q)", hdr.Name, hdr.Typeflag)
	}
	return nil
}

// eachEntry reads every entry but the manifest and its signature, checks its header again and
// its bytes against the manifest, and hands it to fn.
func (im Import) eachEntry(h archiveHead, fn func(hdr *tar.Header, body []byte) error) error {
	f, err := os.Open(im.Archive)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(bufio.NewReader(f))
	seen := 0
	for n := 1; ; n++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return refuse("entry %d: %v", n, err)
		}
		if n > im.maxEntries() {
			return refuse("more than %d entries", im.maxEntries())
		}
		if err := checkHeader(im, hdr); err != nil {
			return err
		}
		if hdr.Name == manifestName || hdr.Name == signatureName {
			continue
		}
		want, listed := h.entries[hdr.Name]
		if !listed {
			return refuse("%s is not in the manifest", hdr.Name)
		}
		body, err := io.ReadAll(io.LimitReader(tr, hdr.Size))
		if err != nil {
			return refuse("%s: %v", hdr.Name, err)
		}
		sum := sha256.Sum256(body)
		if int64(len(body)) != want.Size || hex.EncodeToString(sum[:]) != want.SHA256 {
			return refuse("%s does not match its checksum in the manifest (damaged, or edited since)", hdr.Name)
		}
		seen++
		if err := fn(hdr, body); err != nil {
			return err
		}
	}
	if seen != len(h.entries) {
		return refuse("%d entries, the manifest lists %d", seen, len(h.entries))
	}
	return nil
}

// eachItem decodes the items of an items/ entry.
func eachItem(name string, body []byte, fn func(item dynamo.Item) error) error {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return refuse("%s line %d: %v", name, line, err)
		}
		item, err := decodeItem(raw)
		if err != nil {
			return refuse("%s line %d: %v", name, line, err)
		}
		if err := fn(item); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return refuse("%s: %v", name, err)
	}
	return nil
}

// check reads every entry and refuses the archive before anything is written: an entry that does
// not match the manifest, an item or an object that is not the source tenant's, an item the
// rewrite cannot read, no tenant details item.
func (im Import) check(h archiveHead, rw rewriter) error {
	tenantItem := false
	err := im.eachEntry(h, func(hdr *tar.Header, body []byte) error {
		if strings.HasPrefix(hdr.Name, objectsDir) {
			return checkObject(h.m.Tenant, hdr.Name, hdr.PAXRecords)
		}
		return eachItem(hdr.Name, body, func(item dynamo.Item) error {
			if err := checkItem(h.m.Tenant, hdr.Name, item); err != nil {
				return err
			}
			if _, err := rw.item(item); err != nil {
				return refuse("%s: item %s|%s: %v", hdr.Name, str(item["PK"]), str(item["SK"]), err)
			}
			if kindOf("T#"+h.m.Tenant, str(item["PK"]), str(item["SK"])) == "root:TENANT" {
				tenantItem = true
			}
			return nil
		})
	})
	if err == nil && !tenantItem {
		err = refuse("no tenant details item (T#%s|TENANT)", h.m.Tenant)
	}
	return err
}

// Run imports the archive. It refuses a tenant id that exists already.
func (im Import) Run(ctx context.Context) (ImportResult, error) {
	res := ImportResult{Skipped: map[string]int{}}
	scope, err := store.NewScope(im.Tenant)
	if err != nil {
		return res, err
	}
	h, err := im.readHead()
	if err != nil {
		return res, err
	}
	res.From = h.m.Tenant
	if err := verifyManifest(ctx, im.Sealer, h.m.Tenant, h.raw, h.sig); err != nil {
		if !im.TrustUnsigned {
			return res, fmt.Errorf("%w; import it only if you trust where it came from (--trust-unsigned)", err)
		}
		res.Unsigned = strings.TrimPrefix(err.Error(), "tenants: ")
	} else {
		res.Signed = true
	}
	if _, err := im.St.GetTenant(ctx, scope); err == nil {
		return res, fmt.Errorf("tenants: tenant %q exists already: import into a new id", im.Tenant)
	} else if !store.IsNotFound(err) {
		return res, err
	}
	rw := rewriter{from: h.m.Tenant, to: im.Tenant}
	if err := im.check(h, rw); err != nil {
		return res, err
	}
	w := newImportWriter(ctx, im)
	if err := im.write(ctx, w, h, rw, scope, &res); err != nil {
		if uerr := w.undo(); uerr != nil {
			return res, fmt.Errorf("%w\nundoing the import failed too (%v): remove what is left with cmsctl tenant delete --id %s --confirm %s", err, uerr, im.Tenant, im.Tenant)
		}
		return res, fmt.Errorf("%w\nnothing of the import was kept", err)
	}
	return res, nil
}

// write writes the checked archive through w; the tenant's details item goes last.
func (im Import) write(ctx context.Context, w *importWriter, h archiveHead, rw rewriter, scope store.Scope, res *ImportResult) error {
	var tenantItem dynamo.Item
	counts, err := newCounterRecount(scope)
	if err != nil {
		return err
	}
	err = im.eachEntry(h, func(hdr *tar.Header, body []byte) error {
		if strings.HasPrefix(hdr.Name, objectsDir) {
			key := rw.str(strings.TrimPrefix(hdr.Name, objectsDir))
			in := &s3.PutObjectInput{Bucket: aws.String(im.Bucket), Key: aws.String(key), Body: bytes.NewReader(body),
				ContentLength: aws.Int64(int64(len(body))), IfNoneMatch: aws.String("*")}
			if v := hdr.PAXRecords[paxContentType]; v != "" {
				in.ContentType = aws.String(v)
			}
			if v := hdr.PAXRecords[paxCacheControl]; v != "" {
				in.CacheControl = aws.String(v)
			}
			res.Objects++
			return w.putObject(in)
		}
		return eachItem(hdr.Name, body, func(item dynamo.Item) error {
			// Checked by check; again, as the entry read now is the one written.
			if err := checkItem(h.m.Tenant, hdr.Name, item); err != nil {
				return err
			}
			kind := kindOf("T#"+h.m.Tenant, str(item["PK"]), str(item["SK"]))
			if skippedKinds[kind] {
				res.Skipped[kind]++
				return nil
			}
			oldKey := "#" + str(item["PK"]) + "#" + str(item["SK"])
			item, err := rw.item(item)
			if err != nil {
				return refuse("%s: %v", hdr.Name, err)
			}
			if str(item["GSI3PK"]) == collections.DueIndex {
				// A due item's index key ends in its own key: {time}#{PK}#{SK}.
				at := strings.TrimSuffix(str(item["GSI3SK"]), oldKey)
				item["GSI3SK"] = &types.AttributeValueMemberS{Value: at + "#" + str(item["PK"]) + "#" + str(item["SK"])}
			}
			if kind == "root:COUNT" {
				// Recounted from the records below; kept only where no record says it.
				counts.archived = append(counts.archived, item)
				return nil
			}
			if kind == "users" {
				moved, reset, err := im.moveTwoFactor(ctx, item, h.m.Tenant)
				if err != nil {
					return err
				}
				res.TwoFactorMoved += moved
				res.TwoFactorResets += reset
			}
			if kind == "root:TENANT" {
				delete(item, "domains")
				delete(item, "suspended")
				// A mail domain is one institution's (set-mail-domain sets it again).
				delete(item, mail.AttrMailDomain)
				delete(item, mail.AttrMailDomainVerified)
				tenantItem = item
				return nil
			}
			if err := counts.add(item); err != nil {
				return err
			}
			res.Items++
			return w.putItem(item)
		})
	})
	if err != nil {
		return err
	}
	for name, n := range counts.counts {
		pk, sk := scope.CounterKey(name)
		res.Counters++
		if err := w.putItem(dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
			"count": &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}}); err != nil {
			return err
		}
	}
	for _, it := range counts.archived {
		name := strings.TrimPrefix(str(it["SK"]), "COUNT#")
		if _, recounted := counts.counts[name]; recounted {
			continue
		}
		res.CountersCopied++
		if err := w.putItem(it); err != nil {
			return err
		}
	}
	if err := w.wait(); err != nil {
		return err
	}
	if tenantItem == nil {
		return refuse("no tenant details item")
	}
	// The import is in the new tenant's audit log, by the operator, like its export in the old one's.
	entry, err := dynamo.MarshalItem(audit.Item(scope, collections.AuditEntry(auth.OperatorCaller(scope), time.Now().UTC(), ActionImport, "tenant", scope.Tenant())))
	if err != nil {
		return err
	}
	if err := w.putItem(entry); err != nil {
		return err
	}
	if err := w.putItem(tenantItem); err != nil {
		return err
	}
	return w.wait()
}

// importWriter runs an import's writes a few at a time, each conditional on its key being free,
// and remembers what it wrote, so that a failed import can delete exactly that.
type importWriter struct {
	ctx     context.Context
	im      Import
	sem     chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	err     error
	items   []store.Key
	objects []string
}

func newImportWriter(ctx context.Context, im Import) *importWriter {
	n := im.Workers
	if n <= 0 {
		n = 16
	}
	return &importWriter{ctx: ctx, im: im, sem: make(chan struct{}, n)}
}

func (w *importWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// do runs fn with the others in flight; the first error stops the import.
func (w *importWriter) do(fn func() error) error {
	if err := w.failed(); err != nil {
		return err
	}
	w.sem <- struct{}{}
	w.wg.Add(1)
	go func() {
		defer func() { <-w.sem; w.wg.Done() }()
		if err := fn(); err != nil {
			w.mu.Lock()
			if w.err == nil {
				w.err = err
			}
			w.mu.Unlock()
		}
	}()
	return nil
}

// wait waits for the writes in flight and returns the first error.
func (w *importWriter) wait() error {
	w.wg.Wait()
	return w.failed()
}

// putItem writes an item unless its key is taken. A put whose answer was lost and that was sent
// again finds its own item: that one counts as written.
func (w *importWriter) putItem(item dynamo.Item) error {
	return w.do(func() error {
		k := store.Key{PK: str(item["PK"]), SK: str(item["SK"])}
		err := w.im.St.Table.Put(item).If("attribute_not_exists(PK)").Run(w.ctx)
		if dynamo.IsCondCheckFailed(err) {
			var there dynamo.Item
			if gerr := w.im.St.Table.Get("PK", k.PK).Range("SK", dynamo.Equal, k.SK).Consistent(true).One(w.ctx, &there); gerr == nil && sameItem(there, item) {
				err = nil
			} else {
				return fmt.Errorf("tenants: item %s|%s exists already (in the archive twice, or left under %s by something else): an import never overwrites",
					k.PK, k.SK, w.im.Tenant)
			}
		}
		if err != nil {
			return store.Wrap("import item "+k.PK+"|"+k.SK, err)
		}
		w.mu.Lock()
		w.items = append(w.items, k)
		w.mu.Unlock()
		return nil
	})
}

// putObject writes an object unless its key is taken.
func (w *importWriter) putObject(in *s3.PutObjectInput) error {
	return w.do(func() error {
		key := aws.ToString(in.Key)
		if _, err := w.im.S3.PutObject(w.ctx, in); err != nil {
			var ae smithy.APIError
			if errors.As(err, &ae) && (ae.ErrorCode() == "PreconditionFailed" || ae.ErrorCode() == "ConditionalRequestConflict") {
				return fmt.Errorf("tenants: object %s exists already: an import never overwrites", key)
			}
			return fmt.Errorf("tenants: put %s: %w", key, err)
		}
		w.mu.Lock()
		w.objects = append(w.objects, key)
		w.mu.Unlock()
		return nil
	})
}

// undo deletes what the import wrote (it waits for the writes in flight first).
func (w *importWriter) undo() error {
	w.wg.Wait()
	ctx := context.WithoutCancel(w.ctx)
	var errs []error
	for i := 0; i < len(w.items); i += 25 {
		keys := make([]dynamo.Keyed, 0, 25)
		for _, k := range w.items[i:min(i+25, len(w.items))] {
			keys = append(keys, dynamo.Keys{k.PK, k.SK})
		}
		if _, err := w.im.St.Table.Batch("PK", "SK").Write().Delete(keys...).Run(ctx); err != nil {
			errs = append(errs, store.Wrap("undo the import", err))
			break
		}
	}
	for _, key := range w.objects {
		if _, err := w.im.S3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(w.im.Bucket), Key: aws.String(key)}); err != nil {
			errs = append(errs, fmt.Errorf("tenants: undo the import: delete %s: %w", key, err))
			break
		}
	}
	return errors.Join(errs...)
}

// sameItem reports whether two items hold the same attributes and values.
func sameItem(a, b dynamo.Item) bool {
	ea, err1 := encodeItem(a)
	eb, err2 := encodeItem(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ja, _ := json.Marshal(ea)
	jb, _ := json.Marshal(eb)
	return bytes.Equal(ja, jb)
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

// counterRecount rebuilds the counters from the records: each record of a listed kind (a declared
// collection, the media library) counts as its create counted it (collections.Kind.Counters: its
// collection's counter, its facet's), and a media record's size in the library's bytes.
type counterRecount struct {
	kinds    map[string]collections.Kind // by partition
	counts   map[string]int64
	archived []dynamo.Item
}

func newCounterRecount(scope store.Scope) (counterRecount, error) {
	reg, err := collections.Load()
	if err != nil {
		return counterRecount{}, err
	}
	c := counterRecount{kinds: map[string]collections.Kind{}, counts: map[string]int64{}}
	kinds := []collections.Kind{media.RecordKind()}
	for _, key := range reg.Keys() {
		if reg[key].Singleton == "" {
			kinds = append(kinds, collections.KindOf(reg[key]))
		}
	}
	for _, k := range kinds {
		c.kinds[scope.Collection(k.Key)] = k
	}
	return c, nil
}

func (c *counterRecount) add(item dynamo.Item) error {
	k, ok := c.kinds[str(item["PK"])]
	if !ok {
		return nil
	}
	var rec collections.Record
	if err := dynamo.UnmarshalItem(item, &rec); err != nil {
		return refuse("%s %s: %v", str(item["PK"]), str(item["SK"]), err)
	}
	if id, _ := rec["id"].(string); id == "" {
		return nil // a marker kept in the partition, not a record
	}
	for _, ct := range k.Counters(rec) {
		c.counts[ct.Name] += ct.Delta
	}
	if k.Key == media.Kind {
		if n, ok := item["fileSize"].(*types.AttributeValueMemberN); ok {
			size, _ := strconv.ParseInt(n.Value, 10, 64)
			c.counts[plans.CountMediaBytes] += size
		}
	}
	return nil
}
