package secrets_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/localaws"
	"github.com/campuscms/panel/shared/secrets"
	_ "github.com/campuscms/panel/shared/secrets/kmssealer" // FromEnv with KMS_KEY_ID
)

func TestMain(m *testing.M) {
	code := func() int {
		if os.Getenv("AWS_ENDPOINT_URL") == "" {
			emu, err := localaws.Start(context.Background(), 0)
			if err != nil {
				panic(err)
			}
			defer emu.Stop()
			emu.UseEndpoint()
		}
		return m.Run()
	}()
	os.Exit(code)
}

// roundTrip seals and opens a secret, and proves the sealed value is bound to its context.
func roundTrip(t *testing.T, s secrets.Sealer, prefix string) {
	t.Helper()
	ctx := context.Background()
	bind := secrets.Context{"tenant": "t1", "user": "u1"}
	plain := []byte("12345678901234567890")
	sealed, err := s.Seal(ctx, plain, bind)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sealed, prefix) || strings.Contains(sealed, string(plain)) {
		t.Fatalf("sealed %q", sealed)
	}
	again, _ := s.Seal(ctx, plain, bind)
	if again == sealed {
		t.Fatal("two seals of one secret are equal")
	}
	got, err := s.Open(ctx, sealed, bind)
	if err != nil || string(got) != string(plain) {
		t.Fatalf("opened %q, %v", got, err)
	}
	if _, err := s.Open(ctx, sealed, secrets.Context{"tenant": "t1", "user": "u2"}); err == nil {
		t.Fatal("opened with another user's context")
	}
	if _, err := s.Open(ctx, sealed[:len(sealed)-4]+"AAAA", bind); err == nil {
		t.Fatal("opened a tampered value")
	}
}

func TestLocalSealer(t *testing.T) {
	s, err := secrets.NewLocal(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, s, "local:")
	other, _ := secrets.NewLocal([]byte(strings.Repeat("k", 32)))
	sealed, _ := s.Seal(context.Background(), []byte("x"), nil)
	if _, err := other.Open(context.Background(), sealed, nil); err == nil {
		t.Fatal("opened with another key")
	}
}

// The KMS sealer against the emulator's KMS (moto), as in AWS with KMS_KEY_ID.
func TestKMSSealer(t *testing.T) {
	ctx := context.Background()
	cfg, err := awsclient.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	client := kms.NewFromConfig(cfg)
	key, err := client.CreateKey(ctx, &kms.CreateKeyInput{})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KMS_KEY_ID", *key.KeyMetadata.KeyId)
	s, err := secrets.FromEnv(cfg)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, s, "kms:")
}

func TestFromEnv(t *testing.T) {
	t.Setenv("KMS_KEY_ID", "")
	t.Setenv("SECRETS_KEY", "short")
	if _, err := secrets.FromEnv(awsConfig(t)); err == nil {
		t.Fatal("a malformed SECRETS_KEY was accepted")
	}
	t.Setenv("SECRETS_KEY", "")
	t.Setenv("AWS_LAMBDA_FUNCTION_NAME", "auth")
	s, err := secrets.FromEnv(awsConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seal(context.Background(), []byte("x"), nil); err != secrets.ErrNotConfigured {
		t.Fatalf("in Lambda without a key: %v", err)
	}
}

func awsConfig(t *testing.T) aws.Config {
	cfg, err := awsclient.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
