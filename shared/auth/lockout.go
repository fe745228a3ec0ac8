package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/store"
)

// Brute-force limits: at most 5 sign-in attempts for one username within 15 minutes reach the
// password check; a success ends the window.
const (
	maxAttempts   = 5
	attemptWindow = 15 * time.Minute
)

type attemptCounter struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	Count     int       `dynamo:"count"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

func attemptKey(scope store.Scope, username string) store.Key {
	return store.Key{PK: scope.Partition("LOGIN", UsernameKey(scope, username).SK), SK: "FAIL"}
}

// reserveAttempt takes one of the window's attempts with a conditional write, before any
// password is hashed, or returns the 429 once they are used up. Counting failures after the
// check (as before) let every request that arrived together through: 60 parallel guesses saw
// a count of 0 and 46 reached the hash. A conditional increment is atomic, so at most
// maxAttempts of any burst get through.
func reserveAttempt(ctx context.Context, st *store.Store, k store.Key, now time.Time) error {
	ok, err := take(ctx, st, k, now, maxAttempts)
	if err != nil || ok {
		return err
	}
	var c attemptCounter
	if err := st.Get(ctx, k, &c); err != nil && !store.IsNotFound(err) {
		return err
	}
	return lockedError(c.ExpiresAt, now)
}

// take takes one of the limit uses a window of attemptWindow allows the counter at k, with
// conditional writes (atomic, so a burst gets no more than limit); false once they are used up.
func take(ctx context.Context, st *store.Store, k store.Key, now time.Time, limit int) (bool, error) {
	// Two rounds: a window that ends or starts meanwhile makes the other step's condition fail once.
	for range 2 {
		// Within a live window: one more use, if any is left.
		err := st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("count", 1).
			If("attribute_exists(PK) AND expiresAt > ? AND $ < ?", now.Unix(), "count", limit).
			Run(ctx)
		if err == nil || !dynamo.IsCondCheckFailed(err) {
			return err == nil, store.Wrap("reserve login attempt", err)
		}
		// No live window: start one, unless another request just did.
		fresh := attemptCounter{PK: k.PK, SK: k.SK, Count: 1, ExpiresAt: now.Add(attemptWindow)}
		err = st.Table.Put(fresh).If("attribute_not_exists(PK) OR expiresAt <= ?", now.Unix()).Run(ctx)
		if err == nil || !dynamo.IsCondCheckFailed(err) {
			return err == nil, store.Wrap("start login window", err)
		}
	}
	return false, nil
}

// Audit budgets of refused sign-ins: a refusal under a username nobody has writes its audit entry
// only while its client (an IPv4 address, or an IPv6 /64, which one machine easily moves about)
// has used fewer than maxUnknownPerClient, and the tenant fewer than maxUnknownPerTenant, in a
// window of attemptWindow; a flood of made-up names is refused all the same, but writes at most
// that many entries. A refusal of a real account is always recorded: its lockout already bounds
// it to maxAttempts a window per account.
const (
	maxUnknownPerClient = 10
	maxUnknownPerTenant = 50
)

// auditBudgetKeys are the counters of the client's and the tenant's audit budgets.
func auditBudgetKeys(scope store.Scope, client audit.Client) (clientKey, tenantKey store.Key) {
	pk := scope.Partition("LOGIN-AUDIT")
	sum := sha256.Sum256([]byte(clientOf(client.Address)))
	return store.Key{PK: pk, SK: "CLIENT#" + hex.EncodeToString(sum[:])}, store.Key{PK: pk, SK: "TENANT"}
}

// clientOf is who an address is for the budget: an IPv4 address itself, an IPv6 address's /64.
func clientOf(address string) string {
	ip := net.ParseIP(address)
	if ip == nil {
		return address
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// withinAuditBudget reports whether a refused sign-in under an unknown username may still write
// its audit entry, taking one use of the client's budget and then of the tenant's.
func withinAuditBudget(ctx context.Context, st *store.Store, scope store.Scope, client audit.Client, now time.Time) (bool, error) {
	ck, tk := auditBudgetKeys(scope, client)
	ok, err := take(ctx, st, ck, now, maxUnknownPerClient)
	if err != nil || !ok {
		return false, err
	}
	return take(ctx, st, tk, now, maxUnknownPerTenant)
}

// lockedError is the 429 of a window that ends at until.
func lockedError(until, now time.Time) error {
	wait := until.Sub(now).Round(time.Minute)
	if wait < time.Minute {
		wait = time.Minute
	}
	return &api.Error{Status: http.StatusTooManyRequests,
		Message: fmt.Sprintf("Too many failed attempts. Try again in %d minutes.", int(wait.Minutes()))}
}

// clearAttempts ends the window after a successful sign-in.
func clearAttempts(ctx context.Context, st *store.Store, k store.Key) error {
	err := st.Table.Delete("PK", k.PK).Range("SK", k.SK).Run(ctx)
	if errors.Is(err, dynamo.ErrNotFound) {
		return nil
	}
	return store.Wrap("clear login attempts", err)
}
