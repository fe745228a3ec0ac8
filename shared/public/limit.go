package public

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/store"
)

// Limit is how many submissions one client may make to one target (a form, the newsletter) of
// one tenant per fixed window.
type Limit struct {
	Max    int
	Window time.Duration
}

// DefaultLimit admits 5 submissions per client and form every 10 minutes: plenty for a person,
// useless for a script.
var DefaultLimit = Limit{Max: 5, Window: 10 * time.Minute}

// ClientAddress is the visitor's IP, as the audit log reads it (audit.ClientOf: CloudFront's
// own CloudFront-Viewer-Address, never X-Forwarded-For, which a client can write).
func ClientAddress(r *http.Request) string { return audit.ClientOf(r).Address }

// RateLimited is the refusal of a submission over the limit: a 429 that says when to retry.
type RateLimited struct {
	Err *api.Error
	// RetryAfter is how many seconds until the window ends.
	RetryAfter int
}

func (e *RateLimited) Error() string { return e.Err.Message }

// Unwrap lets the API's error mapping see the 429 inside.
func (e *RateLimited) Unwrap() error { return e.Err }

// Allow counts one submission of the client to target and refuses it with a *RateLimited once
// the window's count has reached the limit: one conditional update, whatever the traffic. The
// address is stored only as a hash; DynamoDB's TTL (expiresAt) deletes the counter after its
// window.
func (r *Reader) Allow(ctx context.Context, site *Site, client, target string, lim Limit) error {
	now := r.Now()
	start := now.Truncate(lim.Window)
	end := start.Add(lim.Window)
	scope := site.Scope
	sum := sha256.Sum256([]byte(scope.Tenant() + "|" + client))
	sk := target + "#" + hex.EncodeToString(sum[:12]) + "#" + strconv.FormatInt(start.Unix(), 10)
	err := r.panel.Table.Update("PK", scope.Partition("RATE")).Range("SK", sk).
		Add("hits", 1).Set("expiresAt", end.Add(time.Minute).Unix()).
		If("attribute_not_exists(hits) OR hits < ?", lim.Max).Run(ctx)
	if dynamo.IsCondCheckFailed(err) {
		retry := int(end.Sub(now).Seconds()) + 1
		return &RateLimited{RetryAfter: retry,
			Err: api.Errorf(http.StatusTooManyRequests, "Too many submissions. Please try again in %s.", humanWait(retry))}
	}
	return store.Wrap("rate limit", err)
}

// withRetryAfter returns err, first naming its Retry-After on w when it is a RateLimited.
func withRetryAfter(w http.ResponseWriter, err error) error {
	var rl *RateLimited
	if errors.As(err, &rl) {
		w.Header().Set("Retry-After", strconv.Itoa(rl.RetryAfter))
	}
	return err
}

func humanWait(seconds int) string {
	if seconds < 90 {
		return strconv.Itoa(seconds) + " seconds"
	}
	return strconv.Itoa((seconds+59)/60) + " minutes"
}

// Honeypot is the field a website's form carries hidden from people: bots fill it in. A filled
// one is answered like a success and nothing is stored, so the bot learns nothing.
const Honeypot = "_gotcha"

// trapped reports whether a submission filled the honeypot.
func trapped(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(x) != ""
	case bool:
		return x
	}
	return true
}
