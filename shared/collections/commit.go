package collections

import (
	"context"
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/store"
)

// What a Write does.
const (
	ActionCreate = "create"
	ActionUpdate = "update"
	ActionDelete = "delete"
)

// Observer sees every accepted write of a declared collection (create, update, delete; records
// and singletons alike) after its hooks, and may add items to its transaction with Write.Also:
// a version, an audit entry, a word index entry. It runs once per write, inside the write's own
// transaction, so what it records exists exactly when the write does: a refused or failed write
// leaves nothing of it. An error it returns refuses the write.
type Observer func(ctx context.Context, w *Write) error

// errTooLarge refuses a write whose transaction would pass DynamoDB's limit, before anything is
// sent (DynamoDB would refuse it whole, as a fault).
func errTooLarge(items int) *api.Error {
	return api.Errorf(http.StatusRequestEntityTooLarge,
		"This change touches too many records at once (%d; at most %d). Save it in smaller parts.", items, store.MaxTransactionItems)
}

// commit is the one way a write of a declared collection reaches the table: the plan's limit,
// what records the write (effects: its version, audit entry, words, references, counters and due
// item), the linked observers' and the hooks' items, then the record's own item (own: a Put,
// Update or Delete whose failed condition means ownConflict), counted against DynamoDB's limit
// before anything is sent, in one transaction.
func (s *Service) commit(ctx context.Context, wr *Write, own any, ownConflict *api.Error) error {
	if err := s.checkLiveWrite(ctx, wr); err != nil {
		return err
	}
	if err := s.enforcePlan(ctx, wr); err != nil {
		return err
	}
	if err := s.draftAlongside(ctx, wr); err != nil {
		return err
	}
	if err := s.effects(ctx, wr); err != nil {
		return err
	}
	for _, o := range s.observers {
		if err := o(ctx, wr); err != nil {
			return err
		}
	}
	s.addHookItems(wr)
	wr.add(own, ownConflict)
	if wr.items > store.MaxTransactionItems {
		return errTooLarge(wr.items)
	}
	return wr.run(ctx, api.ErrConflict)
}
