package media

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3rest"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// VariantCacheControl is what an image's resized copies carry. Their names never change (a new
// upload has a new id), so browsers keep them a year; CloudFront only 5 minutes (s-maxage), so a
// deleted image stops being served to new visitors as soon as its original does (CacheControl).
const VariantCacheControl = "public, max-age=31536000, s-maxage=300, immutable"

var (
	errTooManyPixels = &api.Error{Status: http.StatusRequestEntityTooLarge,
		Message: fmt.Sprintf("This image is too large to process: at most %d megapixels.", imaging.MaxPixels/1_000_000)}
	errCorruptImage = &api.Error{Status: http.StatusUnprocessableEntity,
		Message: "This image could not be read: the file is damaged or incomplete. Please upload it again."}
)

// cleanImage reads an uploaded image whole (at most MaxSize bytes), strips its metadata
// (imaging.Strip: EXIF with its GPS position, XMP, IPTC, comments, text chunks; the image data
// and orientation kept byte for byte) and checks the result decodes: its header first, so a
// decompression bomb or an image too costly to decode is refused before any pixel is read. It
// returns the bytes to store and the image's size as shown.
func (s *Service) cleanImage(ctx context.Context, key string) ([]byte, imaging.Size, error) {
	src, err := s.objects.Read(ctx, key, MaxSize)
	if err != nil {
		return nil, imaging.Size{}, err
	}
	clean, err := imaging.Strip(src)
	if err != nil {
		return nil, imaging.Size{}, imageRefusal(err)
	}
	size, err := imaging.Verify(clean)
	return clean, size, imageRefusal(err)
}

// imageRefusal is the uploader's answer to an image imaging refused; other errors pass.
func imageRefusal(err error) error {
	var costly *imaging.DecodeSizeError
	switch {
	case errors.As(err, &costly):
		return &api.Error{Status: http.StatusRequestEntityTooLarge, Message: costly.Message()}
	case errors.Is(err, imaging.ErrTooManyPixels):
		return errTooManyPixels
	case errors.Is(err, imaging.ErrCorrupt):
		return errCorruptImage
	}
	return err
}

// Deriver makes the resized copies of confirmed images: in AWS the media bucket's "object
// created" events call it (functions/imaging), locally the library runs it in the background
// after each confirmation. Running it twice for one image is harmless: the copies are rewritten
// with the same bytes and the record's list set again.
type Deriver struct {
	records Records
	objects Objects
	log     *slog.Logger
	// waits are the pauses before reading a record again that is not there yet: an S3 event can
	// arrive before the confirmation's transaction has committed.
	waits []time.Duration
}

// NewDeriver returns the deriver over the shared table and the media bucket.
func NewDeriver(st *store.Store, client *s3rest.Client, bucket string, log *slog.Logger) *Deriver {
	return &Deriver{records: dynamoRecords{st: st}, objects: s3Objects{client: client, bucket: bucket, now: time.Now}, log: log,
		waits: []time.Duration{200 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second}}
}

// errNotRecordedYet asks the caller to try again later (Lambda retries a failed async event).
var errNotRecordedYet = errors.New("media: the file's record is not there yet")

// ObjectCreated derives the variants of the file at key when it is an original of a tenant's
// library; any other key (a variant, an upload, the trash) is ignored.
func (d *Deriver) ObjectCreated(ctx context.Context, key string) error {
	tenant, ref, ok := mediaref.ParseObjectKey(key)
	if !ok {
		return nil
	}
	scope, err := store.NewScope(tenant)
	if err != nil {
		return nil
	}
	id := mediaref.RecordKey(scope, ref).SK
	for _, wait := range d.waits {
		err = d.derive(ctx, scope, id, ref)
		if !errors.Is(err, errNotRecordedYet) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return d.derive(ctx, scope, id, ref)
}

// Derive makes the variants of the tenant's image id and lists them on its record. An image that
// has the current ones (current), a file that is not an image, and a record gone (deleted,
// refused) are done with; an image whose copies were made at older widths is derived again, and
// its copies at widths no longer made are deleted once the record lists the new ones; a
// file that cannot be read is logged and left as it is (readers keep using the original).
func (d *Deriver) Derive(ctx context.Context, scope store.Scope, id string) error {
	return d.derive(ctx, scope, id, "")
}

// derive is Derive for the file at ref when an event names it: a record not there while the
// file is means the confirmation has not committed yet (errNotRecordedYet).
func (d *Deriver) derive(ctx context.Context, scope store.Scope, id, ref string) error {
	it, err := d.records.Get(ctx, scope, id)
	if store.IsNotFound(err) {
		if ref == "" {
			return nil
		}
		if _, serr := d.objects.Size(ctx, mediaref.ObjectKey(scope, ref)); serr == nil {
			return errNotRecordedYet
		}
		return nil
	}
	if err != nil || it.MediaType != TypeImage || current(it) {
		return err
	}
	src, err := d.objects.Read(ctx, mediaref.ObjectKey(scope, it.FileURL), MaxSize)
	if store.IsNotFound(err) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return err
	}
	size, variants, err := putVariants(ctx, d.objects, scope, id, src)
	if errors.Is(err, imaging.ErrCorrupt) || errors.Is(err, imaging.ErrTooManyPixels) || errors.Is(err, imaging.ErrTooManyBytes) {
		d.log.WarnContext(ctx, "image not derived", "tenant", scope.Tenant(), "id", id, "cause", err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	err = d.records.SetVariants(ctx, scope, it, size.Width, size.Height, variants)
	if store.IsNotFound(err) {
		// The record left (the trash) while its copies were made: they must not stay served.
		for _, v := range variants {
			if err := d.objects.Delete(ctx, mediaref.ObjectKey(scope, v.FileURL)); err != nil {
				return err
			}
		}
		return nil
	}
	if err != nil {
		return err
	}
	// Copies of an older derivation at widths no longer made are no longer listed: not kept.
	kept := map[string]bool{}
	for _, v := range variants {
		kept[v.FileURL] = true
	}
	for _, v := range it.Variants {
		if !kept[v.FileURL] {
			if err := d.objects.Delete(ctx, mediaref.ObjectKey(scope, v.FileURL)); err != nil {
				return err
			}
		}
	}
	return nil
}

// current tells whether it lists the copies imaging makes today of an image its width: none is
// missing and none is of an older set of widths (imaging.WidthsFor).
func current(it Item) bool {
	if len(it.Variants) == 0 || it.Width <= 0 {
		return false
	}
	want := imaging.WidthsFor(it.Width)
	if len(want) != len(it.Variants) {
		return false
	}
	for i, v := range it.Variants {
		if v.Width != want[i] {
			return false
		}
	}
	return true
}

// putVariants makes the variants of src, the original of the tenant's image id, and stores them
// beside it; it returns the image's size as shown and the variants as its record lists them.
func putVariants(ctx context.Context, objects Objects, scope store.Scope, id string, src []byte) (imaging.Size, []Variant, error) {
	size, made, err := imaging.Derive(src)
	if err != nil {
		return size, nil, err
	}
	variants := make([]Variant, len(made))
	for i, v := range made {
		ref := mediaref.VariantRef(id, v.Width, v.Ext)
		if i == 0 {
			ref = mediaref.ThumbRef(id) // the smallest, at a name record lists can build
		}
		variants[i] = Variant{Width: v.Width, Height: v.Height, FileURL: ref}
		if err := objects.Put(ctx, mediaref.ObjectKey(scope, variants[i].FileURL), v.ContentType, VariantCacheControl, v.Data); err != nil {
			return size, nil, err
		}
	}
	return size, variants, nil
}

// DeriveTenant makes the variants of every image of the tenant's library that lacks the current
// ones (one made before variants existed or before the current widths, or whose event was lost):
// an operator's one-off, run again after imaging.Widths changes, paging through
// the library's partition (a Query, never a Scan). It returns how many images it derived.
func (d *Deriver) DeriveTenant(ctx context.Context, scope store.Scope) (int, error) {
	iter := d.records.Store().Table.Get("PK", scope.Collection(kindMedia)).Iter()
	n := 0
	var it Item
	for iter.Next(ctx, &it) {
		if it.MediaType != TypeImage || current(it) {
			continue
		}
		if err := d.Derive(ctx, scope, it.ID); err != nil {
			return n, err
		}
		n++
		it = Item{}
	}
	return n, store.Wrap("list media to derive", iter.Err())
}
