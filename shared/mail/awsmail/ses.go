package awsmail

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"github.com/campuscms/panel/shared/mail"
)

// SES sends with SES v2 SendEmail: Simple content (SES writes the MIME: text and HTML parts,
// RFC 2047 subject), the message's headers (List-Unsubscribe, List-Unsubscribe-Post) as
// Simple's Headers, through the configuration set whose event destination reports bounces and
// complaints.
type SES struct {
	client    *sesv2.Client
	configSet string
}

// NewSES returns the SES sender of cfg (the Lambda's role), sending through configSet; optFns
// adjust the client (tests point BaseEndpoint at a stand-in).
func NewSES(cfg aws.Config, configSet string, optFns ...func(*sesv2.Options)) *SES {
	return &SES{client: sesv2.NewFromConfig(cfg, optFns...), configSet: configSet}
}

// Input is the SendEmail request of one mail.
func (s *SES) Input(e mail.Envelope) (*sesv2.SendEmailInput, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if err := mail.CheckFrom(e.From); err != nil {
		return nil, err
	}
	utf8 := aws.String("UTF-8")
	body := &types.Body{Text: &types.Content{Data: aws.String(e.Text), Charset: utf8}}
	if e.HTML != "" {
		body.Html = &types.Content{Data: aws.String(e.HTML), Charset: utf8}
	}
	var headers []types.MessageHeader
	for _, name := range mail.HeaderNames(e.Message) {
		headers = append(headers, types.MessageHeader{Name: aws.String(name), Value: aws.String(mail.HeaderValue(e.Message, name))})
	}
	in := &sesv2.SendEmailInput{
		FromEmailAddress:     aws.String(e.From),
		Destination:          &types.Destination{ToAddresses: []string{e.To}},
		ConfigurationSetName: aws.String(s.configSet),
		Content: &types.EmailContent{Simple: &types.Message{
			Subject: &types.Content{Data: aws.String(e.Subject), Charset: utf8},
			Body:    body,
			Headers: headers,
		}},
		EmailTags: []types.MessageTag{
			{Name: aws.String(mail.TagTenant), Value: aws.String(e.Tenant)},
			{Name: aws.String(mail.TagKind), Value: aws.String(e.Kind)},
			{Name: aws.String(mail.TagID), Value: aws.String(e.ID)},
		},
	}
	if e.Campaign != "" {
		in.EmailTags = append(in.EmailTags, types.MessageTag{Name: aws.String(mail.TagCampaign), Value: aws.String(e.Campaign)})
	}
	if e.ReplyTo != "" {
		in.ReplyToAddresses = []string{e.ReplyTo}
	}
	return in, nil
}

// Send sends one mail. SES's refusals of the message itself (MessageRejected, an unverified
// MAIL FROM domain, a malformed request) wrap mail.ErrPermanent; throttling, a paused account or a
// fault are tried again later.
func (s *SES) Send(ctx context.Context, e mail.Envelope) (string, error) {
	in, err := s.Input(e)
	if err != nil {
		return "", err
	}
	out, err := s.client.SendEmail(ctx, in)
	if err != nil {
		var rejected *types.MessageRejected
		var mailFrom *types.MailFromDomainNotVerifiedException
		var bad *types.BadRequestException
		if errors.As(err, &rejected) || errors.As(err, &mailFrom) || errors.As(err, &bad) {
			return "", fmt.Errorf("%w: ses: %w", mail.ErrPermanent, err)
		}
		return "", fmt.Errorf("mail: ses: %w", err)
	}
	return aws.ToString(out.MessageId), nil
}
