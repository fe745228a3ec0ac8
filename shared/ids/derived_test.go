package ids

import (
	"crypto/sha256"
	"testing"
	"time"
)

// Derived keeps the ids seeds and imports wrote before it existed: SHA-256 of the parts joined
// by NUL, its first 80 bits as the entropy.
func TestDerivedIsStable(t *testing.T) {
	at := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	sum := sha256.Sum256([]byte("demo\x00pages/about"))
	if got, want := Derived(at, "demo", "pages/about"), At(at, [10]byte(sum[:10])); got != want {
		t.Fatalf("Derived %s, want %s", got, want)
	}
	if Derived(at, "a", "bc") == Derived(at, "ab", "c") {
		t.Fatal("parts run together")
	}
}
