package s3rest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// Every operation against the emulator, read back through the SDK's own client, with a key that
// needs escaping (spaces, a plus, non-ASCII, a reserved character).
func TestObjectOperations(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	c, sdk, bucket := s3rest.New(d.AWS), s3client.New(d.AWS), d.Config.MediaBucket
	prefix := "media/" + ids.New() + "/"
	key := prefix + "Année scolaire + plan (v2)&.pdf"

	if err := c.Put(ctx, bucket, key, []byte("0123456789"), s3rest.Meta{ContentType: "application/pdf", CacheControl: "public, max-age=300"}); err != nil {
		t.Fatal(err)
	}
	head, err := sdk.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("the SDK does not find what Put stored under the same key: %v", err)
	}
	if aws.ToString(head.ContentType) != "application/pdf" || aws.ToString(head.CacheControl) != "public, max-age=300" {
		t.Fatalf("Put's metadata: %q %q", aws.ToString(head.ContentType), aws.ToString(head.CacheControl))
	}

	if n, err := c.Size(ctx, bucket, key); err != nil || n != 10 {
		t.Fatalf("Size = %d, %v; want 10", n, err)
	}
	if got := read(t, c, bucket, key, 2, 4); got != "234" {
		t.Fatalf("range 2-4 = %q", got)
	}
	if got := read(t, c, bucket, key, 0, -1); got != "0123456789" {
		t.Fatalf("whole object = %q", got)
	}

	kept, replaced := prefix+"kept copy", prefix+"served/é.jpg"
	if err := c.Copy(ctx, bucket, key, kept, s3rest.Meta{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Copy(ctx, bucket, key, replaced, s3rest.Meta{ContentType: "image/jpeg", CacheControl: "no-store"}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{kept: "application/pdf", replaced: "image/jpeg"} {
		h, err := sdk.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(k)})
		if err != nil {
			t.Fatalf("copy %q: %v", k, err)
		}
		if aws.ToString(h.ContentType) != want || aws.ToInt64(h.ContentLength) != 10 {
			t.Fatalf("copy %q: %q, %d bytes; want %q, 10", k, aws.ToString(h.ContentType), aws.ToInt64(h.ContentLength), want)
		}
	}

	for _, k := range []string{key, kept, replaced} {
		if err := c.Delete(ctx, bucket, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Delete(ctx, bucket, key); err != nil {
		t.Fatalf("deleting a missing object: %v (S3 answers it with success)", err)
	}
	_, err = c.Size(ctx, bucket, key)
	expectCode(t, err, http.StatusNotFound, "NotFound")
	_, err = c.Get(ctx, bucket, key, 0, -1)
	expectCode(t, err, http.StatusNotFound, "NoSuchKey")
	expectCode(t, c.Copy(ctx, bucket, key, kept, s3rest.Meta{}), http.StatusNotFound, "NoSuchKey")
}

// S3 asks callers to retry 500 and 503 (SlowDown); other refusals are final and reach the caller
// with their code.
func TestRetriesWhatS3AsksToRetry(t *testing.T) {
	ctx := context.Background()
	d := testkit.Deps(t)
	c, bucket := s3rest.New(d.AWS), d.Config.MediaBucket
	key := "media/" + ids.New() + "/retried.txt"
	faults := testkit.Faults(t)

	defer faults.Inject(awsclient.Fault{Service: "s3", Op: "PutObject", Match: key, Times: 2, Status: 503, Code: "SlowDown"})()
	if err := c.Put(ctx, bucket, key, []byte("kept"), s3rest.Meta{}); err != nil {
		t.Fatalf("two SlowDowns then success: %v", err)
	}
	if n := faults.Count("s3", "PutObject", key); n != 3 {
		t.Fatalf("%d PutObject calls; want 3 (two refused, one stored)", n)
	}

	defer faults.Inject(awsclient.Fault{Service: "s3", Op: "GetObject", Match: key, Status: 500, Code: "InternalError"})()
	_, err := c.Get(ctx, bucket, key, 0, -1)
	expectCode(t, err, http.StatusInternalServerError, "InternalError")
	if n := faults.Count("s3", "GetObject", key); n != 3 {
		t.Fatalf("%d GetObject calls; want 3 attempts", n)
	}

	defer faults.Inject(awsclient.Fault{Service: "s3", Op: "HeadObject", Match: key, Status: 403, Code: "AccessDenied"})()
	_, err = c.Size(ctx, bucket, key)
	expectCode(t, err, http.StatusForbidden, "Forbidden")
	if n := faults.Count("s3", "HeadObject", key); n != 1 {
		t.Fatalf("%d HeadObject calls; a 403 is not retried", n)
	}
	if err := c.Delete(ctx, bucket, key); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, c *s3rest.Client, bucket, key string, from, to int64) string {
	t.Helper()
	body, err := c.Get(context.Background(), bucket, key, from, to)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func expectCode(t *testing.T, err error, status int, code string) {
	t.Helper()
	var e *s3rest.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v; want an *s3rest.Error %d %s", err, status, code)
	}
	if e.Status != status || e.Code != code {
		t.Fatalf("err = %d %s; want %d %s", e.Status, e.Code, status, code)
	}
}
