package media

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/imaging"
	"github.com/campuscms/panel/shared/mediaref"
	"github.com/campuscms/panel/shared/store"
)

// strippedVersion is the Stripped value of an original that imaging.Strip has been through.
// Should stripping ever drop more, raising it makes the one-off job go over every image again.
const strippedVersion = 1

// stripPage is how many records of the library one Query reads: the job holds one page's records
// and one original (at most MaxSize) at a time.
const stripPage = 25

// StripReport counts what the one-off job did in a tenant's library.
type StripReport struct {
	Images     int   // images not marked stripped, looked at
	Stripped   int   // originals rewritten without their metadata
	Unreadable int   // originals imaging.Strip refused (left as they are, not marked)
	Missing    int   // records whose original is not there (left as they are)
	Saved      int64 // bytes the rewritten originals lost
}

// Stripper strips the metadata of originals recorded before confirmation did (issue 40): an
// operator's one-off through cmsctl, with the same imaging.Strip as confirmation.
type Stripper struct {
	records Records
	objects Objects
}

// NewStripper returns the job over the shared table and the media bucket.
func NewStripper(st *store.Store, client *s3rest.Client, bucket string) *Stripper {
	return &Stripper{records: dynamoRecords{st: st}, objects: s3Objects{client: client, bucket: bucket, now: time.Now}}
}

// Tenant strips the originals of the tenant's images not yet marked stripped, a page of records
// at a time (a Query of the library's partition, never a Scan), calling progress after each page.
// Each original is read, stripped and, when that changed it, written back in place (same key,
// type and Cache-Control); then its record takes the stored size and the mark, and the bytes
// counter the difference, in one transaction. So it is idempotent and resumable: a run stopped
// part way leaves every record either marked with its new size or unmarked, and the next run
// goes over the unmarked ones only (an original already rewritten strips to itself and only its
// record is written). An image deleted meanwhile keeps nothing served: its rewritten copy goes.
func (s *Stripper) Tenant(ctx context.Context, scope store.Scope, progress func(StripReport)) (StripReport, error) {
	var rep StripReport
	var from dynamo.PagingKey
	for {
		q := s.records.Store().Table.Get("PK", scope.Collection(kindMedia)).
			Filter("$ = ? AND attribute_not_exists($)", "mediaType", TypeImage, "stripped").SearchLimit(stripPage)
		if from != nil {
			q = q.StartFrom(from)
		}
		var page []Item
		next, err := q.AllWithLastEvaluatedKey(ctx, &page)
		if err != nil {
			return rep, store.Wrap("list media to strip", err)
		}
		for _, it := range page {
			if err := s.strip(ctx, scope, it, &rep); err != nil {
				return rep, err
			}
		}
		if progress != nil {
			progress(rep)
		}
		if next == nil {
			return rep, nil
		}
		from = next
	}
}

// strip does one image.
func (s *Stripper) strip(ctx context.Context, scope store.Scope, it Item, rep *StripReport) error {
	rep.Images++
	key := mediaref.ObjectKey(scope, it.FileURL)
	src, err := s.objects.Read(ctx, key, MaxSize)
	if store.IsNotFound(err) {
		rep.Missing++
		return nil
	}
	if err != nil {
		return err
	}
	clean, err := imaging.Strip(src)
	if errors.Is(err, imaging.ErrCorrupt) {
		rep.Unreadable++
		return nil
	}
	if err != nil {
		return err
	}
	changed := !bytes.Equal(clean, src)
	if changed {
		if err := s.objects.Put(ctx, key, it.MimeType, CacheControl, clean); err != nil {
			return err
		}
	}
	err = s.records.SetStripped(ctx, scope, it, int64(len(clean)))
	if store.IsNotFound(err) {
		// Deleted (or rewritten by another run) meanwhile: a copy this run put back where the
		// delete had moved the original from must not stay served without its record.
		if _, gerr := s.records.Get(ctx, scope, it.ID); store.IsNotFound(gerr) && changed {
			return s.objects.Delete(ctx, key)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if changed {
		rep.Stripped++
		rep.Saved += int64(len(src) - len(clean))
	}
	return nil
}
