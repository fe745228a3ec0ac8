package collections

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/store"
)

// maxMarkRead bounds one PATCH /notifications/: the bell and the list mark at most a page.
const maxMarkRead = 100

// markReadChunk is how many notifications one transaction marks: each is an item, and the unread
// counter and the batch's audit entry two more. Marking read is the same whatever was marked before, and each chunk keeps
// its own count, so a request larger than a transaction is split safely: a failure leaves the
// chunks before it done and the counter true, and marking the rest again finishes it.
const markReadChunk = store.MaxTransactionItems - 2

// notificationHooks add PATCH /notifications/ (mark read) to the generic routes.
type notificationHooks struct{ NoHooks }

func (notificationHooks) Routes(s *Service, mux api.Mux, path string, c *Collection) {
	mux.Handle("PATCH "+path+"/{$}", s.guard.Require(c.Permission("VIEW"), s.handler(c, s.markRead)))
}

// markRead serves PATCH /notifications/: it marks the listed notifications read. SPEC spells the
// field notificaitonIds; notificationIds is accepted too. The passcode carries no security.
func (s *Service) markRead(w http.ResponseWriter, r *http.Request, c *Collection) error {
	var in struct {
		Passcode        string   `json:"passcode"`
		NotificaitonIDs []string `json:"notificaitonIds"`
		NotificationIDs []string `json:"notificationIds"`
	}
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	seen := map[string]bool{}
	var list []string
	for _, id := range append(in.NotificaitonIDs, in.NotificationIDs...) {
		if !seen[id] {
			seen[id] = true
			list = append(list, id)
		}
	}
	switch {
	case len(list) == 0:
		return api.Errorf(http.StatusBadRequest, "notificaitonIds is required!")
	case len(list) > maxMarkRead:
		return api.Errorf(http.StatusBadRequest, "At most %d notifications can be marked at once.", maxMarkRead)
	}
	scope := auth.CallerFrom(r.Context()).Scope
	unread, err := s.unreadOf(r.Context(), c, scope, list)
	if err != nil {
		return err
	}
	for start := 0; start < len(unread); start += markReadChunk {
		wr := s.newWrite(r, c, nil)
		s.addMarkRead(wr, scope, unread[start:min(len(unread), start+markReadChunk)])
		if err := wr.run(r.Context(), notFound(c)); err != nil {
			return err
		}
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]int{"updated": len(list)}, Message: "Notifications marked as read"})
}
