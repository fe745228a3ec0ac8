package collections

import (
	"context"

	"github.com/campuscms/panel/shared/audit"
)

// recordWrite is the observer that puts every write's audit entry in its transaction: who, from
// where, which record and which fields changed (never their values).
func (s *Service) recordWrite(_ context.Context, wr *Write) error {
	e := audit.Entry{At: s.now(), Action: wr.Action, Collection: wr.C.Key, Client: wr.Caller.Client}
	if u := wr.Caller.User; u != nil {
		e.UserID, e.Username = u.ID, u.Username
	}
	if wr.RestoredFrom != 0 {
		e.Action = ActionRestore
	}
	switch wr.Action {
	case ActionCreate:
		e.RecordID = toString(wr.Rec["id"])
	case ActionDelete:
		e.RecordID = toString(wr.Old["id"])
	default:
		e.RecordID = toString(wr.Old["id"])
		e.Changed = wr.changedFields()
	}
	wr.Also(s.st.Table.Put(audit.Item(wr.Caller.Scope, e)), nil)
	return nil
}
