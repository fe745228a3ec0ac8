// Package ids makes record ids and secrets.
package ids

import (
	"crypto/rand"
	"encoding/base64"
	"time"

	"github.com/oklog/ulid/v2"
)

// New returns a ULID: unique, creation-ordered, 26 characters.
func New() string {
	return ulid.MustNew(ulid.Timestamp(time.Now()), rand.Reader).String()
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
