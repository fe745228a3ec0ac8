package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Session is a login: stored under the tenant, keyed by the SHA-256 of its token (the token
// itself is never stored). TTL removes it after expiresAt.
type Session struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	UserID    string    `dynamo:"userId"`
	Epoch     int       `dynamo:"epoch"`
	CreatedAt time.Time `dynamo:"createdAt"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

// newToken returns a bearer token "{userId}.{32 random bytes}". The user id lets the guard fetch
// tenant, session and user in one BatchGetItem; the random part is the secret.
func newToken(userID string) string { return userID + "." + ids.Secret(32) }

// tokenUserID returns the user id part of a token, or "" if the token is malformed.
func tokenUserID(token string) string {
	id, secret, ok := strings.Cut(token, ".")
	if !ok || !ids.Valid(id) || len(secret) != 43 {
		return ""
	}
	return id
}

// SessionKey is the key of the session a token names.
func SessionKey(scope store.Scope, token string) store.Key {
	sum := sha256.Sum256([]byte(token))
	return store.Key{PK: scope.Partition(kindSession), SK: hex.EncodeToString(sum[:])}
}
