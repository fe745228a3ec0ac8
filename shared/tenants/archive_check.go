package tenants

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/secrets"
	"github.com/campuscms/panel/shared/store"
)

// An archive is untrusted input: it comes back from a school moving between deployments, and
// anyone who held it could have edited it and written a manifest to match. So an import trusts
// nothing the archive says about where things go. Every item must sit under the source tenant's
// own keys (its partition key and every index partition key start with T#{source}; the one global
// index partition, the scheduler's due index, only for items of the source's own due partition),
// because those are the keys the import rewrites to the new tenant: an item of another tenant, or
// of no tenant (DOMAIN#{host}), is refused. Every object must sit under one of the source's
// prefixes (media/, uploads/, trash/{source}/). Entries are capped in size and number by their
// headers, before a body is read. And the manifest carries a signature made with the deployment's
// key (secrets.Sealer): an archive this deployment did not sign, or whose manifest changed since,
// is refused unless the operator says it trusts it (Import.TrustUnsigned).

// Limits on what an import reads.
const (
	// MaxItemsEntryBytes caps an items/ entry: one page of the export's Scan, which DynamoDB
	// ends at 1 MB of items, written as DynamoDB JSON (a few times larger at worst).
	MaxItemsEntryBytes = 16 << 20
	// MaxObjectBytes caps an objects/ entry: the largest file the media library accepts.
	MaxObjectBytes = media.MaxSize
	// DefaultMaxEntries caps the number of entries of an archive (Import.MaxEntries overrides it).
	DefaultMaxEntries = 200_000
	// maxManifestBytes caps manifest.json at this much per allowed entry (at least 64 MiB).
	manifestBytesPerEntry = 1 << 10
	minManifestBytes      = 64 << 20
	// maxSignatureBytes caps manifest.sig: one sealed SHA-256.
	maxSignatureBytes = 4 << 10
	// maxEntryName: "objects/" and the longest S3 key.
	maxEntryName = len("objects/") + 1024
	// maxHeaderValue caps an object's content type and cache control.
	maxHeaderValue = 255
)

// Names of the archive's own entries.
const (
	manifestName  = "manifest.json"
	signatureName = "manifest.sig"
	itemsDir      = "items/"
	objectsDir    = "objects/"
)

// ErrUnsigned answers an archive without a signature of this deployment's key.
var ErrUnsigned = errors.New("tenants: the archive is not signed by this deployment")

// refuse is an ErrArchive naming what was refused.
func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrArchive, fmt.Sprintf(format, args...))
}

// entryLimit is the largest size an entry of that name may declare, and what it is called.
func (im Import) entryLimit(name string) (int64, string) {
	switch {
	case name == manifestName:
		return max(int64(im.maxEntries())*manifestBytesPerEntry, minManifestBytes), "the manifest"
	case name == signatureName:
		return maxSignatureBytes, "the signature"
	case strings.HasPrefix(name, itemsDir):
		return MaxItemsEntryBytes, "an items"
	default:
		return MaxObjectBytes, "a media object"
	}
}

func (im Import) maxEntries() int {
	if im.MaxEntries > 0 {
		return im.MaxEntries
	}
	return DefaultMaxEntries
}

// checkEntryName refuses a name an export never writes.
func checkEntryName(name string) error {
	switch {
	case len(name) > maxEntryName:
		return refuse("an entry's name is %d bytes long (%.80s…): at most %d", len(name), name, maxEntryName)
	case name == manifestName, name == signatureName:
		return nil
	case strings.HasPrefix(name, itemsDir) && strings.HasSuffix(name, ".jsonl") && !strings.Contains(name[len(itemsDir):], "/"):
		return nil
	case strings.HasPrefix(name, objectsDir) && len(name) > len(objectsDir):
		return nil
	}
	return refuse("unexpected entry %q (an archive holds items/*.jsonl, objects/… and the manifest)", name)
}

// ownKey reports whether k is a key of tenant: T#{tenant} or T#{tenant}#….
func ownKey(tenant, k string) bool {
	root := "T#" + tenant
	return k == root || strings.HasPrefix(k, root+"#")
}

// checkItem refuses an item that is not the source tenant's: its partition key, or the partition
// key of any index it is in, outside T#{source} (another tenant's, or a global one such as
// DOMAIN#), or a key attribute that is not a string. entry names the archive entry.
func checkItem(source, entry string, item dynamo.Item) error {
	pk, okPK := item["PK"].(*types.AttributeValueMemberS)
	sk, okSK := item["SK"].(*types.AttributeValueMemberS)
	if !okPK || !okSK || pk.Value == "" || sk.Value == "" {
		return refuse("%s: an item without a string PK and SK", entry)
	}
	name := pk.Value + "|" + sk.Value
	if !ownKey(source, pk.Value) {
		return refuse("%s: item %s is not under tenant %s's keys (T#%s…): an archive may only hold its own tenant's items, never another tenant's or a host lookup",
			entry, name, source, source)
	}
	for _, ix := range store.Indexes {
		for _, attr := range []string{ix + "PK", ix + "SK"} {
			v, ok := item[attr]
			if !ok {
				continue
			}
			if _, isS := v.(*types.AttributeValueMemberS); !isS {
				return refuse("%s: item %s: index key %s is not a string", entry, name, attr)
			}
		}
		v := str(item[ix+"PK"])
		if _, ok := item[ix+"PK"]; !ok || ownKey(source, v) {
			continue
		}
		if ix == "GSI3" && v == collections.DueIndex && pk.Value == "T#"+source+"#DUE" &&
			strings.HasSuffix(str(item["GSI3SK"]), "#"+pk.Value+"#"+sk.Value) {
			continue // a due item of the source's own due partition, in the scheduler's index
		}
		if ix == "GSI3" && mail.InDueIndex(source, pk.Value, sk.Value, v, str(item["GSI3SK"])) {
			continue // a mail of the source's own outbox, in the mail worker's index (the import skips it)
		}
		return refuse("%s: item %s: index key %s %s is not under tenant %s's keys", entry, name, ix+"PK", v, source)
	}
	return nil
}

// checkObject refuses an object outside the source tenant's prefixes, a key with an empty, "."
// or ".." segment or a control character, and a malformed content type or cache control.
func checkObject(source, entry string, pax map[string]string) error {
	key := strings.TrimPrefix(entry, objectsDir)
	scope, err := store.NewScope(source)
	if err != nil {
		return err
	}
	rest := ""
	for _, prefix := range mediaref.TenantPrefixes(scope) {
		if r, ok := strings.CutPrefix(key, prefix); ok {
			rest = r
			break
		}
	}
	if rest == "" {
		return refuse("%s: the object is not under tenant %s's prefixes (%s): an archive may only hold its own tenant's files",
			entry, source, strings.Join(mediaref.TenantPrefixes(scope), ", "))
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return refuse("%s: the object's key has an empty, \".\" or \"..\" segment", entry)
		}
	}
	for _, c := range key {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return refuse("%s: the object's key holds a control character or a backslash", entry)
		}
	}
	if ct := pax[paxContentType]; ct != "" {
		if _, _, err := mime.ParseMediaType(ct); err != nil || len(ct) > maxHeaderValue {
			return refuse("%s: content type %.80q is not a media type", entry, ct)
		}
	}
	if cc := pax[paxCacheControl]; len(cc) > maxHeaderValue || strings.ContainsFunc(cc, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		return refuse("%s: cache control %.80q is malformed", entry, cc)
	}
	return nil
}

// signatureContext binds an archive's signature to its tenant and its manifest's digest.
func signatureContext(tenant string, digest []byte) secrets.Context {
	return secrets.Context{"use": "tenant-archive", "tenant": tenant, "manifest": hex.EncodeToString(digest)}
}

// signManifest is the signature of a manifest: its SHA-256 sealed with the deployment's key, bound
// to the tenant and the digest (an AEAD or KMS ciphertext whose context is the message: only the
// key's holder can make one that opens).
func signManifest(ctx context.Context, sealer secrets.Sealer, tenant string, manifest []byte) ([]byte, error) {
	digest := sha256.Sum256(manifest)
	sealed, err := sealer.Seal(ctx, digest[:], signatureContext(tenant, digest[:]))
	if err != nil {
		return nil, fmt.Errorf("tenants: sign the manifest: %w", err)
	}
	return []byte(sealed), nil
}

// verifyManifest checks a manifest's signature with the deployment's key.
func verifyManifest(ctx context.Context, sealer secrets.Sealer, tenant string, manifest, sig []byte) error {
	if len(sig) == 0 {
		return fmt.Errorf("%w: it has no %s", ErrUnsigned, signatureName)
	}
	if sealer == nil {
		return fmt.Errorf("%w: no deployment key to check its signature with", ErrUnsigned)
	}
	digest := sha256.Sum256(manifest)
	plain, err := sealer.Open(ctx, string(sig), signatureContext(tenant, digest[:]))
	if err != nil || subtle.ConstantTimeCompare(plain, digest[:]) != 1 {
		return fmt.Errorf("%w: its signature does not match its manifest (edited since, or signed by another deployment's key)", ErrUnsigned)
	}
	return nil
}
