// Package kmssealer is the KMS sealer of package secrets: importing it registers it with
// secrets.FromEnv (KMS_KEY_ID). It speaks KMS's JSON protocol itself (Encrypt and Decrypt, signed
// with SigV4 by the SDK's signer, which every Lambda links already) instead of linking the SDK's
// KMS client, whose package initialisation (operation schemas, endpoint rules) cost the auth
// Lambda's every cold start about 0.9 ms.
package kmssealer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/secrets"
)

func init() {
	secrets.RegisterKMS(func(cfg aws.Config, keyID string) secrets.Sealer { return New(cfg, keyID) })
}

const prefixKMS = "kms:"

// Sealer encrypts with one KMS key (secrets up to 4 KB, so no data key is needed: one Encrypt or
// Decrypt call per use).
type Sealer struct {
	cfg      aws.Config
	keyID    string
	endpoint string
	client   *http.Client
	signer   *v4.Signer
}

// New returns the sealer of the KMS key keyID, reached at AWS_ENDPOINT_URL_KMS,
// AWS_ENDPOINT_URL or KMS's regional endpoint.
func New(cfg aws.Config, keyID string) *Sealer {
	endpoint := awsclient.Endpoint(cfg, "KMS")
	if endpoint == "" {
		endpoint = "https://kms." + cfg.Region + ".amazonaws.com"
	}
	return &Sealer{cfg: cfg, keyID: keyID, endpoint: endpoint, client: awsclient.HTTPClient(cfg), signer: v4.NewSigner()}
}

// call sends one KMS action (TrentService.{action}) and decodes its answer into out.
func (s *Sealer) call(ctx context.Context, action string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint+"/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "TrentService."+action)
	if s.cfg.Credentials == nil {
		return errors.New("kmssealer: no AWS credentials")
	}
	creds, err := s.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("kmssealer: credentials: %w", err)
	}
	sum := sha256.Sum256(body)
	if err := s.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "kms", s.cfg.Region, time.Now()); err != nil {
		return fmt.Errorf("kmssealer: sign: %w", err)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("kmssealer: %s: %w", action, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("kmssealer: %s: %w", action, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(raw, &e)
		return fmt.Errorf("kmssealer: %s: %d %s %s", action, resp.StatusCode, e.Type, e.Message)
	}
	return json.Unmarshal(raw, out)
}

// request is the body both actions share: the key and, when there is one, the context.
func request(keyID string, bind secrets.Context) map[string]any {
	in := map[string]any{"KeyId": keyID}
	if len(bind) > 0 {
		in["EncryptionContext"] = map[string]string(bind)
	}
	return in
}

// Seal encrypts plain under the key, bound to the context.
func (s *Sealer) Seal(ctx context.Context, plain []byte, bind secrets.Context) (string, error) {
	var out struct {
		CiphertextBlob []byte
	}
	in := request(s.keyID, bind)
	in["Plaintext"] = plain
	if err := s.call(ctx, "Encrypt", in, &out); err != nil {
		return "", fmt.Errorf("secrets: kms encrypt: %w", err)
	}
	return prefixKMS + base64.RawStdEncoding.EncodeToString(out.CiphertextBlob), nil
}

// Open decrypts a value Seal made with the same context.
func (s *Sealer) Open(ctx context.Context, sealed string, bind secrets.Context) ([]byte, error) {
	raw, ok := strings.CutPrefix(sealed, prefixKMS)
	if !ok {
		return nil, errors.New("secrets: not sealed by KMS")
	}
	blob, err := base64.RawStdEncoding.DecodeString(raw)
	if err != nil {
		return nil, errors.New("secrets: malformed sealed value")
	}
	var out struct {
		Plaintext []byte
	}
	in := request(s.keyID, bind)
	in["CiphertextBlob"] = blob
	if err := s.call(ctx, "Decrypt", in, &out); err != nil {
		return nil, fmt.Errorf("secrets: kms decrypt: %w", err)
	}
	return out.Plaintext, nil
}
