package media

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
)

// The media quota (the plan's mediaBytes). What a tenant uses is the counter
// COUNT#media-bytes (plans.CountMediaBytes): the confirmed files' sizes, moved in the same
// transaction as each record's add, delete and restore. What it is uploading is its pending
// uploads (each holds its declared size): read by one bounded Query, not kept in a counter, so an
// abandoned upload stops counting when its record expires (expiresAt, a day) and nothing can leak.
//
// The check-then-write race (two uploads that each fit but together pass the quota) is closed by
// the counter item's seq: every reservation (an upload request's pending record) and every
// confirmation bumps it in its own transaction, conditioned on the seq the check read. Of two
// checks that read the same state, one transaction fails its condition and checks again, now
// seeing the other's pending record.

// maxInFlight bounds a tenant's pending uploads (expired ones not yet removed by TTL included), so
// one Query reads them all: an upload request past it is asked to wait (429). A confirmation is
// never refused for it (it lowers the number), and the seq makes two requests at the bound
// serialise, so no more than maxInFlight are ever written.
const maxInFlight = 100

// quotaAttempts is how often a check is retried after another upload moved the counter first.
const quotaAttempts = 6

var (
	errTooManyInFlight = api.Errorf(http.StatusTooManyRequests, "Too many uploads are in progress. Wait for them to finish, then try again.")
	errQuotaBusy       = api.Errorf(http.StatusConflict, "Many files are being uploaded at once. Please try again.")
)

// quotaExceeded refuses an upload past the quota; used is what was used or promised.
type quotaExceeded struct{ used int64 }

func (q quotaExceeded) Error() string {
	return fmt.Sprintf("media: quota exceeded (%d bytes used)", q.used)
}

// usageItem is the bytes counter as the quota reads it.
type usageItem struct {
	Count int64  `dynamo:"count"`
	Seq   *int64 `dynamo:"seq"`
}

// quota is one tenant's check: its plan's limit in bytes (0: none).
type quota struct {
	limit int64
}

// quotaOf returns the quota of a plan id (empty: the default plan) and the plan, for its message.
func quotaOf(planID string) (quota, plans.Plan, error) {
	p, err := plans.Of(planID)
	return quota{limit: p.Limits.MediaBytes}, p, err
}

// readUsage reads the bytes counter (strongly consistent) and the declared sizes of the
// tenant's pending uploads not yet expired, except one (the upload being confirmed); with no
// exception (a new request), errTooManyInFlight when maxInFlight are pending already.
func (d dynamoRecords) readUsage(ctx context.Context, scope store.Scope, except string, now time.Time) (usageItem, int64, error) {
	var u usageItem
	pk, sk := scope.CounterKey(plans.CountMediaBytes)
	if err := d.st.Get(ctx, store.Key{PK: pk, SK: sk}, &u); err != nil && !store.IsNotFound(err) {
		return u, 0, err
	}
	var pending []pendingUpload
	err := d.st.Table.Get("PK", scope.Collection(kindUpload)).Consistent(true).Limit(maxInFlight).All(ctx, &pending)
	if err != nil {
		return u, 0, store.Wrap("read pending uploads", err)
	}
	if except == "" && len(pending) >= maxInFlight {
		return u, 0, errTooManyInFlight
	}
	var sum int64
	for _, p := range pending {
		if p.SK != except && p.ExpiresAt.After(now) {
			sum += p.Size
		}
	}
	return u, sum, nil
}

// bumpSeq is the update of the bytes counter that makes a checked write conditional on the state
// its check read (seq unchanged), adding delta bytes.
func (d dynamoRecords) bumpSeq(scope store.Scope, u usageItem, delta int64) *dynamo.Update {
	upd := d.st.AddToCounter(scope, plans.CountMediaBytes, delta).Add("seq", 1)
	if u.Seq == nil {
		return upd.If("attribute_not_exists(seq)")
	}
	return upd.If("seq = ?", *u.Seq)
}

// checked runs write (a transaction whose item at seqAt is bumpSeq's update) after checking that
// used + pending (except one) + size fits the quota, again when another upload moved the counter
// between the check and the write.
func (d dynamoRecords) checked(ctx context.Context, scope store.Scope, q quota, except string, size int64, seqAt int,
	write func(u usageItem) *dynamo.WriteTx) error {
	for range quotaAttempts {
		u, pending, err := d.readUsage(ctx, scope, except, time.Now())
		if err != nil {
			return err
		}
		if q.limit > 0 && u.Count+pending+size > q.limit {
			return quotaExceeded{used: u.Count + pending}
		}
		err = write(u).Run(ctx)
		if !store.CondFailedAt(err, seqAt) {
			return err
		}
	}
	return errQuotaBusy
}

// quotaRefusal turns a quotaExceeded into the plan's 413 naming the plan; other errors pass.
func quotaRefusal(err error, p plans.Plan) error {
	var over quotaExceeded
	if errors.As(err, &over) {
		return p.MediaRefusal(over.used)
	}
	return err
}
