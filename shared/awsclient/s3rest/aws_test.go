package s3rest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/campuscms/panel/shared/awsclient/s3rest"
)

type recorder struct{ req *http.Request }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.req = req
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
}

// On AWS (no endpoint set) a request goes to the bucket's regional virtual-hosted address, its
// path is the key encoded once as S3 signs it, and the signature covers the host, the payload's
// SHA-256 and the metadata headers.
func TestAWSRequestsAreVirtualHostedAndSigned(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	rec := &recorder{}
	c := s3rest.New(aws.Config{Region: "eu-west-1", HTTPClient: &http.Client{Transport: rec},
		Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", "TOKEN")})
	body := []byte("hello")
	if err := c.Put(context.Background(), "campus-media", "media/T1/a b+é.txt", body, s3rest.Meta{ContentType: "text/plain"}); err != nil {
		t.Fatal(err)
	}
	req := rec.req
	if req.Method != http.MethodPut || req.Host != "campus-media.s3.eu-west-1.amazonaws.com" || req.URL.Scheme != "https" {
		t.Fatalf("request: %s %s://%s", req.Method, req.URL.Scheme, req.Host)
	}
	if got := req.URL.EscapedPath(); got != "/media/T1/a%20b%2B%C3%A9.txt" {
		t.Fatalf("path %q", got)
	}
	sum := sha256.Sum256(body)
	if got := req.Header.Get("X-Amz-Content-Sha256"); got != hex.EncodeToString(sum[:]) {
		t.Fatalf("payload hash %q", got)
	}
	auth := req.Header.Get("Authorization")
	for _, want := range []string{"AWS4-HMAC-SHA256 Credential=AKID/", "/eu-west-1/s3/aws4_request",
		"SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token"} {
		if !strings.Contains(auth, want) {
			t.Fatalf("Authorization %q lacks %q", auth, want)
		}
	}
	if req.Header.Get("X-Amz-Security-Token") != "TOKEN" {
		t.Fatal("the session token is not sent")
	}
}
