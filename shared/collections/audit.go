package collections

import (
	"context"
	"time"

	"github.com/campuscms/panel/shared/audit"
	"github.com/campuscms/panel/shared/auth"
)

// recordWrite puts every write's audit entry in its transaction (effects): who, from where,
// which record and which fields changed (never their values).
func (s *Service) recordWrite(_ context.Context, wr *Write) error {
	k := wr.Kind()
	e := AuditEntry(wr.Caller, s.timeOf(wr), wr.Action, k.Key, "")
	if wr.RestoredFrom != 0 {
		e.Action = ActionRestore
	}
	if wr.viaDraft {
		e.Action = ActionDraftPublish
	}
	switch wr.Action {
	case ActionCreate:
		e.RecordID = k.auditID(wr.Rec)
	case ActionDelete:
		e.RecordID = k.auditID(wr.Old)
	default:
		e.RecordID = k.auditID(wr.Old)
		e.Changed = wr.changedFields()
	}
	wr.Also(s.st.Table.Put(audit.Item(wr.Caller.Scope, e)), nil)
	return nil
}

// AuditEntry is the audit log's entry of a write by caller at a time: action on record id of
// kind, who, and from where. Writers outside the engine (media, the trash, the menu) put it in
// their own transaction.
func AuditEntry(caller *auth.Caller, at time.Time, action, kind, id string) audit.Entry {
	e := audit.Entry{At: at, Action: action, Collection: kind, RecordID: id, Client: caller.Client}
	if u := caller.User; u != nil {
		e.UserID, e.Username = u.ID, u.Username
	}
	return e
}
