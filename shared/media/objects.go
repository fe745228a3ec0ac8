package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

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
	client    *s3.Client
	bucket    string
	uploadURL string
	now       func() time.Time
}

var _ Objects = s3Objects{}

func (o s3Objects) Presign(ctx context.Context, p PostPolicy) (PresignedPost, error) {
	opts := o.client.Options()
	if opts.Credentials == nil {
		return PresignedPost{}, errors.New("media: presign: no credentials")
	}
	creds, err := opts.Credentials.Retrieve(ctx)
	if err != nil {
		return PresignedPost{}, fmt.Errorf("media: presign: credentials: %w", err)
	}
	p.Bucket = o.bucket
	url := o.uploadURL
	if url == "" {
		url = PostURL(aws.ToString(opts.BaseEndpoint), opts.Region, o.bucket)
	}
	return PresignPost(creds, opts.Region, url, p, o.now())
}

func (o s3Objects) Size(ctx context.Context, key string) (int64, error) {
	out, err := o.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(key)})
	if err != nil {
		return 0, wrapS3Missing("head object", err)
	}
	return aws.ToInt64(out.ContentLength), nil
}

func (o s3Objects) Head(ctx context.Context, key string, n int) ([]byte, error) {
	out, err := o.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(key),
		Range: aws.String(fmt.Sprintf("bytes=0-%d", n-1))})
	if err != nil {
		return nil, wrapS3Missing("read object head", err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(io.LimitReader(out.Body, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("media: read object head: %w", err)
	}
	return b, nil
}

func (o s3Objects) Promote(ctx context.Context, from, to, contentType string) error {
	_, err := o.client.CopyObject(ctx, &s3.CopyObjectInput{
		Bucket: aws.String(o.bucket), Key: aws.String(to), CopySource: aws.String(o.bucket + "/" + from),
		MetadataDirective: types.MetadataDirectiveReplace, ContentType: aws.String(contentType),
		CacheControl: aws.String(CacheControl),
	})
	if err != nil {
		return wrapS3("copy upload", err)
	}
	return o.Delete(ctx, from)
}

func (o s3Objects) Move(ctx context.Context, from, to string) error {
	_, err := o.client.CopyObject(ctx, &s3.CopyObjectInput{
		Bucket: aws.String(o.bucket), Key: aws.String(to), CopySource: aws.String(o.bucket + "/" + from),
	})
	if err != nil {
		return wrapS3Missing("move object", err)
	}
	return o.Delete(ctx, from)
}

func (o s3Objects) Delete(ctx context.Context, key string) error {
	_, err := o.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(key)})
	if err != nil {
		return wrapS3("delete object", err)
	}
	return nil
}

func (o s3Objects) Read(ctx context.Context, key string, limit int64) ([]byte, error) {
	out, err := o.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(key)})
	if err != nil {
		return nil, wrapS3Missing("read object", err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(io.LimitReader(out.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("media: read object: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("media: read object: %s is larger than %d bytes", key, limit)
	}
	return b, nil
}

func (o s3Objects) Put(ctx context.Context, key, contentType, cacheControl string, body []byte) error {
	_, err := o.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(o.bucket), Key: aws.String(key),
		Body: bytes.NewReader(body), ContentType: aws.String(contentType), CacheControl: aws.String(cacheControl)})
	if err != nil {
		return wrapS3("put object", err)
	}
	return nil
}

// wrapS3Missing is wrapS3 for reads of an upload that may not exist: without s3:ListBucket, S3
// answers a missing key with 403 AccessDenied instead of 404 (HEAD: a bare 403 "Forbidden").
// The confirm step only reads keys of the caller's own upload, under a prefix the function may
// read, so a 403 there means "not uploaded" (or expired) and is answered like a 404.
func wrapS3Missing(op string, err error) error {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode() == "AccessDenied" || apiErr.ErrorCode() == "Forbidden") {
		return fmt.Errorf("media: %s: %w (S3 403: %v)", op, store.ErrNotFound, err)
	}
	return wrapS3(op, err)
}

// wrapS3 maps S3's "no such object" answers to store.ErrNotFound.
func wrapS3(op string, err error) error {
	var (
		noKey    *types.NoSuchKey
		notFound *types.NotFound
		apiErr   smithy.APIError
	)
	if errors.As(err, &noKey) || errors.As(err, &notFound) ||
		(errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NotFound" || apiErr.ErrorCode() == "NoSuchKey")) {
		return fmt.Errorf("media: %s: %w", op, store.ErrNotFound)
	}
	return fmt.Errorf("media: %s: %w", op, err)
}
