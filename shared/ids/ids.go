// Package ids makes record ids and secrets.
package ids

import (
	"crypto/rand"
	"encoding/base64"
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
	var b [16]byte
	ms := uint64(t.UnixMilli())
	if ms>>48 != 0 {
		// Only a time past the year 10889 overflows 48 bits of milliseconds.
		panic("ids: time out of ULID range")
	}
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	copy(b[6:], entropy[:])
	hi := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
	lo := uint64(b[8])<<56 | uint64(b[9])<<48 | uint64(b[10])<<40 | uint64(b[11])<<32 | uint64(b[12])<<24 | uint64(b[13])<<16 | uint64(b[14])<<8 | uint64(b[15])
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
