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

// Texts of the pages.
const (
	ConfirmTitle        = "Confirm your subscription"
	ConfirmText         = "Press the button to confirm that you want to receive our newsletter at this address."
	ConfirmWhy          = "We ask you to press the button, rather than confirming when the link is opened, because some mail programs open links by themselves to check them."
	ConfirmedMessage    = "Your subscription is confirmed. Thank you!"
	UnsubscribeTitle    = "Unsubscribe"
	UnsubscribeText     = "Press the button to stop receiving our newsletter at this address."
	UnsubscribeWhy      = "Nothing changes until you press the button."
	UnsubscribedMessage = "You have been unsubscribed. You will not receive our newsletter any more."
)

func (s *Server) signupPage(title, text, action, button, why, purpose string) func(q *req) (*view, error) {
	return func(q *req) (*view, error) {
		if _, err := s.load(q, public.Want{}); err != nil {
			return nil, err
		}
		token := q.r.URL.Query().Get("token")
		if err := s.read.CheckSignupToken(q.r.Context(), q.site, token, purpose); err != nil {
			return signupAnswer(title, err)
		}
		return &view{Body: "newsletter-action", Title: title, Private: true, NoIndex: true,
			Data: signupAction{Text: text, Action: action, Token: token, Button: button, Why: why}}, nil
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
			return signupAnswer(title, err)
		}
		return &view{Body: "message", Title: title, Private: true, NoIndex: true, Flash: done}, nil
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
	mux.Handle("GET "+newsletter.ConfirmPath, s.page(s.signupPage(ConfirmTitle, ConfirmText, newsletter.ConfirmPath, "Confirm", ConfirmWhy, newsletter.PurposeConfirm)))
	mux.Handle("POST "+newsletter.ConfirmPath, s.page(s.signupPost(ConfirmTitle, ConfirmedMessage, func(q *req, token string) error {
		return s.read.ConfirmSignup(q.r.Context(), q.site, public.ClientAddress(q.r), token)
	})))
	mux.Handle("GET "+newsletter.UnsubscribePath, s.page(s.signupPage(UnsubscribeTitle, UnsubscribeText, newsletter.UnsubscribePath, "Unsubscribe", UnsubscribeWhy, newsletter.PurposeUnsubscribe)))
	mux.Handle("POST "+newsletter.UnsubscribePath, s.page(s.signupPost(UnsubscribeTitle, UnsubscribedMessage, func(q *req, token string) error {
		return s.read.Unsubscribe(q.r.Context(), q.site, public.ClientAddress(q.r), token)
	})))
}
