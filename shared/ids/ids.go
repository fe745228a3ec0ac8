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
