// Package mailapp gives a module (an app.Module's Register) the process's mail nudger. It is
// apart from package mail so that mail imports nothing of app (auth, which app imports, may
// send mail).
package mailapp

import (
	"github.com/campuscms/panel/shared/app"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/awsmail"
)

// Nudger returns the process's mail.Nudger, the one every module shares: the one the dev server
// set (its worker, sending at once), else the deployment's (the SQS queue of MAIL_QUEUE_URL in
// AWS; none where it is unset, as in the tests, where testkit.DeliverMail sends). A module takes
// it once when it registers, and nudges it with the Outgoing keys after its transaction committed.
func Nudger(d *app.Deps) (mail.Nudger, error) {
	return app.Shared(d, mail.NudgerKey, func() (mail.Nudger, error) {
		cfg, err := mail.ConfigFromEnv()
		if err != nil {
			return nil, err
		}
		return awsmail.NewNudger(d.AWS, cfg, d.Log), nil
	})
}
