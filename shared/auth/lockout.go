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

// Brute-force limits: 5 failed logins for one username within 15 minutes lock it until the window ends.
const (
	maxFailures   = 5
	failureWindow = 15 * time.Minute
)

type failureCounter struct {
	PK        string    `dynamo:"PK,hash"`
	SK        string    `dynamo:"SK,range"`
	Count     int       `dynamo:"count"`
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

func failureKey(scope store.Scope, username string) store.Key {
	return store.Key{PK: scope.Partition("LOGIN", UsernameKey(scope, username).SK), SK: "FAIL"}
}

// lockedError returns the 429 for a counter that has reached the limit, or nil.
func lockedError(c failureCounter, now time.Time) error {
	if c.Count < maxFailures || !now.Before(c.ExpiresAt) {
		return nil
	}
	wait := c.ExpiresAt.Sub(now).Round(time.Minute)
	if wait < time.Minute {
		wait = time.Minute
	}
	return &api.Error{Status: http.StatusTooManyRequests,
		Message: fmt.Sprintf("Too many failed attempts. Try again in %d minutes.", int(wait.Minutes()))}
}

// recordFailure adds one failure to the window, starting a new window if the old one has ended.
func recordFailure(ctx context.Context, st *store.Store, k store.Key, now time.Time) error {
	err := st.Table.Update("PK", k.PK).Range("SK", k.SK).Add("count", 1).
		If("attribute_exists(PK) AND expiresAt > ?", now.Unix()).Run(ctx)
	if err == nil || !dynamo.IsCondCheckFailed(err) {
		return store.Wrap("record login failure", err)
	}
	fresh := failureCounter{PK: k.PK, SK: k.SK, Count: 1, ExpiresAt: now.Add(failureWindow)}
	return store.Wrap("start login failure window", st.Table.Put(fresh).Run(ctx))
}

func clearFailures(ctx context.Context, st *store.Store, k store.Key) error {
	err := st.Table.Delete("PK", k.PK).Range("SK", k.SK).Run(ctx)
	if errors.Is(err, dynamo.ErrNotFound) {
		return nil
	}
	return store.Wrap("clear login failures", err)
}
