package media

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// decodePolicy returns the expiration and conditions of a base64 POST policy.
func decodePolicy(t *testing.T, policy string) (string, []any) {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(policy)
	if err != nil {
		t.Fatalf("policy is not base64: %v", err)
	}
	var doc struct {
		Expiration string `json:"expiration"`
		Conditions []any  `json:"conditions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("policy is not JSON: %v", err)
	}
	return doc.Expiration, doc.Conditions
}

// hasCondition reports whether conditions hold want: an exact-match object or a list.
func hasCondition(conditions []any, want any) bool {
	w, _ := json.Marshal(want)
	for _, c := range conditions {
		if g, _ := json.Marshal(c); string(g) == string(w) {
			return true
		}
	}
	return false
}

func TestPresignPostPinsKeyTypeAndSize(t *testing.T) {
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	cases := []struct {
		name  string
		creds aws.Credentials
	}{
		{"static keys", aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}},
		{"session credentials (Lambda)", aws.Credentials{AccessKeyID: "ASIAEXAMPLE", SecretAccessKey: "secret", SessionToken: "tok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := PostPolicy{Bucket: "cms-media", Key: "uploads/acme/01J/photo.png", ContentType: "image/png", MinSize: 1, MaxSize: MaxSize, Expires: now.Add(postExpiry)}
			post, err := PresignPost(c.creds, "eu-west-1", PostURL("", "eu-west-1", "cms-media"), p, now)
			if err != nil {
				t.Fatal(err)
			}
			if post.URL != "https://cms-media.s3.eu-west-1.amazonaws.com/" {
				t.Errorf("url %q", post.URL)
			}
			exp, conds := decodePolicy(t, post.Fields["policy"])
			if exp != "2025-03-04T05:16:07.000Z" {
				t.Errorf("expiration %q", exp)
			}
			for _, want := range []any{
				map[string]string{"bucket": "cms-media"},
				map[string]string{"key": "uploads/acme/01J/photo.png"},
				map[string]string{"Content-Type": "image/png"},
				[]any{"content-length-range", 1, 5242880},
				map[string]string{"x-amz-credential": c.creds.AccessKeyID + "/20250304/eu-west-1/s3/aws4_request"},
				map[string]string{"x-amz-date": "20250304T050607Z"},
				map[string]string{"x-amz-algorithm": "AWS4-HMAC-SHA256"},
			} {
				if !hasCondition(conds, want) {
					t.Errorf("policy lacks %v: %v", want, conds)
				}
			}
			if got := hasCondition(conds, map[string]string{"x-amz-security-token": "tok"}); got != (c.creds.SessionToken != "") {
				t.Errorf("security token condition present=%v", got)
			}
			if post.Fields["key"] != p.Key || post.Fields["Content-Type"] != "image/png" || post.Fields["x-amz-date"] != "20250304T050607Z" {
				t.Errorf("fields %v", post.Fields)
			}
			wantSig := hex.EncodeToString(hmacSHA256(signingKey(c.creds.SecretAccessKey, "20250304", "eu-west-1", "s3"), post.Fields["policy"]))
			if post.Fields["x-amz-signature"] != wantSig {
				t.Errorf("signature %q, want %q", post.Fields["x-amz-signature"], wantSig)
			}
			if _, ok := post.Fields["x-amz-security-token"]; ok != (c.creds.SessionToken != "") {
				t.Errorf("security token field present=%v", ok)
			}
		})
	}
}

// TestSigningKey checks the SigV4 key derivation against AWS's published example
// ("Derive a signing key for Signature Version 4").
func TestSigningKey(t *testing.T) {
	got := hex.EncodeToString(signingKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1", "iam"))
	if want := "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d"; got != want {
		t.Fatalf("signing key %s, want %s", got, want)
	}
}

func TestPostURL(t *testing.T) {
	cases := []struct{ endpoint, want string }{
		{"http://127.0.0.1:4566", "http://127.0.0.1:4566/cms-media"},
		{"http://127.0.0.1:4566/", "http://127.0.0.1:4566/cms-media"},
		{"", "https://cms-media.s3.us-east-1.amazonaws.com/"},
	}
	for _, c := range cases {
		if got := PostURL(c.endpoint, "us-east-1", "cms-media"); got != c.want {
			t.Errorf("PostURL(%q) = %q, want %q", c.endpoint, got, c.want)
		}
	}
}
