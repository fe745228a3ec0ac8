package store

import (
	"context"
	"strings"

	"github.com/guregu/dynamo/v2"
)

// Counter names. A counter is kept in the same transaction as each create and delete of its type.
const (
	CountPages                   = "pages"
	CountForms                   = "custom-forms"
	CountPopups                  = "popups"
	CountAlbums                  = "albums"
	CountNewsletterSignups       = "newsletter-signups"
	CountUncheckedFormSubmission = "custom-form-submissions-unchecked"
)

const counterPrefix = "COUNT#"

type counterItem struct {
	SK    string `dynamo:"SK"`
	Count int64  `dynamo:"count"`
}

// CounterKey returns the PK and SK of one counter of the tenant.
func (s Scope) CounterKey(name string) (pk, sk string) { return s.Root(), counterPrefix + name }

// AddToCounter returns an update adding delta to a counter, to put into a write transaction.
func (s *Store) AddToCounter(scope Scope, name string, delta int64) *dynamo.Update {
	pk, sk := scope.CounterKey(name)
	return s.Table.Update("PK", pk).Range("SK", sk).Add("count", delta)
}

// Counters reads every counter of the tenant in one query: name → count.
func (s *Store) Counters(ctx context.Context, scope Scope) (map[string]int64, error) {
	var items []counterItem
	err := s.Table.Get("PK", scope.Root()).Range("SK", dynamo.BeginsWith, counterPrefix).All(ctx, &items)
	if err != nil {
		return nil, Wrap("read counters", err)
	}
	out := make(map[string]int64, len(items))
	for _, it := range items {
		out[strings.TrimPrefix(it.SK, counterPrefix)] = it.Count
	}
	return out, nil
}

// Count reads one counter (strongly consistent, so a list right after a create counts it);
// a counter never written is 0.
func (s *Store) Count(ctx context.Context, scope Scope, name string) (int64, error) {
	pk, sk := scope.CounterKey(name)
	var it counterItem
	err := s.Get(ctx, Key{PK: pk, SK: sk}, &it)
	if IsNotFound(err) {
		return 0, nil
	}
	return it.Count, err
}

// CountMany reads several counters in one round trip (one GetItem for one, else one
// BatchGetItem), in the order named; a counter never written is 0.
func (s *Store) CountMany(ctx context.Context, scope Scope, names ...string) ([]int64, error) {
	if len(names) == 1 {
		n, err := s.Count(ctx, scope, names[0])
		return []int64{n}, err
	}
	keys := make([]Key, len(names))
	for i, name := range names {
		keys[i].PK, keys[i].SK = scope.CounterKey(name)
	}
	found, err := s.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(names))
	for i, k := range keys {
		var it counterItem
		if _, err := Decode(found, k, &it); err != nil {
			return nil, err
		}
		out[i] = it.Count
	}
	return out, nil
}
