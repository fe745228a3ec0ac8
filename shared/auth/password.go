// Package auth is login, sessions, the tenant+caller guard every route passes through, and the
// /auth endpoints of SPEC §7.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters per OWASP: t=2, m=19 MiB, p=1.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// hashCost is the time and memory (KiB) new hashes are made with: OWASP's everywhere but in test
// binaries (LowerHashCostForTests). A stored hash names its own parameters, so either verifies.
var hashCost = struct{ time, memory uint32 }{argonTime, argonMemory}

// LowerHashCostForTests makes new hashes cheap (t=1, m=64 KiB): every test creates a tenant and
// signs its admin in, and OWASP's cost was two thirds of the Go tests' CPU. testkit.Main calls
// it; nothing else may.
func LowerHashCostForTests() {
	hashCost.time, hashCost.memory = 1, 64
}

// HashSecret hashes a password or passcode with argon2id into a PHC string.
func HashSecret(secret string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	t, m := hashCost.time, hashCost.memory
	key := argon2.IDKey([]byte(secret), salt, t, m, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, m, t, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

var errBadHash = errors.New("auth: malformed password hash")

// VerifySecret reports whether secret matches the PHC hash, in constant time. An empty hash never
// matches (a user without a passcode cannot log in with one).
func VerifySecret(hash, secret string) bool {
	ok, err := verify(hash, secret)
	return err == nil && ok
}

// dummyHash is verified against when the user does not exist, so that a missing user costs the
// same time as a wrong password. It is made on first use, not at start-up, where it would add
// ~90 ms to every Lambda's cold start.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashSecret("no-such-user")
	return h
})

func verify(hash, secret string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(secret), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
