package media_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/testkit"
)

func TestUploadRequestBoundsItsStrings(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	huge := strings.Repeat("a", 100_000)
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"100k-char mimeType", map[string]any{"name": "a.png", "size": 10, "mimeType": "image/png" + huge}, "mimeType"},
		{"100k-char mimeType parameter", map[string]any{"name": "a.png", "size": 10, "mimeType": "image/png; x=" + huge}, "mimeType"},
		{"100k-char name", map[string]any{"name": huge + ".png", "size": 10, "mimeType": "image/png"}, "name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := testkit.Call(t, call{Method: "POST", Path: "/media/uploads", Tenant: tn.ID, Token: tn.AdminToken, Body: c.body})
			expect(t, res, 400, "")
			if res.Get("errors."+c.field) == nil {
				t.Fatalf("no error on %s: %s", c.field, res.Raw)
			}
		})
	}
}

// TestMalformedIDsNeverReachTheTable: a path id that is not a ULID is a 404 without a DynamoDB call.
func TestMalformedIDsNeverReachTheTable(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, id := range []string{strings.Repeat("A", 5000), "01arz3ndektsv4rrffq69g5fav", "01ARZ3NDEKTSV4RRFFQ69G5FA%23", "..%2F..%2Fx"} {
		before := testkit.Faults(t).Count("dynamodb", "", tn.ID)
		res := testkit.Call(t, call{Method: "DELETE", Path: "/media/" + id, Tenant: tn.ID, Token: tn.AdminToken})
		expect(t, res, 404, "")
		// The guard's one BatchGetItem (tenant, session, user) and nothing else.
		if n := testkit.Faults(t).Count("dynamodb", "", tn.ID) - before; n > 1 {
			t.Fatalf("DELETE /media/%.20s…: %d DynamoDB calls, want 1", id, n)
		}
	}
}

// TestConfirmWithoutListBucket: real S3 answers HeadObject on a missing key with 403 when the
// caller may not list the bucket. That is the same "not uploaded" as a 404, never a 500.
func TestConfirmWithoutListBucket(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	for _, op := range []string{"HeadObject", "GetObject"} {
		t.Run(op, func(t *testing.T) {
			tk := requestUpload(t, tn.ID, tn.AdminToken, "a.png", "image/png", len(pngBytes(t)))
			if op == "GetObject" {
				post(t, tk, pngBytes(t)) // the head is read, then the first bytes are refused
			}
			defer testkit.Faults(t).Inject(awsclient.Fault{Service: "s3", Op: op, Match: tk.Key, Status: 403, Code: "AccessDenied"})()
			res := confirm(t, tn.ID, tn.AdminToken, tk.Key, "a.png")
			if res.Status != http.StatusBadRequest && res.Status != http.StatusNotFound {
				t.Fatalf("confirm with S3 403 on %s: %d %s, want 400/404", op, res.Status, res.Raw)
			}
			list := testkit.Call(t, call{Method: "GET", Path: "/media", Tenant: tn.ID, Token: tn.AdminToken})
			if list.Get("totalCount") != float64(0) {
				t.Fatalf("a record was stored: %s", list.Raw)
			}
		})
	}
}

// TestServedMediaIsNotCachedForAYear: a deleted file must stop being served soon. Objects
// promoted to media/ carry a short max-age, never "immutable" for a year.
func TestServedMediaIsNotCachedForAYear(t *testing.T) {
	t.Parallel()
	tn := testkit.NewTenant(t)
	_, res := upload(t, tn, "a.png", "image/png", pngBytes(t))
	expect(t, res, 201, media.MsgUploaded)
	d := testkit.Deps(t)
	key := "media/" + tn.ID + "/" + res.Get("result.fileUrl").(string)
	out, err := s3client.New(d.AWS).HeadObject(context.Background(), &s3.HeadObjectInput{Bucket: aws.String(d.Config.MediaBucket), Key: aws.String(key)})
	if err != nil {
		t.Fatal(err)
	}
	cc := aws.ToString(out.CacheControl)
	if cc != media.CacheControl || strings.Contains(cc, "immutable") {
		t.Fatalf("Cache-Control %q, want %q", cc, media.CacheControl)
	}
}
