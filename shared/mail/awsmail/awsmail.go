// Package awsmail is the mail path's AWS side: the SES v2 sender, the SQS nudger, the choice of
// sender a deployment's configuration makes, and the mail function's Lambda handler. It is apart
// from package mail so that code that only writes mail (mail.Enqueue in a request's transaction)
// links neither SDK client.
package awsmail

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/campuscms/panel/shared/mail"
)

// NewSender returns the sender c.Transport names: SES v2 through awsCfg and the configuration
// set, SMTP to the local mailbox, or mail.Off (no mail domain: every mail fails, visibly).
func NewSender(awsCfg aws.Config, c mail.Config) (mail.Sender, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	switch c.Transport {
	case mail.TransportSES:
		return NewSES(awsCfg, c.ConfigurationSet), nil
	case mail.TransportOff:
		return mail.Off{}, nil
	default:
		return mail.NewSMTP(c.SMTPAddr, c.Domain), nil
	}
}
