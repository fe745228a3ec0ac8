package media

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/store"
)

// The media quota (the plan's mediaBytes). What a tenant uses is the counter
// COUNT#media-bytes (plans.CountMediaBytes): the confirmed files' sizes ("count"), moved in the
// same transaction as each record's add, delete and restore. The same item holds what is promised
// besides: "held", the used bytes plus the declared size of every upload in flight (each a pending
// record that expires after a day), and "inflight", their number.
//
// A write that needs room (an upload request, a confirmation larger than declared, a restore from
// the trash) is one transaction whose counter update adds its bytes to held on the condition that
// held leaves room for them: no read first, and uploads that race only serialise on DynamoDB's
// item lock, so none is refused while there is room. Held can only be too high, never too low:
// an abandoned upload's record expires (or is removed by TTL) without lowering it. So when that
// condition fails (the quota is near, or held is stale or missing), the truth is read: the used
// bytes and one bounded Query of the pending records not yet expired; held is set from it, on the
// condition that nothing changed it in between (seq, bumped by every write to the counter), and
// the write is refused only if the truth leaves no room.
//
// A pending record leaves held (and inflight) only while it has not expired: its removal's
// condition says so, in the same transaction as the decrement, so the truth read after expiry
// (which no longer counts it) is never lowered twice.

// maxInFlight bounds a tenant's uploads in flight: an upload request past it is asked to wait
// (429). A confirmation is never refused for it (it lowers the number).
const maxInFlight = 100

// pendingReadLimit bounds the Query of the truth: pending records not yet removed by TTL, expired
// or not. Past it the truth is not known and an upload request is asked to wait.
const pendingReadLimit = 4 * maxInFlight

// quotaAttempts is how often the truth is read and written again when another write changed the
// counter in between.
const quotaAttempts = 8

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

// need is what a checked write changes on the bytes counter.
type need struct {
	used    int64 // confirmed bytes added (a confirmation, a restore)
	held    int64 // held bytes added: the room the write needs (negative: it frees some)
	uploads int64 // uploads in flight added (1: a request, -1: a confirmation)
}

// bytesCounter is the counter's update for n, without its condition: a write that frees room (a
// delete, an upload given up) is unconditional, one that needs room goes through checked. Every
// one bumps seq, so setting held from the truth never overwrites a change made since its read.
func bytesCounter(st *store.Store, scope store.Scope, n need) *dynamo.Update {
	upd := st.AddToCounter(scope, plans.CountMediaBytes, n.used).Add("seq", 1)
	if n.held != 0 {
		upd = upd.Add("held", n.held)
	}
	if n.uploads != 0 {
		upd = upd.Add("inflight", n.uploads)
	}
	return upd
}

// readTruth reads the used bytes (strongly consistent) and the declared sizes and number of the
// tenant's pending uploads not yet expired.
func (d dynamoRecords) readTruth(ctx context.Context, scope store.Scope, now time.Time) (u usageItem, held, uploads int64, err error) {
	pk, sk := scope.CounterKey(plans.CountMediaBytes)
	if err := d.st.Get(ctx, store.Key{PK: pk, SK: sk}, &u); err != nil && !store.IsNotFound(err) {
		return u, 0, 0, err
	}
	var pending []pendingUpload
	err = d.st.Table.Get("PK", scope.Collection(kindUpload)).Consistent(true).Limit(pendingReadLimit).All(ctx, &pending)
	if err != nil {
		return u, 0, 0, store.Wrap("read pending uploads", err)
	}
	if len(pending) >= pendingReadLimit {
		return u, 0, 0, errTooManyInFlight
	}
	held = u.Count
	for _, p := range pending {
		if p.ExpiresAt.After(now) {
			held += p.Size
			uploads++
		}
	}
	return u, held, uploads, nil
}

// checked runs write (a transaction whose item at counterAt is the given counter update) if the
// quota leaves room for n: conditioned on held alone, and when that fails, on the truth read.
func (d dynamoRecords) checked(ctx context.Context, scope store.Scope, q quota, n need, counterAt int,
	write func(counter *dynamo.Update) *dynamo.WriteTx) error {
	// held >= count also fails when held is missing (a tenant's first upload).
	cond, args := "$ >= $", []any{"held", "count"}
	if q.limit > 0 {
		cond, args = cond+" AND $ <= ?", append(args, "held", q.limit-n.held)
	}
	if n.uploads > 0 {
		cond, args = cond+" AND $ < ?", append(args, "inflight", maxInFlight)
	}
	for attempt := range quotaAttempts {
		err := write(bytesCounter(d.st, scope, n).If(cond, args...)).Run(ctx)
		if !store.CondFailedAt(err, counterAt) {
			return err
		}
		u, held, uploads, err := d.readTruth(ctx, scope, time.Now())
		if err != nil {
			return err
		}
		if q.limit > 0 && held+n.held > q.limit {
			return quotaExceeded{used: held}
		}
		if n.uploads > 0 && uploads >= maxInFlight {
			return errTooManyInFlight
		}
		counter := bytesCounter(d.st, scope, need{used: n.used}).Set("held", held+n.held).Set("inflight", uploads+n.uploads)
		if u.Seq == nil {
			counter = counter.If("attribute_not_exists($)", "seq")
		} else {
			counter = counter.If("$ = ?", "seq", *u.Seq)
		}
		err = write(counter).Run(ctx)
		if !store.CondFailedAt(err, counterAt) {
			return err
		}
		// Another write changed the counter between the read and this one (most often: it set
		// held from the truth too, and the condition on held alone holds again): after a pause
		// that spreads the writes racing at the quota, try again.
		if err := sleepCtx(ctx, time.Duration(1+rand.IntN(5<<attempt))*time.Millisecond); err != nil {
			return err
		}
	}
	return errQuotaBusy
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// quotaRefusal turns a quotaExceeded into the plan's 413 naming the plan; other errors pass.
func quotaRefusal(err error, p plans.Plan) error {
	var over quotaExceeded
	if errors.As(err, &over) {
		return p.MediaRefusal(over.used)
	}
	return err
}
