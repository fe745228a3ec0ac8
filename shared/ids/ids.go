// Package ids makes record ids and secrets.
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"time"
)

// New returns a ULID: unique, creation-ordered, 26 characters.
func New() string {
	var entropy [10]byte
	if _, err := rand.Read(entropy[:]); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	return At(time.Now(), entropy)
}

// crockford is the ULID alphabet: Crockford's base 32, upper case.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// At is the ULID of time t (milliseconds since the epoch in 48 bits) and 80 bits of entropy, as
// 26 characters of Crockford base 32 (5 bits each, the first holding the top 3 of 128). Written
// here, not taken from oklog/ulid, whose package initialisation (a seeded math/rand source) cost
// every Lambda's start 50 µs.
func At(t time.Time, entropy [10]byte) string {
	ms := uint64(t.UnixMilli())
	if ms>>48 != 0 {
		// Only a time past the year 10889 overflows 48 bits of milliseconds.
		panic("ids: time out of ULID range")
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], ms<<16) // 48 bits of time, then the entropy's first 2 bytes
	copy(b[6:], entropy[:])
	hi, lo := binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
	var out [26]byte
	// 128 bits as 26 groups of 5 from the right: the lowest 125 bits, then the top 3.
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// Secret returns n random bytes, base64url-encoded without padding.
func Secret(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Valid reports whether s is a well-formed ULID as New makes them (26 Crockford base-32
// characters, upper case). Ids from a path or a token are checked with it before they become
// part of a key, so a malformed or overlong one is a 404 without a database call.
func Valid(s string) bool {
	if len(s) != 26 || s[0] > '7' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U') {
			return false
		}
	}
	return true
}

// Derived is the ULID of time t whose entropy is the first 80 bits of SHA-256 of parts (joined by
// NUL): the same parts always give the same id, so a seed or an import run again finds what an
// earlier run wrote with one read.
func Derived(t time.Time, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return At(t, [10]byte(sum[:10]))
}
