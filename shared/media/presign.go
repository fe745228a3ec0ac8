package media

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// PostPolicy is what a presigned POST pins: the one key, the exact Content-Type and the size range.
type PostPolicy struct {
	Bucket      string
	Key         string
	ContentType string
	MinSize     int64
	MaxSize     int64
	Expires     time.Time
}

// PresignedPost is the URL and form fields a browser posts (fields first, the file last) to
// upload one object straight to S3.
type PresignedPost struct {
	URL    string            `json:"url"`
	Fields map[string]string `json:"fields"`
}

// PostURL is where a browser posts an upload: path-style on the emulator's endpoint when one is
// set (AWS_ENDPOINT_URL), else the bucket's regional virtual-hosted endpoint.
func PostURL(endpoint, region, bucket string) string {
	if endpoint != "" {
		return strings.TrimSuffix(endpoint, "/") + "/" + bucket
	}
	return fmt.Sprintf("https://%s.s3.%s.amazonaws.com/", bucket, region)
}

// PresignPost signs p as an S3 POST policy with SigV4 (aws-sdk-go-v2 has no helper for it). S3
// refuses the upload unless the form's key and Content-Type equal the pinned ones and the file's
// size lies in [MinSize, MaxSize].
func PresignPost(creds aws.Credentials, region, url string, p PostPolicy, now time.Time) (PresignedPost, error) {
	now = now.UTC()
	date := now.Format("20060102")
	amzDate := now.Format("20060102T150405Z")
	credential := fmt.Sprintf("%s/%s/%s/s3/aws4_request", creds.AccessKeyID, date, region)
	conditions := []any{
		map[string]string{"bucket": p.Bucket},
		map[string]string{"key": p.Key},
		map[string]string{"Content-Type": p.ContentType},
		[]any{"content-length-range", p.MinSize, p.MaxSize},
		map[string]string{"x-amz-algorithm": "AWS4-HMAC-SHA256"},
		map[string]string{"x-amz-credential": credential},
		map[string]string{"x-amz-date": amzDate},
	}
	if creds.SessionToken != "" {
		conditions = append(conditions, map[string]string{"x-amz-security-token": creds.SessionToken})
	}
	doc, err := json.Marshal(map[string]any{
		"expiration": p.Expires.UTC().Format("2006-01-02T15:04:05.000Z"),
		"conditions": conditions,
	})
	if err != nil {
		return PresignedPost{}, fmt.Errorf("media: marshal post policy: %w", err)
	}
	policy := base64.StdEncoding.EncodeToString(doc)
	fields := map[string]string{
		"key":              p.Key,
		"Content-Type":     p.ContentType,
		"policy":           policy,
		"x-amz-algorithm":  "AWS4-HMAC-SHA256",
		"x-amz-credential": credential,
		"x-amz-date":       amzDate,
		"x-amz-signature":  hex.EncodeToString(hmacSHA256(signingKey(creds.SecretAccessKey, date, region, "s3"), policy)),
	}
	if creds.SessionToken != "" {
		fields["x-amz-security-token"] = creds.SessionToken
	}
	return PresignedPost{URL: url, Fields: fields}, nil
}

// signingKey derives the SigV4 key for one day, region and service.
func signingKey(secret, date, region, service string) []byte {
	k := hmacSHA256([]byte("AWS4"+secret), date)
	k = hmacSHA256(k, region)
	k = hmacSHA256(k, service)
	return hmacSHA256(k, "aws4_request")
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}
