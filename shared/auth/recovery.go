package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Recovery codes: 10 one-time codes a user keeps on paper for the day the phone is lost. Each is
// 12 characters from a 32-letter alphabet without look-alikes (60 random bits), shown as
// "xxxx-xxxx-xxxx". Only their SHA-256 (salted with the user's id, so equal codes of two users
// differ) is stored; a code is spent by removing its hash, conditionally, so two sign-ins racing
// with the same code cannot both succeed.
const (
	recoveryCodeCount = 10
	recoveryAlphabet  = "23456789abcdefghjkmnpqrstuvwxyz" + "0" // 32 letters: no 1/l/i/o
)

// newRecoveryCodes returns fresh codes (to show once) and their hashes (to store).
func newRecoveryCodes(userID string) (codes, hashes []string) {
	for range recoveryCodeCount {
		raw := make([]byte, 12)
		if _, err := rand.Read(raw); err != nil {
			panic(err)
		}
		var b strings.Builder
		for i, c := range raw {
			if i > 0 && i%4 == 0 {
				b.WriteByte('-')
			}
			b.WriteByte(recoveryAlphabet[c&31])
		}
		code := b.String()
		codes = append(codes, code)
		hashes = append(hashes, recoveryHash(userID, code))
	}
	return codes, hashes
}

// recoveryHash is the stored form of a code as typed: case, spaces and dashes do not matter.
func recoveryHash(userID, code string) string {
	norm := strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + ('a' - 'A')
		}
		return r
	}, code)
	sum := sha256.Sum256([]byte(userID + ":" + norm))
	return hex.EncodeToString(sum[:])
}
