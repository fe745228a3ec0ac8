package testkit

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TOTP is the code an authenticator app shows for the base32 secret the setup step returns, at
// step offset from now (0: now, -1: the previous 30 seconds).
func TOTP(t testing.TB, secret string, offset int64) string {
	t.Helper()
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(secret)
	if err != nil {
		t.Fatal(err)
	}
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(time.Now().Unix()/30+offset))
	mac := hmac.New(sha1.New, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	return fmt.Sprintf("%06d", (binary.BigEndian.Uint32(sum[off:off+4])&0x7fffffff)%1000000)
}

// EnableTwoFactor turns two-factor sign-in on for the user token belongs to (whose password is
// password) and returns its secret.
func EnableTwoFactor(t testing.TB, tenant, token, password string) string {
	t.Helper()
	res := Call(t, Request{Method: "POST", Path: "/auth/two-factor/setup", Tenant: tenant, Token: token, Body: map[string]any{}})
	Expect(t, res, http.StatusOK, "")
	secret := res.Get("result.secret").(string)
	Expect(t, Call(t, Request{Method: "POST", Path: "/auth/two-factor/enable", Tenant: tenant, Token: token,
		Body: map[string]any{"code": TOTP(t, secret, 0), "password": password}}), http.StatusOK, "Two-factor sign-in is on.")
	return secret
}
