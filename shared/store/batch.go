package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/guregu/dynamo/v2"
)

// Key is a primary key of the table.
type Key struct {
	PK string `dynamo:"PK"`
	SK string `dynamo:"SK"`
}

// GetMany reads several items, possibly of different kinds, in one BatchGetItem round trip
// (strongly consistent unless s is Eventual) and returns the found ones by key. Missing items
// are simply absent from the map.
func (s *Store) GetMany(ctx context.Context, keys ...Key) (map[Key]dynamo.Item, error) {
	dk := make([]dynamo.Keyed, len(keys))
	for i, k := range keys {
		dk[i] = dynamo.Keys{k.PK, k.SK}
	}
	var items []dynamo.Item
	err := s.Table.Batch("PK", "SK").Get(dk...).Consistent(s.Consistent()).All(ctx, &items)
	if err != nil && !errors.Is(err, dynamo.ErrNotFound) {
		return nil, fmt.Errorf("store: batch get: %w", err)
	}
	out := make(map[Key]dynamo.Item, len(items))
	for _, it := range items {
		var k Key
		if err := dynamo.UnmarshalItem(it, &k); err != nil {
			return nil, fmt.Errorf("store: batch get: key: %w", err)
		}
		out[k] = it
	}
	return out, nil
}

// Decode unmarshals one item of a GetMany result into out; ok is false when the item was not found.
func Decode(items map[Key]dynamo.Item, k Key, out any) (bool, error) {
	it, found := items[k]
	if !found {
		return false, nil
	}
	if err := dynamo.UnmarshalItem(it, out); err != nil {
		return false, fmt.Errorf("store: decode %s/%s: %w", k.PK, k.SK, err)
	}
	return true, nil
}
