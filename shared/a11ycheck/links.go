package a11ycheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/publicnet"
	"github.com/campuscms/panel/shared/store"
)

// The scheduled link check. A published record's links to other sites are kept on its index
// item (Entry.Links) with what the check last found. An item with a link unchecked, or checked
// more than a day ago, is in the check's due index (GSI3 partition A11YLINK, by the time it is
// due: one Query finds what is due in every tenant, like the schedule's due index). Each run
// (the schedule job's Lambda, once a minute; the local server's ticker) takes a few due items
// per tenant, asks each due address once (HEAD, then GET where HEAD is refused; short timeouts;
// redirects not followed), at most once a day per address and tenant (a per-address item
// remembers the answer for a day, whichever records link it), and writes the results on the
// item with the counters in one transaction, over the item it read (a save in between wins).
// A broken address is reported as a broken-link error, a redirected one as a warning.

// linkDueIndex is the GSI3 partition of index items with links due to be checked.
const linkDueIndex = "A11YLINK"

// LinkInterval is how often one address is asked at most.
const LinkInterval = 24 * time.Hour

// Link statuses.
const (
	LinkOK         = "ok"
	LinkBroken     = "broken"
	LinkRedirected = "redirected"
)

// LinkState is a link with what the check last found.
type LinkState struct {
	Link
	Status string `dynamo:"status,omitempty" json:"status,omitempty"`
	// Code is the HTTP status the address answered (0: no answer).
	Code int `dynamo:"code,omitempty" json:"code,omitempty"`
	// Location is where a redirected address sends visitors.
	Location  string `dynamo:"location,omitempty" json:"location,omitempty"`
	CheckedAt string `dynamo:"checkedAt,omitempty" json:"checkedAt,omitempty"`
}

// finding is the link's finding, if it is broken or redirected.
func (l LinkState) finding() (Finding, bool) {
	f := Finding{Rule: RuleBrokenLink, Field: l.Field, Section: l.Section, Context: clip(l.URL, 120)}
	switch l.Status {
	case LinkBroken:
		f.Severity = Error
		if l.Code > 0 {
			f.Message = fmt.Sprintf("This link to another site no longer works (it answered %d). Update it, or remove it.", l.Code)
		} else {
			f.Message = "This link to another site could not be reached. Check the address, and update or remove the link."
		}
	case LinkRedirected:
		f.Severity = Warning
		f.Message = "This link to another site now sends visitors elsewhere"
		if l.Location != "" {
			f.Message += " (" + clip(l.Location, 200) + ")"
		}
		f.Message += ". Link to the new address directly."
	default:
		return Finding{}, false
	}
	return f, true
}

// keepChecked is links with the results old holds for the same addresses.
func keepChecked(links []Link, old []LinkState) []LinkState {
	if len(links) == 0 {
		return nil
	}
	byURL := map[string]LinkState{}
	for _, o := range old {
		byURL[o.URL] = o
	}
	out := make([]LinkState, len(links))
	for i, l := range links {
		st := byURL[l.URL]
		st.Link = l
		out[i] = st
	}
	return out
}

// due reports whether a link is to be checked at now.
func (l LinkState) due(now time.Time) bool {
	t, err := time.Parse(time.RFC3339, l.CheckedAt)
	return err != nil || !now.Before(t.Add(LinkInterval))
}

// nextCheck is when the first of links is due (now for an unchecked one); ok is false without
// links.
func nextCheck(links []LinkState, now time.Time) (time.Time, bool) {
	var next time.Time
	for i, l := range links {
		t := now
		if c, err := time.Parse(time.RFC3339, l.CheckedAt); err == nil {
			t = c.Add(LinkInterval)
		}
		if i == 0 || t.Before(next) {
			next = t
		}
	}
	return next, len(links) > 0
}

// urlItem remembers what one address of a tenant answered, for a day.
type urlItem struct {
	PK        string `dynamo:"PK"`
	SK        string `dynamo:"SK"`
	URL       string `dynamo:"url"`
	Status    string `dynamo:"status"`
	Code      int    `dynamo:"code,omitempty"`
	Location  string `dynamo:"location,omitempty"`
	CheckedAt string `dynamo:"checkedAt"`
	ExpiresAt int64  `dynamo:"expiresAt"`
}

func urlKey(scope store.Scope, u string) store.Key {
	h := sha256.Sum256([]byte(u))
	return store.Key{PK: scope.Partition("A11YURL"), SK: hex.EncodeToString(h[:16])}
}

// LinkChecker is the scheduled link check.
type LinkChecker struct {
	St     *store.Store
	Client *http.Client
	Now    func() time.Time
	// PerTenant bounds the index items of one tenant a run checks, PerItem the addresses of one
	// item, PerRun the items of all tenants.
	PerTenant, PerItem, PerRun int
	// only, when set, limits the run to these tenants (tests).
	only map[string]bool
}

// Defaults of a run.
const (
	DefaultPerTenant = 3
	DefaultPerItem   = 5
	DefaultPerRun    = 40
	linkTimeout      = 5 * time.Second
)

// NewLinkChecker is the check of a process: its HTTP client dials public addresses only (no
// loopback, private or link-local network: staff-typed addresses must not reach inside ours),
// with short timeouts, and follows no redirect.
func NewLinkChecker(st *store.Store) *LinkChecker {
	dialer := publicnet.Dialer(linkTimeout)
	tr := &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: linkTimeout, ResponseHeaderTimeout: linkTimeout,
		MaxIdleConnsPerHost: 2, DisableCompression: true}
	return &LinkChecker{St: st, Client: &http.Client{Transport: tr, Timeout: 2 * linkTimeout, CheckRedirect: noRedirects}}
}

// WithClient is the check with another HTTP client (tests: one that reaches an httptest server
// on loopback); redirects are never followed.
func (lc *LinkChecker) WithClient(c *http.Client) *LinkChecker {
	k := *lc
	cc := *c
	cc.CheckRedirect = noRedirects
	if cc.Timeout == 0 {
		cc.Timeout = 2 * linkTimeout
	}
	k.Client = &cc
	return &k
}

// Only is the check limited to the given tenants.
func (lc *LinkChecker) Only(tenants ...string) *LinkChecker {
	k := *lc
	k.only = map[string]bool{}
	for _, t := range tenants {
		k.only[t] = true
	}
	return &k
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// LinkRun is what one run did.
type LinkRun struct {
	Items, Asked, Remembered, Broken, Redirected int
}

func (r LinkRun) String() string {
	return fmt.Sprintf("link check: %d records, %d addresses asked, %d remembered, %d broken, %d redirected", r.Items, r.Asked, r.Remembered, r.Broken, r.Redirected)
}

// Run checks what is due: a few index items per tenant, a few addresses per item.
func (lc *LinkChecker) Run(ctx context.Context) (LinkRun, error) {
	var res LinkRun
	now := time.Now()
	if lc.Now != nil {
		now = lc.Now()
	}
	perTenant, perItem, perRun := or(lc.PerTenant, DefaultPerTenant), or(lc.PerItem, DefaultPerItem), or(lc.PerRun, DefaultPerRun)
	var due []Entry
	err := lc.St.Table.Get("GSI3PK", linkDueIndex).Index("GSI3").Range("GSI3SK", dynamo.LessOrEqual, now.UTC().Format(time.RFC3339)+"#~").
		Limit(200).All(ctx, &due)
	if err != nil {
		return res, store.Wrap("link check: due", err)
	}
	taken := map[string]int{}
	for _, d := range due {
		if res.Items == perRun {
			break
		}
		scope, ok := scopeOf(d.PK)
		if !ok || (lc.only != nil && !lc.only[scope.Tenant()]) || taken[scope.Tenant()] == perTenant {
			continue
		}
		taken[scope.Tenant()]++
		res.Items++
		if err := lc.checkItem(ctx, scope, d, now, perItem, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func or(n, d int) int {
	if n > 0 {
		return n
	}
	return d
}

// scopeOf is the tenant of a key T#{tenant}#….
func scopeOf(pk string) (store.Scope, bool) {
	rest, ok := strings.CutPrefix(pk, "T#")
	tenant, _, found := strings.Cut(rest, "#")
	if !ok || !found {
		return store.Scope{}, false
	}
	s, err := store.NewScope(tenant)
	return s, err == nil
}

// checkItem checks the due addresses of one index item (read again, strongly consistent: the
// index is eventually consistent) and writes the results over it.
func (lc *LinkChecker) checkItem(ctx context.Context, scope store.Scope, d Entry, now time.Time, perItem int, res *LinkRun) error {
	var e Entry
	if err := lc.St.Get(ctx, store.Key{PK: d.PK, SK: d.SK}, &e); err != nil {
		if store.IsNotFound(err) {
			return nil
		}
		return err
	}
	old := e
	old.Links = append([]LinkState{}, e.Links...)
	var idx []int
	for i, l := range e.Links {
		if l.due(now) && len(idx) < perItem {
			idx = append(idx, i)
		}
	}
	keys := make([]store.Key, len(idx))
	for j, i := range idx {
		keys[j] = urlKey(scope, e.Links[i].URL)
	}
	known := map[store.Key]urlItem{}
	if len(keys) > 0 {
		items, err := lc.St.GetMany(ctx, keys...)
		if err != nil {
			return err
		}
		for _, k := range keys {
			var u urlItem
			if ok, err := store.Decode(items, k, &u); err != nil {
				return err
			} else if ok && !(LinkState{CheckedAt: u.CheckedAt}).due(now) {
				known[k] = u
			}
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for j, i := range idx {
		if u, ok := known[keys[j]]; ok {
			res.Remembered++
			e.Links[i].Status, e.Links[i].Code, e.Links[i].Location, e.Links[i].CheckedAt = u.Status, u.Code, u.Location, u.CheckedAt
			continue
		}
		res.Asked++
		wg.Add(1)
		go func(i int, k store.Key) {
			defer wg.Done()
			status, code, loc := lc.ask(ctx, e.Links[i].URL)
			at := now.UTC().Format(time.RFC3339)
			mu.Lock()
			e.Links[i].Status, e.Links[i].Code, e.Links[i].Location, e.Links[i].CheckedAt = status, code, loc, at
			mu.Unlock()
			// The answer is remembered for a day whatever becomes of the item (a cache: losing
			// it asks again).
			_ = lc.St.Table.Put(urlItem{PK: k.PK, SK: k.SK, URL: e.Links[i].URL, Status: status, Code: code, Location: loc, CheckedAt: at,
				ExpiresAt: now.Add(2 * LinkInterval).Unix()}).Run(ctx)
		}(i, keys[j])
	}
	wg.Wait()
	for _, i := range idx {
		switch e.Links[i].Status {
		case LinkBroken:
			res.Broken++
		case LinkRedirected:
			res.Redirected++
		}
	}
	e.Rev = old.Rev + 1
	e.settle(now)
	tx := lc.St.WriteTx().Put(lc.St.Table.Put(e).If("rev = ?", old.Rev))
	if u := countsUpdate(lc.St, scope, old, e); u != nil {
		tx.Update(u)
	}
	err := tx.Run(ctx)
	if store.CondFailedAt(err, 0) || dynamo.IsCondCheckFailed(err) {
		return nil // saved meanwhile: the new item is due now and checked at a next run
	}
	return store.Wrap("link check: write", err)
}

// ask asks an address whether it still answers: HEAD, then GET where HEAD is refused.
func (lc *LinkChecker) ask(ctx context.Context, u string) (status string, code int, location string) {
	ctx, cancel := context.WithTimeout(ctx, 2*linkTimeout)
	defer cancel()
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		req, err := http.NewRequestWithContext(ctx, method, u, nil)
		if err != nil {
			return LinkBroken, 0, ""
		}
		req.Header.Set("User-Agent", "CampusCMS-LinkCheck/1.0 (accessibility report)")
		res, err := lc.Client.Do(req)
		if err != nil {
			return LinkBroken, 0, "" // no answer: refused, timed out, not a public address
		}
		res.Body.Close()
		code = res.StatusCode
		if method == http.MethodHead && (code == http.StatusMethodNotAllowed || code == http.StatusNotImplemented || code == http.StatusForbidden) {
			continue
		}
		switch {
		case code >= 300 && code < 400 && code != http.StatusNotModified:
			return LinkRedirected, code, res.Header.Get("Location")
		case code >= 400:
			return LinkBroken, code, ""
		}
		return LinkOK, code, ""
	}
	return LinkBroken, code, ""
}
