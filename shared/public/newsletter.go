package public

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/newsletter"
)

type signupInput struct {
	Email  string `json:"email"`
	Gotcha any    `json:"_gotcha"`
}

// signupThanks is the one answer to a signup, new or repeated (or trapped), so the body never
// tells anyone whether an address was already subscribed.
const signupThanks = "Thanks for subscribing!"

// subscribe serves POST /newsletter-signups {email}: 201 for a new address, 200 for one already
// subscribed (nothing written), a filled honeypot answered like a success with nothing stored,
// and the per-client rate limit of the form submissions.
func (s *Service) subscribe(w http.ResponseWriter, r *http.Request) error {
	st := siteFrom(r.Context())
	var in signupInput
	if err := api.Decode(r, &in); err != nil {
		return err
	}
	ok := api.Envelope{Result: map[string]string{"email": in.Email}, Message: signupThanks}
	if trapped(in.Gotcha) {
		return api.JSON(w, http.StatusCreated, ok)
	}
	if err := s.allow(r.Context(), w, r, st.scope, "newsletter", s.limit); err != nil {
		return err
	}
	created, err := newsletter.Subscribe(r.Context(), s.st, st.scope, in.Email, s.now())
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return api.JSON(w, status, ok)
}
