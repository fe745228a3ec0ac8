package newsletter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/collections"
	"github.com/campuscms/panel/shared/listing"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/plans"
	"github.com/campuscms/panel/shared/schedule"
	"github.com/campuscms/panel/shared/store"
)

// Sending. A send puts the newsletter's job (collections.JobDueItem); each run of the schedule
// job takes one step of it (RunJob): the next page of at most BatchSize confirmed signups
// after the cursor, read from the signups' CONFIRMED facet (a sparse index: only confirmed
// signups, never a Scan), each suppressed address skipped (mail.Suppressed), each other one
// given its own unsubscribe token and its mail (mail.EnqueueAt, paced at Rate a second after
// the previous step's last), and then, in ONE transaction: the tokens, the mails, the cursor
// (on condition it is still the one read), the newsletter's counts and the month's email
// counter. A step that fails writes nothing and is taken up again from the same cursor; a step
// whose answer was lost is found done by the next (its cursor moved), so nobody gets the
// newsletter twice. The step that finds no one left marks the newsletter sent and removes the
// job in one write through the engine (its version and audit entry, by the scheduler).

// BatchSize bounds the recipients of one step (two transaction items each).
const BatchSize = 25

// Rate is how many newsletter mails a second a tenant's send queues (under SES's sending rate).
const Rate = 10

// maxStepBytes bounds the mail one step writes, under DynamoDB's 4 MB transaction.
const maxStepBytes = 3_000_000

// sendJob is the job's due item with its progress.
type sendJob struct {
	collections.DueItem
	// Cursor is the id of the last signup the job wrote mail for (or skipped).
	Cursor string `dynamo:"sendCursor"`
	// NextAt is when the next mail may be due (pacing), RFC 3339 with nanoseconds.
	NextAt string `dynamo:"nextAt"`
}

type signupRow struct {
	ID           string `dynamo:"id"`
	Email        string `dynamo:"email"`
	Subscription string `dynamo:"subscription"`
}

// runBudget is how long one run of the schedule job spends on a newsletter's sending: steps of
// BatchSize recipients follow each other until it is spent (each its own transaction, so a run
// cut short loses nothing), so a large list is written to the outbox at hundreds of mails a
// second and sent at the pace EnqueueAt sets, not at one step a minute.
const runBudget = 8 * time.Second

// oneStep marks a context whose RunJob takes a single step.
type oneStep struct{}

// OneStep makes RunJob under ctx take a single step: for a caller that watches a send step by
// step (the tests of its progress).
func OneStep(ctx context.Context) context.Context { return context.WithValue(ctx, oneStep{}, true) }

// RunJob takes steps of a newsletter's sending for up to runBudget (collections.Jobber).
func (h newsletterHooks) RunJob(ctx context.Context, s *collections.Service, d collections.DueItem, now time.Time) (bool, error) {
	until := time.Now().Add(runBudget)
	if ctx.Value(oneStep{}) != nil {
		until = time.Time{}
	}
	for {
		more, err := h.step(ctx, s, d, now)
		if err != nil || !more || time.Now().After(until) {
			return more, err
		}
	}
}

// step takes one step of a newsletter's sending: the next BatchSize confirmed signups.
func (h newsletterHooks) step(ctx context.Context, s *collections.Service, d collections.DueItem, now time.Time) (bool, error) {
	st := s.Store()
	scope, err := d.Scope()
	if err != nil {
		return false, err
	}
	var job sendJob
	err = st.Get(ctx, store.Key{PK: d.PK, SK: d.SK}, &job)
	if store.IsNotFound(err) {
		return false, nil // finished by another run
	} else if err != nil {
		return false, err
	}
	c := s.Registry()[NewslettersKind]
	rec, err := s.Load(ctx, scope, c, job.ID)
	if api.AsError(err).Status == 404 {
		return false, store.Wrap("newsletter: forget job", st.Table.Delete("PK", d.PK).Range("SK", d.SK).Run(ctx))
	} else if err != nil {
		return false, err
	}
	var rows []signupRow
	q := st.Table.Get("GSI3PK", scope.Collection(Kind)+"#"+FacetConfirmed).Index(listing.ByFacet).Limit(BatchSize)
	if job.Cursor != "" {
		q = q.Range("GSI3SK", dynamo.Greater, job.Cursor)
	}
	if err := q.All(ctx, &rows); err != nil {
		return false, store.Wrap("newsletter: recipients", err)
	}
	if len(rows) == 0 {
		return false, h.finish(ctx, s, scope, c, rec, job.DueItem, now)
	}
	from, err := senderOf(ctx, st, scope, h.site)
	if err != nil {
		return false, err
	}
	at := now
	if t, err := time.Parse(time.RFC3339Nano, job.NextAt); err == nil && t.After(at) {
		at = t
	}
	tx := st.WriteTx()
	var sent, suppressed, failed, size int
	cursor := job.Cursor
	for _, r := range rows {
		if size > maxStepBytes {
			break
		}
		cursor = r.ID
		if r.Subscription != Confirmed { // the index is read eventually: a change just made
			continue
		}
		if sup, err := mail.Suppressed(ctx, st, scope, r.Email); err != nil {
			return false, err
		} else if sup {
			suppressed++
			continue
		}
		put, raw := newToken(st, scope, PurposeUnsubscribe, r.ID, job.ID, now, UnsubscribeTTL)
		msg, err := newsletterMail(rec, from, r.Email, link(ctx, from.site, UnsubscribePath, raw))
		if err != nil {
			return false, err
		}
		msg.Campaign = job.ID // its bounces and complaints are counted on the newsletter
		out, err := mail.EnqueueAt(st, scope, msg, at)
		if errors.Is(err, mail.ErrInvalid) {
			failed++ // an address mail cannot go to (written before it was checked)
			continue
		} else if err != nil {
			return false, err
		}
		store.AddToTx(tx, put)
		store.AddToTx(tx, out.Put)
		size += len(msg.HTML) + len(msg.Text)
		sent++
		at = at.Add(time.Second / Rate)
	}
	upd := st.Table.Update("PK", d.PK).Range("SK", d.SK).Set("sendCursor", cursor).Set("nextAt", at.UTC().Format(time.RFC3339Nano))
	if job.Cursor == "" {
		upd = upd.If("attribute_not_exists(sendCursor)")
	} else {
		upd = upd.If("sendCursor = ?", job.Cursor)
	}
	store.AddToTx(tx, upd)
	nk := newsletterKey(scope, job.ID)
	store.AddToTx(tx, st.Table.Update("PK", nk.PK).Range("SK", nk.SK).Add("sentCount", sent).Add("suppressedCount", suppressed).
		Add("failedCount", failed).If("attribute_exists(PK)"))
	if sent > 0 {
		store.AddToTx(tx, st.AddToCounter(scope, plans.CountEmails(now.UTC().Format("2006-01")), int64(sent)))
	}
	if err := tx.Run(ctx); err != nil {
		if isCondFailed(err) {
			return true, nil // another run took this step: the next run goes on from its cursor
		}
		return false, fmt.Errorf("newsletter: send step: %w", err)
	}
	return true, nil
}

// finish marks the newsletter sent and removes its job, in one write through the engine.
func (h newsletterHooks) finish(ctx context.Context, s *collections.Service, scope store.Scope, c *collections.Collection, rec collections.Record, job collections.DueItem, now time.Time) error {
	ctx = context.WithValue(ctx, stateKey{}, stateChange{state: StateSent, sentAt: now.UTC().Format(time.RFC3339), job: &job})
	_, err := s.Update(ctx, &auth.Caller{Scope: scope, User: &schedule.Scheduler}, c, job.ID, map[string]any{"version": rec["version"]})
	if api.AsError(err).Status == 409 {
		return nil // a concurrent run finished it
	}
	return err
}
