// Package s3rest speaks the five S3 object operations the Lambdas use (HEAD, GET, PUT, copy,
// DELETE) over S3's REST protocol itself, signed with SigV4 by the SDK's signer, which every
// Lambda links already. It replaces the SDK's S3 client in the Lambdas: that package's
// initialisation (operation serialisers, endpoint rules and partitions, the SigV4a signer,
// encoding/xml) cost every cold start of the groups serving media about 0.3 ms, for five calls.
// Tools (cmsctl, the local stack's setup) keep the SDK client (awsclient/s3client), which they
// need for listing, bucket setup and multipart transfers.
package s3rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/campuscms/panel/shared/awsclient"
)

// Attempts and backoff: S3 asks callers to retry 500 and 503 (SlowDown) answers; three attempts
// with jittered backoff of at most 400 ms each, as the SDK's standard retryer does, leave most of
// a Lambda's 10 s for the work.
const (
	attempts   = 3
	maxBackoff = 400 * time.Millisecond
)

// emptySHA256 is the hex SHA-256 of an empty payload.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// Client sends object operations to one account's S3 in one region.
type Client struct {
	cfg aws.Config
	// endpoint is an emulator's address (path-style requests); "" means AWS (virtual-hosted).
	endpoint string
	http     *http.Client
	signer   *v4.Signer
}

// New returns a client for cfg: requests go to AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL
// path-style when one is set, else to the bucket's regional virtual-hosted endpoint.
func New(cfg aws.Config) *Client {
	return &Client{cfg: cfg, endpoint: awsclient.Endpoint(cfg, "S3"), http: awsclient.HTTPClient(cfg),
		signer: v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })}
}

// Region is the client's region.
func (c *Client) Region() string { return c.cfg.Region }

// Endpoint is the emulator's address, or "" on AWS.
func (c *Client) Endpoint() string { return c.endpoint }

// Credentials returns the keys requests are signed with.
func (c *Client) Credentials(ctx context.Context) (aws.Credentials, error) {
	if c.cfg.Credentials == nil {
		return aws.Credentials{}, errors.New("s3rest: no AWS credentials")
	}
	return c.cfg.Credentials.Retrieve(ctx)
}

// Error is S3's answer to a request it refused: its HTTP status and error code ("NoSuchKey",
// "AccessDenied"; for HEAD, which has no body, "NotFound" or "Forbidden" from the status).
type Error struct {
	Op      string
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("s3 %s: %d %s: %s", e.Op, e.Status, e.Code, e.Message)
}

// ErrorCode is the S3 error code (the SDK's smithy.APIError names it so too).
func (e *Error) ErrorCode() string { return e.Code }

// Meta is what an object is served with.
type Meta struct {
	ContentType, CacheControl string
}

func (m Meta) set(h http.Header) {
	if m.ContentType != "" {
		h.Set("Content-Type", m.ContentType)
	}
	if m.CacheControl != "" {
		h.Set("Cache-Control", m.CacheControl)
	}
}

// Size returns the size of an object (HEAD).
func (c *Client) Size(ctx context.Context, bucket, key string) (int64, error) {
	res, err := c.do(ctx, "HeadObject", http.MethodHead, bucket, key, nil, nil)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.ContentLength, nil
}

// Get returns an object's body, or its bytes from..to (inclusive) when to >= 0. The caller closes it.
func (c *Client) Get(ctx context.Context, bucket, key string, from, to int64) (io.ReadCloser, error) {
	h := http.Header{}
	if to >= 0 {
		h.Set("Range", "bytes="+strconv.FormatInt(from, 10)+"-"+strconv.FormatInt(to, 10))
	}
	res, err := c.do(ctx, "GetObject", http.MethodGet, bucket, key, h, nil)
	if err != nil {
		return nil, err
	}
	return res.Body, nil
}

// Put stores body as an object served with meta.
func (c *Client) Put(ctx context.Context, bucket, key string, body []byte, meta Meta) error {
	h := http.Header{}
	meta.set(h)
	return c.discard(c.do(ctx, "PutObject", http.MethodPut, bucket, key, h, body))
}

// Copy copies an object within the bucket. With a zero meta the copy keeps the original's
// metadata; otherwise it is served with meta instead (S3's REPLACE directive).
func (c *Client) Copy(ctx context.Context, bucket, from, to string, meta Meta) error {
	h := http.Header{}
	h.Set("X-Amz-Copy-Source", bucket+"/"+escapePath(from))
	if meta != (Meta{}) {
		h.Set("X-Amz-Metadata-Directive", "REPLACE")
		meta.set(h)
	}
	res, err := c.do(ctx, "CopyObject", http.MethodPut, bucket, to, h, nil)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	// A copy can fail after S3 has answered 200: the error is then in the body.
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return fmt.Errorf("s3 CopyObject: %w", err)
	}
	if bytes.Contains(raw, []byte("<Error>")) {
		return parseError("CopyObject", http.StatusInternalServerError, raw)
	}
	return nil
}

// Delete removes an object; S3 answers a missing one with success too.
func (c *Client) Delete(ctx context.Context, bucket, key string) error {
	return c.discard(c.do(ctx, "DeleteObject", http.MethodDelete, bucket, key, nil, nil))
}

func (c *Client) discard(res *http.Response, err error) error {
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	return res.Body.Close()
}

// do sends one signed request, retrying what S3 asks callers to retry (500, 503, a broken
// connection); every operation here may be repeated safely. A non-2xx answer is an *Error.
func (c *Client) do(ctx context.Context, op, method, bucket, key string, h http.Header, body []byte) (*http.Response, error) {
	var err error
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 {
			wait := time.Duration(rand.Int64N(int64(min(maxBackoff, 25*time.Millisecond<<attempt))))
			select {
			case <-ctx.Done():
				return nil, errors.Join(err, ctx.Err())
			case <-time.After(wait):
			}
		}
		var res *http.Response
		res, err = c.send(ctx, op, method, bucket, key, h, body)
		if err == nil {
			return res, nil
		}
		var e *Error
		if errors.As(err, &e) && e.Status != http.StatusInternalServerError && e.Status != http.StatusServiceUnavailable {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, err
}

func (c *Client) send(ctx context.Context, op, method, bucket, key string, h http.Header, body []byte) (*http.Response, error) {
	req, err := c.request(ctx, method, bucket, key, h, body)
	if err != nil {
		return nil, fmt.Errorf("s3 %s: %w", op, err)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("s3 %s: %w", op, err)
	}
	if res.StatusCode/100 == 2 {
		return res, nil
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	return nil, parseError(op, res.StatusCode, raw)
}

// request builds a signed request.
func (c *Client) request(ctx context.Context, method, bucket, key string, h http.Header, body []byte) (*http.Request, error) {
	url, host := c.url(bucket, key)
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Host = host
	for k, v := range h {
		req.Header[k] = v
	}
	hash := emptySHA256
	if body != nil {
		sum := sha256.Sum256(body)
		hash = hex.EncodeToString(sum[:])
	}
	req.Header.Set("X-Amz-Content-Sha256", hash)
	creds, err := c.Credentials(ctx)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	if err := c.signer.SignHTTP(ctx, creds, req, hash, "s3", c.cfg.Region, time.Now()); err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return req, nil
}

// url is where a request for key goes and the Host it names: path-style on an emulator,
// virtual-hosted on AWS.
func (c *Client) url(bucket, key string) (url, host string) {
	path := "/" + escapePath(key)
	if c.endpoint != "" {
		_, rest, _ := strings.Cut(c.endpoint, "://")
		host, _, _ = strings.Cut(rest, "/")
		return c.endpoint + "/" + bucket + path, host
	}
	host = bucket + ".s3." + c.cfg.Region + ".amazonaws.com"
	return "https://" + host + path, host
}

// parseError reads S3's XML error (<Error><Code>…</Code><Message>…</Message></Error>); HEAD
// answers and some proxies send none, and then the status names it.
func parseError(op string, status int, raw []byte) *Error {
	e := &Error{Op: op, Status: status, Code: element(raw, "Code"), Message: element(raw, "Message")}
	if e.Code == "" {
		switch status {
		case http.StatusNotFound:
			e.Code = "NotFound"
		case http.StatusForbidden:
			e.Code = "Forbidden"
		default:
			e.Code = http.StatusText(status)
		}
	}
	return e
}

// element returns the text of the first <name> element in an S3 error document (flat XML whose
// values are plain text), unescaping the five predefined entities.
func element(raw []byte, name string) string {
	_, rest, ok := bytes.Cut(raw, []byte("<"+name+">"))
	if !ok {
		return ""
	}
	v, _, ok := bytes.Cut(rest, []byte("</"+name+">"))
	if !ok {
		return ""
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&").Replace(string(v))
}

// escapePath encodes an object key for a URL path as S3 signs it: every byte but the unreserved
// ones (A-Z a-z 0-9 - _ . ~) and "/" as %XX.
func escapePath(key string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(key))
	for i := 0; i < len(key); i++ {
		ch := key[i]
		if 'A' <= ch && ch <= 'Z' || 'a' <= ch && ch <= 'z' || '0' <= ch && ch <= '9' || strings.IndexByte("-_.~/", ch) >= 0 {
			b.WriteByte(ch)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[ch>>4])
		b.WriteByte(hexDigits[ch&15])
	}
	return b.String()
}
