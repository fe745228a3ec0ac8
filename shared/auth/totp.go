package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// TOTP (RFC 6238) as every authenticator app does it: HMAC-SHA1, 6 digits, 30-second steps, a
// 160-bit key shown as unpadded base32.
const (
	totpDigits = 6
	totpPeriod = 30
	// totpSkew is how many steps either side of now a code is accepted for (clocks drift, people
	// type slowly): the usual window of ±1 step.
	totpSkew = 1
	// totpKeyBytes is the key length RFC 4226 recommends.
	totpKeyBytes = 20
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// newTOTPKey returns a random key.
func newTOTPKey() []byte {
	key := make([]byte, totpKeyBytes)
	if _, err := rand.Read(key); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return key
}

// totpStep is the time step of t.
func totpStep(t time.Time) int64 { return t.Unix() / totpPeriod }

// hotp is RFC 4226's HOTP value of key at counter, as totpDigits digits.
func hotp(key []byte, counter int64) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(counter))
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	v := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range totpDigits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", totpDigits, v%mod)
}

// matchTOTP returns the step within the window around now whose code is code and which is later
// than last (a step already used, or an earlier one, is refused: a code works once), or false.
func matchTOTP(key []byte, code string, now time.Time, last int64) (int64, bool) {
	code = strings.TrimSpace(code)
	if len(code) != totpDigits {
		return 0, false
	}
	cur := totpStep(now)
	for step := cur - totpSkew; step <= cur+totpSkew; step++ {
		if step > last && hmac.Equal([]byte(hotp(key, step)), []byte(code)) {
			return step, true
		}
	}
	return 0, false
}

// totpURI is the otpauth:// address an authenticator app reads from the QR code (Key Uri Format).
func totpURI(issuer, account string, key []byte) string {
	label := url.PathEscape(issuer) + ":" + url.PathEscape(account)
	q := url.Values{}
	q.Set("secret", b32.EncodeToString(key))
	q.Set("issuer", issuer)
	q.Set("algorithm", "SHA1")
	q.Set("digits", fmt.Sprint(totpDigits))
	q.Set("period", fmt.Sprint(totpPeriod))
	return "otpauth://totp/" + label + "?" + q.Encode()
}
