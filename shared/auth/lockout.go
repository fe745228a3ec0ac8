package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
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
	// Two rounds: a window that ends or starts meanwhile makes the other step's condition fail once.
	for range 2 {
		// Within a live window: one more attempt, if any is left.
		err := st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("count", 1).
			If("attribute_exists(PK) AND expiresAt > ? AND $ < ?", now.Unix(), "count", maxAttempts).
			Run(ctx)
		if err == nil || !dynamo.IsCondCheckFailed(err) {
			return store.Wrap("reserve login attempt", err)
		}
		// No live window: start one, unless another request just did.
		fresh := attemptCounter{PK: k.PK, SK: k.SK, Count: 1, ExpiresAt: now.Add(attemptWindow)}
		err = st.Table.Put(fresh).If("attribute_not_exists(PK) OR expiresAt <= ?", now.Unix()).Run(ctx)
		if err == nil || !dynamo.IsCondCheckFailed(err) {
			return store.Wrap("start login window", err)
		}
	}
	var c attemptCounter
	if err := st.Get(ctx, k, &c); err != nil && !store.IsNotFound(err) {
		return err
	}
	return lockedError(c.ExpiresAt, now)
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
