// Package mediaref is the layout of media object keys and the check every record's file reference
// passes, apart from the media service so that collections link no S3 client.
package mediaref

import (
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/lazyre"
	"github.com/campuscms/panel/shared/store"
)

// Object key layout. A confirmed file lives at media/{tenant}/{ulid}/{safe-name}, which
// CloudFront's /media/* behaviour (and the local proxy) serves as /media/{tenant}/{ulid}/{safe-name};
// records store only "{ulid}/{safe-name}", relative to the tenant's objectUrlPrefix
// ("/media/{tenant}/", from tenant-info). Uploads first land under uploads/{tenant}/, which is
// never served and expires by a bucket lifecycle rule. A file in the trash lives at
// trash/{tenant}/{ulid}/{safe-name}: never served, and expired by a lifecycle rule a day after
// its trash entry (its copy there is new, so the rule counts from the delete).
const (
	mediaRoot  = "media/"
	uploadRoot = "uploads/"
	trashRoot  = "trash/"
)

// TrashRoot is the key prefix of files in the trash, for the bucket's lifecycle rule.
const TrashRoot = trashRoot

// maxNameLen bounds the safe file name inside a key.
const maxNameLen = 100

var (
	refPattern   = lazyre.New(`^([0-9A-HJKMNP-TV-Z]{26})/([A-Za-z0-9_][A-Za-z0-9._-]{0,99})$`)
	unsafeRun    = lazyre.New(`[^A-Za-z0-9._-]+`)
	repeatedDots = lazyre.New(`\.{2,}`)
	// ErrForeignKey answers a file reference outside the caller's media library.
	ErrForeignKey = &api.Error{Status: http.StatusBadRequest, Message: "File is not in this institution's media library."}
)

// SafeName turns a user's file name into one safe inside a key and a URL: the base name only,
// runs of anything but letters, digits, '.', '_' and '-' become '-', no "..", at most 100
// characters with the extension kept; "file" if nothing is left.
func SafeName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base("/" + name)
	name = unsafeRun().ReplaceAllString(name, "-")
	name = repeatedDots().ReplaceAllString(name, ".")
	name = strings.TrimLeft(name, ".-")
	name = strings.TrimRight(name, ".-")
	if len(name) > maxNameLen {
		ext := path.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		name = strings.TrimRight(name[:maxNameLen-len(ext)], ".-") + ext
	}
	if name == "" || name == "/" {
		return "file"
	}
	return name
}

// ObjectKey is the S3 key of a confirmed file of the tenant given its reference "{ulid}/{name}".
func ObjectKey(scope store.Scope, ref string) string {
	return mediaRoot + scope.Tenant() + "/" + ref
}

// TrashKey is the S3 key of a file of the tenant while its record is in the trash.
func TrashKey(scope store.Scope, ref string) string {
	return trashRoot + scope.Tenant() + "/" + ref
}

// VariantRef is the reference of a resized copy of the image whose record is id, beside its
// original: "{ulid}/w/{width}.{ext}". Its name never changes (a new file has a new id), and it
// can never be taken for an original, whose name holds no '/'.
func VariantRef(id string, width int, ext string) string {
	return id + "/w/" + strconv.Itoa(width) + "." + ext
}

// ThumbRef is the reference of an image's smallest copy (at most 320 pixels wide, JPEG or PNG by
// its Content-Type): a name anyone holding only the original's reference can build, so a record
// list shows thumbnails without reading the media records.
func ThumbRef(id string) string { return id + "/w/thumb" }

// ParseObjectKey returns the tenant and reference of an original file's key
// ("media/{tenant}/{ulid}/{name}"); ok is false for any other key (a variant, an upload).
func ParseObjectKey(key string) (tenant, ref string, ok bool) {
	rest, found := strings.CutPrefix(key, mediaRoot)
	if !found {
		return "", "", false
	}
	tenant, ref, found = strings.Cut(rest, "/")
	if !found || !refPattern().MatchString(ref) || strings.Contains(ref, "..") {
		return "", "", false
	}
	return tenant, ref, true
}

// UploadKey is the S3 key a presigned POST pins for one upload.
func UploadKey(scope store.Scope, id, safeName string) string {
	return uploadRoot + scope.Tenant() + "/" + id + "/" + safeName
}

// ParseUploadKey returns the upload id and safe name of an upload key of the scope's tenant.
func ParseUploadKey(scope store.Scope, key string) (id, name string, ok bool) {
	rest, found := strings.CutPrefix(key, uploadRoot+scope.Tenant()+"/")
	if !found {
		return "", "", false
	}
	m := refPattern().FindStringSubmatch(rest)
	if m == nil || strings.Contains(m[2], "..") {
		return "", "", false
	}
	return m[1], m[2], true
}

// CheckKey validates a file reference that a record (collection item, page, form, header or
// footer logo) is about to store: it must be "{ulid}/{safe-name}" of the caller's media library,
// relative to the tenant's objectUrlPrefix. The served URL always starts with the caller's own
// /media/{tenant}/, so a well-formed reference can never point at another tenant's file. The
// forms "/media/{tenant}/{ulid}/{name}" and "media/{tenant}/{ulid}/{name}" of the caller's own
// tenant are accepted too; Normalize returns the stored form. The error is a 400 *api.Error.
func CheckKey(scope store.Scope, key string) error {
	_, err := Normalize(scope, key)
	return err
}

// Normalize validates a file reference like CheckKey and returns it as stored: "{ulid}/{name}".
func Normalize(scope store.Scope, key string) (string, error) {
	ref := key
	for _, prefix := range []string{"/" + mediaRoot, mediaRoot} {
		if rest, ok := strings.CutPrefix(ref, prefix); ok {
			own, ok := strings.CutPrefix(rest, scope.Tenant()+"/")
			if !ok {
				return "", ErrForeignKey
			}
			ref = own
			break
		}
	}
	if !refPattern().MatchString(ref) || strings.Contains(ref, "..") {
		return "", ErrForeignKey
	}
	return ref, nil
}

// IsRef reports whether s has the form of a stored file reference ("{ulid}/{name}").
func IsRef(s string) bool { return refPattern().MatchString(s) && !strings.Contains(s, "..") }

// RecordKey returns the key of the media record whose file is ref ("{ulid}/{name}", as Normalize
// returns it): the record's id is the reference's ulid, in the tenant's "media" partition (the
// media package's records). Other packages use it to check that a reference names a file of the
// tenant's library (a form submission's file upload).
func RecordKey(scope store.Scope, ref string) store.Key {
	id, _, _ := strings.Cut(ref, "/")
	return store.Key{PK: scope.Collection(RecordPartition), SK: id}
}

// RecordPartition is the collection partition of the tenant's media records.
const RecordPartition = "media"

// TenantPrefixes are the key prefixes of every object of the tenant (confirmed, uploading, in the
// trash): what an export copies and a tenant's deletion removes.
func TenantPrefixes(scope store.Scope) []string {
	return []string{mediaRoot + scope.Tenant() + "/", uploadRoot + scope.Tenant() + "/", trashRoot + scope.Tenant() + "/"}
}
