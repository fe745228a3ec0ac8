package auth

import (
	"strings"
	"testing"
)

// Outside test binaries new hashes use OWASP's argon2id parameters, and a hash verifies whatever
// parameters it was made with.
func TestHashesUseOWASPParameters(t *testing.T) {
	saved := hashCost
	defer func() { hashCost = saved }()
	hashCost.time, hashCost.memory = argonTime, argonMemory
	h, err := HashSecret("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, "$m=19456,t=2,p=1$") {
		t.Fatalf("hash %s: want m=19456,t=2,p=1", h)
	}
	LowerHashCostForTests()
	cheap, _ := HashSecret("correct horse")
	if !strings.Contains(cheap, "$m=64,t=1,p=1$") {
		t.Fatalf("lowered hash %s", cheap)
	}
	for _, hash := range []string{h, cheap} {
		if !VerifySecret(hash, "correct horse") || VerifySecret(hash, "wrong horse") {
			t.Fatalf("verify %s", hash)
		}
	}
}
