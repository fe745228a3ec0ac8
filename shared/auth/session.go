package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// Session is a login: stored under the tenant, keyed by its user and the SHA-256 of its token
// (the token itself is never stored), so a user's sessions are one Query. TTL removes it after
// expiresAt; a new epoch on the user (new password, two-factor change, "sign out everywhere")
// ends every session of an older one.
type Session struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	UserID    string    `dynamo:"userId"`
	Epoch     int       `dynamo:"epoch"`
	CreatedAt time.Time `dynamo:"createdAt"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
	// LastUsedAt is refreshed at most every lastUsedEvery, so a busy session costs no write per request.
	LastUsedAt time.Time `dynamo:"lastUsedAt"`
	// Client and Address are the browser (User-Agent) and address that signed in.
	Client  string `dynamo:"client"`
	Address string `dynamo:"address"`
}

// EndSessions is the one rule by which a user's sessions end: every write of a user's session
// epoch goes through it, or through FreshEpoch where the write cannot take its condition. It adds
// to up, an update of the user's item, the move of the epoch from read, the value the caller read,
// to read+1, on condition that it still is read, and returns the new epoch, which the caller's
// current session may move to in the same transaction.
//
// A move from a stale read fails (the caller answers 409, or reads again and retries) instead of
// landing on the value of the move it raced. Two moves from one epoch end the sessions only once,
// and the one that carries a current session along carries it past the other's end: an
// administrator's "sign out" racing the user's own password change left the user's session alive
// (issue 39).
func EndSessions(up *dynamo.Update, read int) int {
	if read == 0 {
		up.If("attribute_not_exists(sessionEpoch) OR sessionEpoch = ?", 0)
	} else {
		up.If("sessionEpoch = ?", read)
	}
	up.Set("sessionEpoch", read+1)
	return read + 1
}

// FreshEpoch is the epoch that ends a user's sessions in a write conditioned on the user's version
// alone (the collections engine's: a password set by an administrator, a user disabled), which
// cannot take EndSessions' condition. A move by EndSessions meanwhile (which leaves the version)
// wrote read+1 and perhaps carried a session there; a fresh epoch is past it, never on it: the
// time in microseconds, which runs far ahead of any count of moves, and at least read+2 should
// clocks disagree. Any other write meanwhile moved the version, and this one fails with 409.
func FreshEpoch(read int, now time.Time) int {
	return max(read+2, int(now.UnixMicro()))
}

// lastUsedEvery is how stale a session's "last used" may get before a request refreshes it.
const lastUsedEvery = 5 * time.Minute

// ID is the session's id in the API: the hash of its token, which cannot be turned back into it.
func (s *Session) ID() string {
	_, id, _ := strings.Cut(s.SK, "#")
	return id
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
	return sessionKeyOf(scope, tokenUserID(token), hex.EncodeToString(sum[:]))
}

// sessionKeyOf is the key of a user's session by its id.
func sessionKeyOf(scope store.Scope, userID, id string) store.Key {
	return store.Key{PK: scope.Partition(kindSession), SK: userID + "#" + id}
}

// validSessionID reports whether id has the shape of a session id (a hex SHA-256).
func validSessionID(id string) bool {
	if len(id) != 64 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}
