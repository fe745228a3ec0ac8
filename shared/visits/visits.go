// Package visits counts the page views of the institutions' websites, privately, and reads them
// back for the dashboard (GET /visits).
//
// What a view records is the path of a page the website answered (200) and, when the visitor
// came from another site, that site's host: never a cookie, an address, a user agent or the full
// referring address. The website's script sends one beacon per view (shared/website/beacon.go);
// the page carries a token (Sign) binding its tenant and path, so only a page the website really
// served can be counted, and a tenant's token never counts for another.
//
// Counts are sharded counters under one partition per tenant:
//
//	PK T#{t}#VISITS   SK {yyyy-mm-dd}#P#{shard}#{path}   views   (a path's views that day)
//	                  SK {yyyy-mm-dd}#R#{shard}#{host}   views   (views referred by a site)
//	                  SK {yyyy-mm-dd}#N#P, #N#R          n       (how many P / R items that day)
//
// A view is one UpdateItem (ADD, atomic, so concurrent beacons never lose one) on a shard chosen
// at random, so a busy page spreads over Shards items; a referred view is one more. A day's
// total is the sum of its path items, so no item is written only for it. The first view of a
// path on a shard that day also counts the new item against MaxItems in the same transaction;
// past it, the views go to an "other" item per shard. Every item expires (TTL) after Retention.
package visits

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/formats"
	"github.com/campuscms/panel/shared/store"
)

// Defaults of a Counter.
const (
	// DefaultShards is how many items one path's (or referrer's) daily count is spread over: a
	// page read four times as often as one item takes writes before it throttles.
	DefaultShards = 4
	// DefaultMaxItems bounds the path items (and, apart, the referrer items) of one tenant's day:
	// between 250 and 1,000 distinct paths, as each takes one item per shard it was counted on.
	DefaultMaxItems = 1000
	// MaxPathBytes is the longest path counted.
	MaxPathBytes = 200
	// Retention is how long a day's counts are kept (DynamoDB's TTL deletes them after).
	Retention = 400 * 24 * time.Hour
)

// Partition is the partition suffix of the counts (T#{t}#VISITS).
const Partition = "VISITS"

// other is the path and host of the items counting what is past MaxItems: no path starts with
// anything but "/", and no host holds "*".
const other = "*"

// Other is how a report names the views past the day's bound (top pages and referrers).
const Other = "(other)"

// Kinds of items.
const (
	kindPath = "P"
	kindRef  = "R"
)

// View is one page view: a path the website answered and, when the visitor came from another
// site, its host.
type View struct {
	Path     string
	Referrer string
	// Zone is the institution's time zone (its site settings'), whose day the view counts in;
	// nil is UTC.
	Zone *time.Location
}

// Counter writes page views.
type Counter struct {
	st       *store.Store
	shards   int
	maxItems int
	now      func() time.Time
	pick     func(n int) int
}

// NewCounter returns a counter writing through st with the default shards and bound.
func NewCounter(st *store.Store) *Counter {
	return &Counter{st: st, shards: DefaultShards, maxItems: DefaultMaxItems, now: time.Now, pick: rand.IntN}
}

// WithShards returns a copy of c spreading each count over n items (n ≥ 1).
func (c *Counter) WithShards(n int) *Counter {
	cp := *c
	cp.shards = max(1, n)
	return &cp
}

// WithMaxItems returns a copy of c bounding each day's path (and referrer) items at n.
func (c *Counter) WithMaxItems(n int) *Counter {
	cp := *c
	cp.maxItems = max(1, n)
	return &cp
}

// WithClock returns a copy of c reading the day from now.
func (c *Counter) WithClock(now func() time.Time) *Counter {
	cp := *c
	cp.now = now
	return &cp
}

// Shards is how many items a count is spread over.
func (c *Counter) Shards() int { return c.shards }

// Count records one view (its path, and its referrer when set): one UpdateItem each, side by
// side. The view must be normalised (NormalizePath, NormalizeHost) and already judged countable.
func (c *Counter) Count(ctx context.Context, scope store.Scope, v View) error {
	day := dayIn(c.now(), v.Zone)
	if v.Referrer == "" {
		return c.add(ctx, scope, day, kindPath, v.Path)
	}
	var wg sync.WaitGroup
	var errs [2]error
	wg.Go(func() { errs[0] = c.add(ctx, scope, day, kindPath, v.Path) })
	wg.Go(func() { errs[1] = c.add(ctx, scope, day, kindRef, v.Referrer) })
	wg.Wait()
	return errors.Join(errs[:]...)
}

// maxAttempts bounds the tries of one count: each lost race (the item made by another beacon
// between the two steps) costs one, and one try after it always finds the item.
const maxAttempts = 4

// add counts one view in a shard of name's item of the day: an ADD on the item if it exists
// (what nearly every view is), else the item's first view and its place under the day's bound
// in one transaction, else (the bound reached) the day's "other" item.
func (c *Counter) add(ctx context.Context, scope store.Scope, day, kind, name string) error {
	pk := scope.Partition(Partition)
	sk := itemSK(day, kind, c.pick(c.shards), name)
	expires := c.expiry(day)
	for range maxAttempts {
		err := c.st.Table.Update("PK", pk).Range("SK", sk).Add("views", 1).Set("expiresAt", expires).
			If("attribute_exists($)", "views").Run(ctx)
		if err == nil {
			return nil
		}
		if !dynamo.IsCondCheckFailed(err) {
			return store.Wrap("count view", err)
		}
		tx := c.st.WriteTx()
		tx.Update(c.st.Table.Update("PK", pk).Range("SK", limitSK(day, kind)).Add("n", 1).Set("expiresAt", expires).
			If("attribute_not_exists($) OR $ < ?", "n", "n", c.maxItems))
		tx.Update(c.st.Table.Update("PK", pk).Range("SK", sk).Add("views", 1).Set("expiresAt", expires).
			If("attribute_not_exists($)", "views"))
		err = tx.Run(ctx)
		switch {
		case err == nil:
			return nil
		case store.CondFailedAt(err, 1):
			continue // another view made the item meanwhile: add to it
		case store.CondFailedAt(err, 0):
			// The day's bound is reached: the other item takes the view (at most one per shard,
			// never counted against the bound).
			sk := itemSK(day, kind, c.pick(c.shards), other)
			err := c.st.Table.Update("PK", pk).Range("SK", sk).Add("views", 1).Set("expiresAt", expires).Run(ctx)
			return store.Wrap("count view", err)
		default:
			return store.Wrap("count new view", err)
		}
	}
	return store.Wrap("count view", store.ErrBusy)
}

// dayIn is the date (YYYY-MM-DD) at t in zone (UTC when nil).
func dayIn(t time.Time, zone *time.Location) string {
	if zone == nil {
		zone = time.UTC
	}
	return t.In(zone).Format(time.DateOnly)
}

func (c *Counter) expiry(day string) int64 {
	d, _ := time.Parse(time.DateOnly, day)
	return d.Add(Retention).Unix()
}

// itemSK is the sort key of one shard of a path's or referrer's count of a day. The shard comes
// before the name, so a name holding "#" still parses.
func itemSK(day, kind string, shard int, name string) string {
	return day + "#" + kind + "#" + strconv.Itoa(shard) + "#" + name
}

// limitSK is the item counting a day's items of kind.
func limitSK(day, kind string) string { return day + "#N#" + kind }

// NormalizePath is the path a view is counted under: no query or fragment, no trailing slash
// (but "/"), valid UTF-8 without control characters, at most MaxPathBytes. ok is false for what
// is never counted: no path, a longer one, and the panel's previews (/_preview/…).
func NormalizePath(p string) (string, bool) {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if p == "" || p[0] != '/' {
		return "", false
	}
	for len(p) > 1 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	if len(p) > MaxPathBytes || !utf8.ValidString(p) {
		return "", false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "", false
		}
	}
	if p == "/_preview" || strings.HasPrefix(p, "/_preview/") {
		return "", false
	}
	return p, true
}

// NormalizeHost is a referring site's host as counted: lower case, without a port; "" for
// anything that is not a host name or an IPv4 address.
func NormalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, port, ok := strings.Cut(h, ":"); ok {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return ""
		}
		h = host
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 || h[0] == '.' || h[0] == '-' {
		return ""
	}
	for i := 0; i < len(h); i++ {
		b := h[i]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '.' || b == '-') {
			return ""
		}
	}
	if strings.Contains(h, "..") {
		return ""
	}
	return h
}

// Key is the key page tokens are signed with, derived from the deployment's secret (the
// origin secret, which every website function holds); without one (local runs) a fixed key,
// as nothing there is secret.
func Key(secret string) []byte {
	sum := sha256.Sum256([]byte("campuscms page views\x00" + secret))
	return sum[:]
}

// Sign is the token a page of tenant at path (normalised) carries for its beacon, with the name
// of the time zone its views count in (the site settings' when the page was drawn).
func Sign(key []byte, tenant, path, zone string) string {
	m := hmac.New(sha256.New, key)
	for _, part := range []string{tenant, path, zone} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// Verify reports whether token is what Sign gives for tenant, path and zone.
func Verify(key []byte, tenant, path, zone, token string) bool {
	if len(token) != 22 {
		return false
	}
	return hmac.Equal([]byte(Sign(key, tenant, path, zone)), []byte(token))
}

// zones caches the time zones beacons name (a handful per deployment): loading one parses the
// time zone database's entry.
var zones sync.Map

// Zone is the time zone of a name a token was signed with; ok is false for one the time zone
// database does not know.
func Zone(name string) (*time.Location, bool) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), true
	}
	loc, ok := formats.TimeZone(name)
	if !ok {
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// botWords are what the user agents of crawlers, link previewers, monitors and headless
// browsers contain (lower case). A view from one is not counted.
var botWords = []string{"bot", "crawl", "spider", "slurp", "facebookexternalhit", "preview", "headless", "lighthouse",
	"monitor", "pingdom", "curl", "wget", "python", "go-http-client", "java/", "okhttp", "axios", "node-fetch", "scrapy",
	"phantomjs", "whatsapp", "embedly", "feedfetcher", "mediapartners"}

// IsBot reports whether a user agent is a known bot's (or missing: every browser sends one).
func IsBot(userAgent string) bool {
	ua := strings.ToLower(userAgent)
	if strings.TrimSpace(ua) == "" {
		return true
	}
	for _, w := range botWords {
		if strings.Contains(ua, w) {
			return true
		}
	}
	return false
}
