package mail

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/campuscms/panel/shared/store"
)

// Transports a deployment sends with (MAIL_TRANSPORT).
const (
	// TransportSMTP sends to the local mailbox (make dev, the tests): 127.0.0.1:MAIL_SMTP_PORT.
	TransportSMTP = "smtp"
	// TransportSES sends with SES v2 SendEmail through the configuration set (AWS).
	TransportSES = "ses"
	// TransportOff is a deployment without a mail domain: every mail fails at once, visibly
	// (Failed lists it), rather than being sent from an address nobody verified.
	TransportOff = "off"
)

// DefaultDomain is the mail domain of local runs: *.localhost never leaves the machine.
const DefaultDomain = "campuscms.localhost"

// DefaultSMTPPort is the local mailbox's SMTP port.
const DefaultSMTPPort = 1025

// Config is how a deployment sends mail, read once from the environment (ConfigFromEnv).
type Config struct {
	// Domain is the mail domain: mail is from no-reply@{Domain} (MAIL_DOMAIN).
	Domain string
	// Transport is TransportSMTP (default), TransportSES or TransportOff (MAIL_TRANSPORT).
	Transport string
	// SMTPAddr is where TransportSMTP sends: 127.0.0.1:{MAIL_SMTP_PORT}.
	SMTPAddr string
	// ConfigurationSet is SES's configuration set (MAIL_CONFIGURATION_SET): its event
	// destination reports bounces and complaints (HandleSESEvent).
	ConfigurationSet string
	// QueueURL is the SQS queue the request path nudges after a commit (MAIL_QUEUE_URL; AWS).
	QueueURL string
}

// ConfigFromEnv reads MAIL_DOMAIN, MAIL_TRANSPORT, MAIL_SMTP_PORT, MAIL_CONFIGURATION_SET and
// MAIL_QUEUE_URL, with the local defaults.
func ConfigFromEnv() (Config, error) {
	c := Config{
		Domain:           strings.ToLower(env("MAIL_DOMAIN", DefaultDomain)),
		Transport:        env("MAIL_TRANSPORT", TransportSMTP),
		ConfigurationSet: env("MAIL_CONFIGURATION_SET", ""),
		QueueURL:         env("MAIL_QUEUE_URL", ""),
	}
	port := DefaultSMTPPort
	if v := env("MAIL_SMTP_PORT", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 65535 {
			return Config{}, fmt.Errorf("mail: MAIL_SMTP_PORT=%q is not a port", v)
		}
		port = n
	}
	c.SMTPAddr = fmt.Sprintf("127.0.0.1:%d", port)
	return c, c.Check()
}

// Check reports what is wrong with a configuration: a domain that is none, an unknown transport,
// SES without its configuration set.
func (c Config) Check() error {
	if !store.ValidHost(c.Domain) {
		return fmt.Errorf("mail: MAIL_DOMAIN=%q is not a domain name", c.Domain)
	}
	switch c.Transport {
	case TransportSMTP, TransportOff:
	case TransportSES:
		if c.ConfigurationSet == "" {
			return fmt.Errorf("mail: MAIL_TRANSPORT=ses needs MAIL_CONFIGURATION_SET (bounces and complaints are reported through it)")
		}
	default:
		return fmt.Errorf("mail: MAIL_TRANSPORT=%q: want %s, %s or %s", c.Transport, TransportSMTP, TransportSES, TransportOff)
	}
	return nil
}

// FromAddress is the deployment's sending address: no-reply@{Domain}.
func (c Config) FromAddress() string { return FromLocalPart + "@" + c.Domain }

// From is the From header of a message sent for fromName: "{fromName}" <no-reply@{Domain}>,
// the name quoted, or encoded as RFC 2047 words when it is not ASCII (net/mail). The worker
// sends a tenant's mail from its own verified domain instead (FromAt, TenantDomain.From).
func (c Config) From(fromName string) string { return c.FromAt(c.Domain, fromName) }

func env(key, fallback string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return fallback
}
