package collections

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
)

// maxMarkRead bounds one PATCH /notifications/: the bell and the list mark at most a page.
const maxMarkRead = 100

// notificationHooks add PATCH /notifications/ (mark read) to the generic routes.
type notificationHooks struct{ NoHooks }

func (notificationHooks) Routes(s *Service, mux api.Mux, path string, c *Collection) {
	mux.Handle("PATCH "+path+"/{$}", s.guard.Require(c.Permission("VIEW"), s.handler(c, s.markReadRoute)))
}

// markReadRoute serves PATCH /notifications/: it marks the listed notifications read. SPEC spells
// the field notificaitonIds; notificationIds is accepted too. The passcode carries no security.
func (s *Service) markReadRoute(w http.ResponseWriter, r *http.Request, c *Collection) error {
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
	caller := auth.CallerFrom(r.Context())
	unread, err := s.unreadOf(r.Context(), c, caller.Scope, list)
	if err != nil {
		return err
	}
	if err := s.markRead(r.Context(), caller, c, unread); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]int{"updated": len(list)}, Message: "Notifications marked as read"})
}
