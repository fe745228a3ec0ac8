package collections

import (
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
)

// maxMarkRead bounds one PATCH /notifications/ (one transaction holds at most 100 items).
const maxMarkRead = 100

// markRead serves PATCH /notifications/: it marks the listed notifications read. SPEC spells the
// field notificaitonIds; notificationIds is accepted too. The passcode carries no security.
func (s *Service) markRead(w http.ResponseWriter, r *http.Request) error {
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
	c := s.reg["notifications"]
	switch {
	case len(list) == 0:
		return api.Errorf(http.StatusBadRequest, "notificaitonIds is required!")
	case len(list) > maxMarkRead:
		return api.Errorf(http.StatusBadRequest, "At most %d notifications can be marked at once.", maxMarkRead)
	}
	wr := s.newWrite(r, c, nil)
	now := s.now().UTC().Format(time.RFC3339Nano)
	for _, id := range list {
		if !idPattern.MatchString(id) {
			return notFound(c)
		}
		k := s.key(auth.CallerFrom(r.Context()).Scope, c, id)
		// An edit like any other: version and updatedAt move, so an editor holding the old
		// version gets a 409 rather than silently turning it unread again.
		wr.add("read", s.st.Table.Update("PK", k.PK).Range("SK", k.SK).Set("read", true).Set("updatedAt", now).
			Add("version", 1).If("attribute_exists(PK)"), notFound(c))
	}
	if err := wr.run(r.Context(), notFound(c)); err != nil {
		return err
	}
	return api.JSON(w, http.StatusOK, api.Envelope{Result: map[string]int{"updated": len(list)}, Message: "Notifications marked as read"})
}
