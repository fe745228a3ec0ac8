package auth

import (
	"context"
	"time"

	"github.com/guregu/dynamo/v2"

	"github.com/campuscms/panel/shared/store"
)

// Writes of a user made here (a profile change, two-factor changes, the operator's resets) keep
// their own item: the secrets they set (a password or passcode hash, a two-factor key) never
// pass through the collections engine, so they can never reach a version or the audit log. What
// records each write is the engine's all the same: the state it replaces kept as a version, its
// audit entry, its words and list index attributes, from the one function that gives every
// writer its side effects (collections.SideEffects), which a Recorder hands to this package
// (the engine imports this package, so it cannot be called directly).

// OperatorID is the user id the operator's tool (cmsctl) writes under: a fixed ULID no real user
// can have (users get fresh ones, time-ordered from now), so the Audit Log can filter by it.
const OperatorID = "00000000000000000000PERATR"

// Operator is who the operator's tool's writes are by, in versions and the audit log: "cmsctl",
// the name its tenant-wide entries (creation, plan, suspension, export) have always carried.
var Operator = User{ID: OperatorID, Username: "cmsctl", FirstName: "Operator", LastName: "(cmsctl)", Status: true, IsAdmin: true}

// OperatorCaller is the operator's tool acting in the tenant of scope.
func OperatorCaller(scope store.Scope) *Caller {
	u := Operator
	return &Caller{Scope: scope, User: &u}
}

// Recorder gives a write of a user what records it beside the user's own item.
type Recorder interface {
	// RecordUser returns the side effects of ch. It refuses, like every write, a change whose
	// state no version could keep.
	RecordUser(ctx context.Context, ch UserChange) (Recorded, error)
}

// UserChange is one write of a user as what records it sees it.
type UserChange struct {
	// Caller is who writes: the user, an administrator, or Operator.
	Caller *Caller
	// Action is "create" or "update".
	Action string
	// Before and After are the user as stored before and after the write (Before nil on a
	// create); only the users collection's declared fields, id, version and times are read.
	Before, After *User
	// AlsoChanged names what changed beyond the declared fields: "password", "passcode",
	// "twoFactor".
	AlsoChanged []string
	At          time.Time
}

// Recorded is what records a write of a user: the index attributes its own item carries (and
// those it no longer does), and the items its transaction takes beside it.
type Recorded struct {
	Attributes map[string]any
	Removed    []string
	Items      []any
}

// Set puts the index attributes on the user's own update.
func (r Recorded) Set(up *dynamo.Update) {
	for name, v := range r.Attributes {
		up.Set(name, v)
	}
	if len(r.Removed) > 0 {
		up.Remove(r.Removed...)
	}
}

// AddTo queues the items in tx, after what it holds already.
func (r Recorded) AddTo(tx *dynamo.WriteTx) {
	store.AddToTx(tx, r.Items...)
}
