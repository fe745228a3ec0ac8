package collections

import (
	"context"
	"fmt"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// UserRecorder gives the auth package's writes of users (a profile change, two-factor changes,
// the operator's resets) their side effects through SideEffects: the users collection's version,
// audit entry, words and index attributes, as the engine's own writes of users get them. Only the
// collection's declared fields reach a version, so no hash or key ever does.
type UserRecorder struct{ st *store.Store }

var _ auth.Recorder = UserRecorder{}

// NewUserRecorder returns the recorder of auth's writes to st.
func NewUserRecorder(st *store.Store) UserRecorder { return UserRecorder{st: st} }

// RecordUser implements auth.Recorder.
func (r UserRecorder) RecordUser(ctx context.Context, ch auth.UserChange) (auth.Recorded, error) {
	reg, err := Load()
	if err != nil {
		return auth.Recorded{}, err
	}
	c, ok := reg[auth.KindUsers]
	if !ok {
		return auth.Recorded{}, fmt.Errorf("collections: no users collection is declared")
	}
	before, err := UserRecord(ch.Before)
	if err != nil {
		return auth.Recorded{}, err
	}
	after, err := UserRecord(ch.After)
	if err != nil {
		return auth.Recorded{}, err
	}
	eff, err := SideEffects(ctx, r.st, Change{Caller: ch.Caller, Kind: KindOf(c), Action: ch.Action,
		Before: before, After: after, AlsoChanged: ch.AlsoChanged, At: ch.At})
	if err != nil {
		return auth.Recorded{}, err
	}
	return auth.Recorded{Attributes: eff.Attributes, Removed: eff.Removed, Items: eff.TxItems(r.st, ch.Caller.Scope)}, nil
}

// UserRecord is a user as the engine reads a stored record (nil for none): its attributes by
// name, as its item holds them.
func UserRecord(u *auth.User) (Record, error) {
	if u == nil {
		return nil, nil
	}
	item, err := dynamo.MarshalItem(u)
	if err != nil {
		return nil, fmt.Errorf("collections: marshal user: %w", err)
	}
	var rec Record
	if err := dynamo.UnmarshalItem(item, &rec); err != nil {
		return nil, fmt.Errorf("collections: unmarshal user: %w", err)
	}
	return rec, nil
}
