package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/ids"
	"github.com/campuscms/panel/shared/store"
)

// MaxPerRun bounds the mail one Deliver sends; the rest is still due at the next run.
const MaxPerRun = 100

// MaxAttempts is how many failed sends a mail gets before it is given up on (moved to the
// tenant's failed partition, logged at error level).
const MaxAttempts = 8

// Lease is how long a worker holds a mail it claimed: if it dies while sending, the mail is
// due again after it (another worker may then send it a second time, the one rare duplicate
// the lease leaves possible).
const Lease = 2 * time.Minute

// sendTimeout bounds one send, well inside the lease.
const sendTimeout = 30 * time.Second

// Backoff is how long after its n-th failure (n from 1) a mail is tried again: 1 minute,
// doubling, at most an hour.
func Backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	if n > 7 {
		return time.Hour
	}
	return min(time.Minute<<(n-1), time.Hour)
}

// Worker sends the outbox's due mail. One runs in the dev server (every few seconds, and at once
// when nudged); in AWS the mail function runs one per invocation (the queue's messages, and the
// one-minute sweep).
type Worker struct {
	st      *store.Store
	sender  Sender
	cfg     Config
	log     *slog.Logger
	only    map[string]bool
	perRun  int
	nudges  chan []store.Key
	domains *domainCache
}

// DomainTTL is how long a worker keeps what it read of a tenant's own mail domain (its tenant
// item, TenantDomain) before reading it again: one read per tenant a minute at most, however
// much mail the tenant sends, and a change by set-mail-domain is in use within a minute.
const DomainTTL = time.Minute

// maxCachedDomains bounds the cache; past it, it starts again empty.
const maxCachedDomains = 10_000

// domainCache holds the sending domain of each tenant the worker sent for lately.
type domainCache struct {
	mu sync.Mutex
	m  map[string]cachedDomain
}

type cachedDomain struct {
	domain string
	until  time.Time
}

// NewWorker returns a worker reading st's outbox and sending with sender as cfg's From; log may
// be nil.
func NewWorker(st *store.Store, sender Sender, cfg Config, log *slog.Logger) *Worker {
	if log == nil {
		log = slog.Default()
	}
	return &Worker{st: st, sender: sender, cfg: cfg, log: log, perRun: MaxPerRun, nudges: make(chan []store.Key, 64),
		domains: &domainCache{m: map[string]cachedDomain{}}}
}

// fromDomain is the domain the scope's mail is sent from at now: the tenant's own once SES
// verified it (TenantDomain.From), else the deployment's. It reads the tenant item at most once
// per DomainTTL (a tenant that is gone sends from the deployment's domain).
func (w *Worker) fromDomain(ctx context.Context, scope store.Scope, now time.Time) (string, error) {
	tenant := scope.Tenant()
	w.domains.mu.Lock()
	c, ok := w.domains.m[tenant]
	w.domains.mu.Unlock()
	if ok && now.Before(c.until) {
		return c.domain, nil
	}
	d, err := GetTenantDomain(ctx, w.st, scope)
	if err != nil && !store.IsNotFound(err) {
		return "", err
	}
	domain := d.From(w.cfg.Domain)
	w.domains.mu.Lock()
	if len(w.domains.m) >= maxCachedDomains {
		w.domains.m = map[string]cachedDomain{}
	}
	w.domains.m[tenant] = cachedDomain{domain: domain, until: now.Add(DomainTTL)}
	w.domains.mu.Unlock()
	return domain, nil
}

// Only returns the worker limited to the given tenants (tests: the others' mail stays due).
func (w *Worker) Only(tenants ...string) *Worker {
	k := *w
	k.only = map[string]bool{}
	for _, t := range tenants {
		k.only[t] = true
	}
	return &k
}

// Result counts what one run did.
type Result struct {
	// Due is the due mail read; Sent the mail sent; Suppressed the bulk mail dropped for a
	// suppressed address; Skipped the mail another worker claimed first (or not due after all);
	// Deferred the mail that failed and waits for its retry; Failed the mail given up on.
	Due        int `json:"due"`
	Sent       int `json:"sent"`
	Suppressed int `json:"suppressed"`
	Skipped    int `json:"skipped"`
	Deferred   int `json:"deferred"`
	Failed     int `json:"failed"`
}

// String is the run's log line.
func (r Result) String() string {
	return fmt.Sprintf("mail: %d due, %d sent, %d suppressed, %d skipped, %d deferred, %d failed",
		r.Due, r.Sent, r.Suppressed, r.Skipped, r.Deferred, r.Failed)
}

// Add adds o's counts to r (the runs of one invocation).
func (r *Result) Add(o Result) {
	r.Due += o.Due
	r.Sent += o.Sent
	r.Suppressed += o.Suppressed
	r.Skipped += o.Skipped
	r.Deferred += o.Deferred
	r.Failed += o.Failed
}

// Deliver sends what is due at now, in every tenant: one Query of the due index (at most
// MaxPerRun), then each mail claimed, sent and removed one by one. A mail that fails is moved
// aside (tried again after Backoff, given up after MaxAttempts); the others still go. The error
// reports only what the worker could not do at all (the Query, or recording an outcome).
func (w *Worker) Deliver(ctx context.Context, now time.Time) (Result, error) {
	var due []item
	q := w.st.Table.Get("GSI3PK", DueIndex).Index("GSI3").Range("GSI3SK", dynamo.LessOrEqual, dueBound(now))
	if w.only == nil {
		q = q.Limit(w.perRun)
	}
	// A worker of some tenants only (the tests') reads the whole due index, then keeps theirs:
	// other tenants' mail due first must not hide them behind the limit.
	err := q.All(ctx, &due)
	if err != nil {
		return Result{}, store.Wrap("due mail", err)
	}
	if w.only != nil {
		kept := due[:0]
		for _, it := range due {
			if scope, err := scopeOf(it.PK); err == nil && w.only[scope.Tenant()] && len(kept) < w.perRun {
				kept = append(kept, it)
			}
		}
		due = kept
	}
	var res Result
	var errs []error
	for _, it := range due {
		r, err := w.deliver(ctx, it, now)
		res.Add(r)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}

// DeliverKeys sends the mail of the given outbox keys if they are due at now (the queue's
// messages, a nudge after a commit): a strongly consistent read of each, so a mail written a
// moment ago is found although the index may not show it yet. A key whose mail is gone (sent),
// not due yet (backing off) or not an outbox item is skipped.
func (w *Worker) DeliverKeys(ctx context.Context, now time.Time, keys ...store.Key) (Result, error) {
	var res Result
	var errs []error
	for _, k := range keys {
		scope, err := scopeOf(k.PK)
		if err != nil || k.PK != OutboxPartition(scope) || !ids.Valid(k.SK) {
			res.Skipped++
			continue
		}
		var it item
		err = w.st.Get(ctx, k, &it)
		if store.IsNotFound(err) {
			continue // sent already
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if it.IndexPK != DueIndex || it.IndexSK > dueBound(now) {
			res.Skipped++
			continue
		}
		r, err := w.deliver(ctx, it, now)
		res.Add(r)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}

// deliver claims, sends and settles one due mail.
func (w *Worker) deliver(ctx context.Context, it item, now time.Time) (Result, error) {
	scope, err := scopeOf(it.PK)
	if err != nil || (w.only != nil && !w.only[scope.Tenant()]) {
		return Result{}, nil
	}
	res := Result{Due: 1}
	claimed, ok, err := w.claim(ctx, it, now)
	if err != nil {
		return res, err
	}
	if !ok {
		res.Skipped++
		return res, nil
	}
	log := w.log.With("tenant", scope.Tenant(), "mail", claimed.SK, "kind", claimed.Kind)
	if claimed.Bulk {
		suppressed, err := Suppressed(ctx, w.st, scope, claimed.To)
		if err != nil {
			return res, w.failed(ctx, &res, log, claimed, now, err)
		}
		if suppressed {
			log.Info("mail: not sent to a suppressed address")
			res.Suppressed++
			return res, w.remove(ctx, claimed)
		}
	}
	domain, err := w.fromDomain(ctx, scope, now)
	if err != nil {
		return res, w.failed(ctx, &res, log, claimed, now, err)
	}
	sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	env := Envelope{Message: claimed.Message, From: w.cfg.FromAt(domain, claimed.FromName), Tenant: scope.Tenant(), ID: claimed.SK}
	id, err := w.sender.Send(sendCtx, env)
	if err != nil {
		return res, w.failed(ctx, &res, log, claimed, now, err)
	}
	log.Info("mail: sent", "providerId", id)
	res.Sent++
	return res, w.remove(ctx, claimed)
}

// claim takes the lease of a due mail: its index place moves to the lease's end (no other run
// reads it as due meanwhile), on condition that it is still where it was read (a run that
// claimed, sent or moved it first wins; the index may lag the item). ok is false when another
// run won.
func (w *Worker) claim(ctx context.Context, it item, now time.Time) (item, bool, error) {
	claim := ids.New()
	var out item
	err := w.st.Table.Update("PK", it.PK).Range("SK", it.SK).
		Set("GSI3SK", indexSK(now.Add(Lease), it.PK, it.SK)).Set("claim", claim).
		If("GSI3PK = ? AND GSI3SK = ?", DueIndex, it.IndexSK).
		Value(ctx, &out)
	if isCondFailed(err) {
		return item{}, false, nil
	}
	if err != nil {
		return item{}, false, store.Wrap("claim mail", err)
	}
	return out, true, nil
}

// remove deletes a mail that was sent (or dropped), on condition that this run still holds it.
func (w *Worker) remove(ctx context.Context, it item) error {
	err := w.st.Table.Delete("PK", it.PK).Range("SK", it.SK).If("claim = ?", it.Claim).Run(ctx)
	if isCondFailed(err) {
		// The lease ran out and another run took it: it may send it again (logged, never lost).
		w.log.Warn("mail: sent after its lease ran out", "mail", it.SK)
		return nil
	}
	return store.Wrap("remove sent mail", err)
}

// failed records a failed send: the mail is due again after Backoff, or, after MaxAttempts (or
// at once for a permanent refusal), moves to the tenant's failed partition in one transaction.
func (w *Worker) failed(ctx context.Context, res *Result, log *slog.Logger, it item, now time.Time, cause error) error {
	n := it.Attempts + 1
	msg := cause.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	if n < MaxAttempts && !errors.Is(cause, ErrPermanent) && !errors.Is(cause, ErrInvalid) {
		retry := now.Add(Backoff(n))
		err := w.st.Table.Update("PK", it.PK).Range("SK", it.SK).
			Set("GSI3SK", indexSK(retry, it.PK, it.SK)).Set("dueAt", retry.UTC().Format(timeLayout)).
			Set("attempts", n).Set("lastError", msg).Remove("claim").
			If("claim = ?", it.Claim).Run(ctx)
		if isCondFailed(err) {
			return nil // the lease ran out and another run has it
		}
		if err != nil {
			return store.Wrap("defer failed mail", err)
		}
		log.Warn("mail: send failed, trying again later", "attempts", n, "retryAt", retry.UTC().Format(time.RFC3339), "err", cause)
		res.Deferred++
		return nil
	}
	scope, err := scopeOf(it.PK)
	if err != nil {
		return err
	}
	gone := it
	gone.PK = FailedPartition(scope)
	gone.IndexPK, gone.IndexSK = "", ""
	gone.Attempts, gone.LastError, gone.FailedAt, gone.Claim = n, msg, now.UTC().Format(time.RFC3339), ""
	err = w.st.WriteTx().
		Delete(w.st.Table.Delete("PK", it.PK).Range("SK", it.SK).If("claim = ?", it.Claim)).
		Put(w.st.Table.Put(gone)).Run(ctx)
	if store.CondFailedAt(err, 0) {
		return nil
	}
	if err != nil {
		return store.Wrap("give up failed mail", err)
	}
	log.Error("mail: given up", "attempts", n, "err", cause)
	res.Failed++
	return nil
}

func isCondFailed(err error) bool {
	var cf *types.ConditionalCheckFailedException
	return errors.As(err, &cf) || dynamo.IsCondCheckFailed(err)
}
