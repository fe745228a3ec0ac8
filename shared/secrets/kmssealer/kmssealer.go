// Package kmssealer is the KMS sealer of package secrets, in a package of its own so that only
// the binaries that seal with KMS link the KMS client: importing it registers it with
// secrets.FromEnv (KMS_KEY_ID).
package kmssealer

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/campuscms/panel/shared/secrets"
)

func init() {
	secrets.RegisterKMS(func(cfg aws.Config, keyID string) secrets.Sealer { return New(kms.NewFromConfig(cfg), keyID) })
}

const prefixKMS = "kms:"

// KMSAPI is the part of the KMS client the sealer uses.
type KMSAPI interface {
	Encrypt(ctx context.Context, in *kms.EncryptInput, opts ...func(*kms.Options)) (*kms.EncryptOutput, error)
	Decrypt(ctx context.Context, in *kms.DecryptInput, opts ...func(*kms.Options)) (*kms.DecryptOutput, error)
}

type kmsSealer struct {
	api   KMSAPI
	keyID string
}

// New returns a sealer that encrypts with the KMS key keyID (secrets up to 4 KB, so no data
// key is needed: one Encrypt or Decrypt call per use).
func New(api KMSAPI, keyID string) secrets.Sealer { return kmsSealer{api: api, keyID: keyID} }

func (k kmsSealer) Seal(ctx context.Context, plain []byte, bind secrets.Context) (string, error) {
	out, err := k.api.Encrypt(ctx, &kms.EncryptInput{KeyId: aws.String(k.keyID), Plaintext: plain, EncryptionContext: bind})
	if err != nil {
		return "", fmt.Errorf("secrets: kms encrypt: %w", err)
	}
	return prefixKMS + base64.RawStdEncoding.EncodeToString(out.CiphertextBlob), nil
}

func (k kmsSealer) Open(ctx context.Context, sealed string, bind secrets.Context) ([]byte, error) {
	raw, ok := strings.CutPrefix(sealed, prefixKMS)
	if !ok {
		return nil, errors.New("secrets: not sealed by KMS")
	}
	blob, err := base64.RawStdEncoding.DecodeString(raw)
	if err != nil {
		return nil, errors.New("secrets: malformed sealed value")
	}
	out, err := k.api.Decrypt(ctx, &kms.DecryptInput{KeyId: aws.String(k.keyID), CiphertextBlob: blob, EncryptionContext: bind})
	if err != nil {
		return nil, fmt.Errorf("secrets: kms decrypt: %w", err)
	}
	return out.Plaintext, nil
}
