// Package secrets seals small secrets kept in the table (two-factor keys) so that a copy of the
// table, a backup or an export does not hold them in the clear. In AWS a KMS key does the sealing
// (KMS_KEY_ID): the key never leaves KMS, every use is in CloudTrail, and the function's role is
// what may decrypt. Locally (make dev, tests) an AES-256-GCM key from SECRETS_KEY does, or a
// fixed development key when neither is set outside Lambda. A sealed value names its sealer
// ("kms:" or "local:") and is bound to its context (tenant and user): a value copied onto another
// user's record does not open.
package secrets

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Context binds a sealed value to what it belongs to (KMS's encryption context).
type Context map[string]string

// Sealer seals and opens secrets.
type Sealer interface {
	Seal(ctx context.Context, plain []byte, bind Context) (string, error)
	Open(ctx context.Context, sealed string, bind Context) ([]byte, error)
}

// ErrNotConfigured is returned in Lambda when no KMS key is configured: a deployed function never
// falls back to a key written in the source.
var ErrNotConfigured = errors.New("secrets: KMS_KEY_ID is not set")

// devKey is the key of local development only (make dev, tests), where nothing is secret.
var devKey = sha256.Sum256([]byte("campuscms local development secrets key"))

// FromEnv returns the sealer the environment names: KMS with KMS_KEY_ID, else AES-GCM with
// SECRETS_KEY (base64, 32 bytes), else the development key outside Lambda. In Lambda without a
// key it returns a sealer that refuses every use with ErrNotConfigured.
func FromEnv(awsCfg aws.Config) (Sealer, error) {
	if id := strings.TrimSpace(os.Getenv("KMS_KEY_ID")); id != "" {
		if newKMS == nil {
			return nil, errors.New("secrets: KMS_KEY_ID is set but this binary does not link package secrets/kmssealer")
		}
		return newKMS(awsCfg, id), nil
	}
	if v := strings.TrimSpace(os.Getenv("SECRETS_KEY")); v != "" {
		key, err := base64.StdEncoding.DecodeString(v)
		if err != nil || len(key) != 32 {
			return nil, errors.New("secrets: SECRETS_KEY must be 32 bytes, base64")
		}
		return NewLocal(key)
	}
	if os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" {
		return refusing{}, nil
	}
	return NewLocal(devKey[:])
}

type refusing struct{}

func (refusing) Seal(context.Context, []byte, Context) (string, error) { return "", ErrNotConfigured }
func (refusing) Open(context.Context, string, Context) ([]byte, error) { return nil, ErrNotConfigured }

// local seals with AES-256-GCM; the context is the additional data.
type local struct{ aead cipher.AEAD }

// NewLocal returns an AES-256-GCM sealer over key (32 bytes).
func NewLocal(key []byte) (Sealer, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return local{aead: aead}, nil
}

const prefixLocal = "local:"

// newKMS builds the KMS sealer; package kmssealer sets it. Only the auth Lambda (and tools that
// seal) link it: the KMS client's package initialisation costs every cold start about 1 ms, and
// every group links this package through the auth guard.
var newKMS func(cfg aws.Config, keyID string) Sealer

// RegisterKMS is how package kmssealer makes FromEnv able to use KMS.
func RegisterKMS(f func(cfg aws.Config, keyID string) Sealer) { newKMS = f }

func (l local) Seal(_ context.Context, plain []byte, bind Context) (string, error) {
	nonce := make([]byte, l.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("secrets: %w", err)
	}
	out := l.aead.Seal(nonce, nonce, plain, bind.bytes())
	return prefixLocal + base64.RawStdEncoding.EncodeToString(out), nil
}

func (l local) Open(_ context.Context, sealed string, bind Context) ([]byte, error) {
	raw, ok := strings.CutPrefix(sealed, prefixLocal)
	if !ok {
		return nil, errors.New("secrets: not sealed by the local key")
	}
	data, err := base64.RawStdEncoding.DecodeString(raw)
	if err != nil || len(data) < l.aead.NonceSize() {
		return nil, errors.New("secrets: malformed sealed value")
	}
	n := l.aead.NonceSize()
	plain, err := l.aead.Open(nil, data[:n], data[n:], bind.bytes())
	if err != nil {
		return nil, errors.New("secrets: the sealed value does not open with this key and context")
	}
	return plain, nil
}

// bytes is the context in a canonical order.
func (c Context) bytes() []byte {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d:%s=%d:%s;", len(k), k, len(c[k]), c[k])
	}
	return []byte(b.String())
}
