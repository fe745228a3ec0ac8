// Package misc serves /misc/*: the master lists with dashboard counters, the server time, and
// countries, states and cities.
package misc

import (
	"net/http"
	"time"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/auth"
	"github.com/campuscms/panel/shared/geo"
	"github.com/campuscms/panel/shared/store"
)

// Service serves /misc.
type Service struct {
	st    *store.Store
	guard *auth.Guard
	now   func() time.Time
	// geo returns the countries/states/cities catalogue, parsed on first use (about 80 ms), so a
	// cold start that serves no geo call does not pay for it.
	geo func() (*geo.Catalogue, error)
}

// NewService returns the misc service.
func NewService(st *store.Store, guard *auth.Guard) *Service {
	return &Service{st: st, guard: guard, now: time.Now, geo: geo.Load}
}

// Register declares the routes of /misc under base.
func (s *Service) Register(mux api.Mux, base string) {
	mux.Handle("GET "+base+"/misc/masters", s.guard.Require("", s.masters))
	mux.Handle("GET "+base+"/misc/server-time", s.guard.Public(s.serverTime))
	s.registerGeo(mux, base)
}

// DashboardStats are the six dashboard counters of SPEC §2.
type DashboardStats struct {
	PageCount                 int64 `json:"pageCount"`
	FormCount                 int64 `json:"formCount"`
	PopupCount                int64 `json:"popupCount"`
	AlbumCount                int64 `json:"albumCount"`
	NewsletterSignupCount     int64 `json:"newsletterSignupCount"`
	CustomFormSubmissionCount int64 `json:"customFormSubmissionCount"`
}

type masters struct {
	DashboardStats DashboardStats          `json:"dashboardStats"`
	ItemGroups     map[string][]MasterItem `json:"itemGroups"`
}

func (s *Service) masters(w http.ResponseWriter, r *http.Request) error {
	counts, err := s.st.Counters(r.Context(), auth.CallerFrom(r.Context()).Scope)
	if err != nil {
		return err
	}
	return api.OK(w, masters{
		DashboardStats: DashboardStats{
			PageCount:                 counts[store.CountPages],
			FormCount:                 counts[store.CountForms],
			PopupCount:                counts[store.CountPopups],
			AlbumCount:                counts[store.CountAlbums],
			NewsletterSignupCount:     counts[store.CountNewsletterSignups+"#CONFIRMED"], // confirmed signups (the collection's facet)
			CustomFormSubmissionCount: counts[store.CountUncheckedFormSubmission],
		},
		ItemGroups: itemGroups,
	})
}

func (s *Service) serverTime(w http.ResponseWriter, r *http.Request) error {
	now := s.now().UTC()
	return api.OK(w, map[string]string{"serverTime": now.Format(time.RFC3339), "serverDate": now.Format(time.DateOnly)})
}
