package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/store"
)

// CacheControl is what served media carries. Deleting a record must end access to its file, so
// browsers and CloudFront may keep a copy for 5 minutes at most, never "immutable" for a year
// (the keys are fresh ULIDs, so a short max-age costs only revalidations of popular files).
const CacheControl = "public, max-age=300"

// Objects is the media group's access to the media bucket.
type Objects interface {
	// Presign returns a presigned POST for p (p.Bucket is filled in).
	Presign(ctx context.Context, p PostPolicy) (PresignedPost, error)
	// Size returns an object's size; store.ErrNotFound if there is none.
	Size(ctx context.Context, key string) (int64, error)
	// Head returns up to n first bytes of an object.
	Head(ctx context.Context, key string, n int) ([]byte, error)
	// Promote copies an object to its served key with the given Content-Type, then deletes the original.
	Promote(ctx context.Context, from, to, contentType string) error
	// Move copies an object to another key as it is, then deletes the original; a missing
	// original is store.ErrNotFound.
	Move(ctx context.Context, from, to string) error
	// Delete removes an object (a missing object is no error).
	Delete(ctx context.Context, key string) error
	// Read returns a whole object of at most limit bytes (more is an error); a missing object is
	// store.ErrNotFound.
	Read(ctx context.Context, key string, limit int64) ([]byte, error)
	// Put stores an object served with the given Content-Type and Cache-Control.
	Put(ctx context.Context, key, contentType, cacheControl string, body []byte) error
}

// s3Objects implements Objects on one bucket.
type s3Objects struct {
	client    *s3rest.Client
	bucket    string
	uploadURL string
	now       func() time.Time
}

var _ Objects = s3Objects{}

func (o s3Objects) Presign(ctx context.Context, p PostPolicy) (PresignedPost, error) {
	return PresignWith(ctx, o.client, o.bucket, o.uploadURL, p, o.now())
}

// PresignWith presigns a browser's POST of p to bucket with client's credentials, at uploadURL,
// or the bucket's own address when it is empty (the media library's uploads, the WordPress
// import's export).
func PresignWith(ctx context.Context, client *s3rest.Client, bucket, uploadURL string, p PostPolicy, now time.Time) (PresignedPost, error) {
	creds, err := client.Credentials(ctx)
	if err != nil {
		return PresignedPost{}, fmt.Errorf("media: presign: credentials: %w", err)
	}
	p.Bucket = bucket
	if uploadURL == "" {
		uploadURL = PostURL(client.Endpoint(), client.Region(), bucket)
	}
	return PresignPost(creds, client.Region(), uploadURL, p, now)
}

func (o s3Objects) Size(ctx context.Context, key string) (int64, error) {
	n, err := o.client.Size(ctx, o.bucket, key)
	if err != nil {
		return 0, wrapS3Missing("head object", err)
	}
	return n, nil
}

func (o s3Objects) Head(ctx context.Context, key string, n int) ([]byte, error) {
	body, err := o.client.Get(ctx, o.bucket, key, 0, int64(n)-1)
	if err != nil {
		return nil, wrapS3Missing("read object head", err)
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("media: read object head: %w", err)
	}
	return b, nil
}

func (o s3Objects) Promote(ctx context.Context, from, to, contentType string) error {
	if err := o.client.Copy(ctx, o.bucket, from, to, s3rest.Meta{ContentType: contentType, CacheControl: CacheControl}); err != nil {
		return wrapS3("copy upload", err)
	}
	return o.Delete(ctx, from)
}

func (o s3Objects) Move(ctx context.Context, from, to string) error {
	if err := o.client.Copy(ctx, o.bucket, from, to, s3rest.Meta{}); err != nil {
		return wrapS3Missing("move object", err)
	}
	return o.Delete(ctx, from)
}

func (o s3Objects) Delete(ctx context.Context, key string) error {
	if err := o.client.Delete(ctx, o.bucket, key); err != nil {
		return wrapS3("delete object", err)
	}
	return nil
}

func (o s3Objects) Read(ctx context.Context, key string, limit int64) ([]byte, error) {
	body, err := o.client.Get(ctx, o.bucket, key, 0, -1)
	if err != nil {
		return nil, wrapS3Missing("read object", err)
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("media: read object: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("media: read object: %s is larger than %d bytes", key, limit)
	}
	return b, nil
}

func (o s3Objects) Put(ctx context.Context, key, contentType, cacheControl string, body []byte) error {
	if err := o.client.Put(ctx, o.bucket, key, body, s3rest.Meta{ContentType: contentType, CacheControl: cacheControl}); err != nil {
		return wrapS3("put object", err)
	}
	return nil
}

// wrapS3Missing is wrapS3 for reads of an upload that may not exist: without s3:ListBucket, S3
// answers a missing key with 403 AccessDenied instead of 404 (HEAD: a bare 403 "Forbidden").
// The confirm step only reads keys of the caller's own upload, under a prefix the function may
// read, so a 403 there means "not uploaded" (or expired) and is answered like a 404.
func wrapS3Missing(op string, err error) error {
	var e *s3rest.Error
	if errors.As(err, &e) && (e.Code == "AccessDenied" || e.Code == "Forbidden") {
		return fmt.Errorf("media: %s: %w (S3 403: %v)", op, store.ErrNotFound, err)
	}
	return wrapS3(op, err)
}

// wrapS3 maps S3's "no such object" answers to store.ErrNotFound.
func wrapS3(op string, err error) error {
	var e *s3rest.Error
	if errors.As(err, &e) && (e.Code == "NotFound" || e.Code == "NoSuchKey") {
		return fmt.Errorf("media: %s: %w", op, store.ErrNotFound)
	}
	return fmt.Errorf("media: %s: %w", op, err)
}
