package website

import (
	"net/http"

	"github.com/campuscms/panel/shared/api"
	"github.com/campuscms/panel/shared/newsletter"
	"github.com/campuscms/panel/shared/public"
)

// The newsletter's confirmation and unsubscribe pages. A GET never changes anything (mail
// scanners open links): it shows a page whose button POSTs. A POST to the unsubscribe address
// is also what a mail client's one-click button sends (RFC 8058: body
// "List-Unsubscribe=One-Click", the token in the address); the token authorises it, so it needs
// no other check.

// signupAction is the data of the newsletter-action template.
type signupAction struct {
	Text, Action, Token, Button, Why string
}

// signupPage is the page a mail's link opens: its texts are message keys (messages.go).
func (s *Server) signupPage(title, text, action, button, why, purpose string) func(q *req) (*view, error) {
	return func(q *req) (*view, error) {
		if _, err := s.load(q, public.Want{}); err != nil {
			return nil, err
		}
		token := q.r.URL.Query().Get("token")
		if err := s.read.CheckSignupToken(q.r.Context(), q.site, token, purpose); err != nil {
			return signupAnswer(q.T(title), err)
		}
		return &view{Body: "newsletter-action", Title: q.T(title), Private: true, NoIndex: true,
			Data: signupAction{Text: q.T(text), Action: q.loc.Href(action), Token: token, Button: q.T(button), Why: q.T(why)}}, nil
	}
}

func (s *Server) signupPost(title, done string, use func(q *req, token string) error) func(q *req) (*view, error) {
	return func(q *req) (*view, error) {
		if _, err := s.load(q, public.Want{}); err != nil {
			return nil, err
		}
		values, err := postedForm(q)
		if err != nil {
			return nil, err
		}
		token := q.r.URL.Query().Get("token")
		if token == "" {
			token = values.Get("token")
		}
		if err := use(q, token); err != nil {
			return signupAnswer(q.T(title), err)
		}
		return &view{Body: "message", Title: q.T(title), Private: true, NoIndex: true, Flash: q.T(done)}, nil
	}
}

// signupAnswer is the page of a refused token (its 4xx and message), or the fault.
func signupAnswer(title string, err error) (*view, error) {
	e := api.AsError(err)
	if e.Status >= 500 {
		return nil, err
	}
	return &view{Body: "message", Title: title, Private: true, NoIndex: true, Status: e.Status, Flash: e.Message, FlashBad: true}, nil
}

// signupRoutes adds the pages to the website's mux.
func (s *Server) signupRoutes(mux interface {
	Handle(string, http.Handler)
}) {
	mux.Handle("GET "+newsletter.ConfirmPath, s.page(s.signupPage("signup.confirm_title", "signup.confirm_text", newsletter.ConfirmPath, "signup.confirm", "signup.confirm_why", newsletter.PurposeConfirm)))
	mux.Handle("POST "+newsletter.ConfirmPath, s.page(s.signupPost("signup.confirm_title", "signup.confirmed", func(q *req, token string) error {
		return s.read.ConfirmSignup(q.r.Context(), q.site, public.ClientAddress(q.r), token)
	})))
	mux.Handle("GET "+newsletter.UnsubscribePath, s.page(s.signupPage("signup.unsubscribe_title", "signup.unsubscribe_text", newsletter.UnsubscribePath, "signup.unsubscribe", "signup.unsubscribe_why", newsletter.PurposeUnsubscribe)))
	mux.Handle("POST "+newsletter.UnsubscribePath, s.page(s.signupPost("signup.unsubscribe_title", "signup.unsubscribed", func(q *req, token string) error {
		return s.read.Unsubscribe(q.r.Context(), q.site, public.ClientAddress(q.r), token)
	})))
}
