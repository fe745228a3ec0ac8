package demo

import (
	"time"

	"github.com/campuscms/panel/shared/ids"
)

// fixedID is the id of one seeded thing (a record, a media file, a menu entry), derived from the
// tenant and the thing's name alone: a second run, or a retry after a run that stopped half way,
// arrives at the same ids, so a record already written is found and never written twice. It is
// a ULID as ids.New makes them (upper-case Crockford base 32, 26 characters): its time is the
// tenant's creation, its entropy the first 80 bits of SHA-256(tenant, name).
func fixedID(tenant string, created time.Time, name string) string {
	return ids.Derived(created, tenant, name)
}
