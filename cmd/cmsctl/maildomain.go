package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/mail"
	"github.com/campuscms/panel/shared/mail/awsmail"
	"github.com/campuscms/panel/shared/store"
)

const setMailDomainUsage = `  cmsctl tenant set-mail-domain --id ID --domain mail.school.example [--configuration-set NAME]
                                 (the tenant's mail is sent from no-reply@DOMAIN once SES has verified it: creates the SES
                                 identity with Easy DKIM, prints its DNS records and status; run it again to check; --domain ""
                                 goes back to the deployment's address. Needs MAIL_DOMAIN and MAIL_CONFIGURATION_SET, the
                                 stack outputs MailDomain and MailConfigurationSet, in AWS)`

func init() {
	commands["tenant set-mail-domain"] = command{usage: setMailDomainUsage, run: setMailDomain}
}

// setMailDomain stores a tenant's own mail domain, in this order: the flags and the domain are
// checked and the tenant read (a bad domain, the deployment's own or an unknown tenant changes
// nothing anywhere); then SES is brought in step (the identity created with Easy DKIM, or found,
// and associated with the deployment's configuration set, so bounces and complaints of the
// tenant's mail still reach the suppression handler); then the tenant item is written with what
// SES said (mailDomain, mailDomainVerified), with its audit entry. An SES failure stores nothing,
// except locally where the emulator has no SES: there the domain is stored unverified, and the
// output says so. Running it again changes nothing in SES and refreshes the verification.
func setMailDomain(ctx context.Context, e env, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("tenant set-mail-domain", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("id", "", "tenant id")
	domain := fs.String("domain", "", `the tenant's mail domain ("" for the deployment's)`)
	configSet := fs.String("configuration-set", os.Getenv("MAIL_CONFIGURATION_SET"), "the deployment's SES configuration set (stack output MailConfigurationSet)")
	usage := fmt.Errorf("usage:\n%s", setMailDomainUsage)
	if err := fs.Parse(args); err != nil || *id == "" || fs.NArg() > 0 {
		return usage
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "domain" })
	if !given {
		return fmt.Errorf("--domain is required (--domain \"\" goes back to the deployment's address)\n%s", setMailDomainUsage)
	}
	local := awsclient.Local()
	deployment := strings.TrimSpace(os.Getenv("MAIL_DOMAIN"))
	if deployment == "" {
		if !local {
			return errors.New("MAIL_DOMAIN is not set: give the deployment's mail domain (the stack output MailDomain), so that a tenant is never given it")
		}
		deployment = mail.DefaultDomain
	}
	if !local && *configSet == "" && *domain != "" {
		return errors.New("MAIL_CONFIGURATION_SET is not set (or --configuration-set): give the stack output MailConfigurationSet, so that bounces and complaints of the tenant's mail reach its suppression list")
	}
	scope, err := store.NewScope(*id)
	if err != nil {
		return err
	}
	before, err := mail.GetTenantDomain(ctx, e.st, scope)
	if err != nil {
		return fmt.Errorf("tenant %q: %w", *id, err)
	}
	if strings.TrimSpace(*domain) == "" {
		if _, err := mail.SetTenantDomain(ctx, e.st, scope, mail.TenantDomain{}, time.Now()); err != nil {
			return err
		}
		if before.Domain == "" {
			fmt.Fprintf(out, "tenant %s had no mail domain of its own: its mail is sent from %s\n", *id, mail.FromLocalPart+"@"+deployment)
			return nil
		}
		fmt.Fprintf(out, "tenant %s: mail domain %s removed; its mail is sent from %s again (the SES identity of %s is left as it is)\n",
			*id, before.Domain, mail.FromLocalPart+"@"+deployment, before.Domain)
		return nil
	}
	d, err := mail.CheckTenantDomain(*domain, deployment)
	if err != nil {
		return fmt.Errorf("nothing changed: %w", err)
	}

	identity, err := awsmail.NewIdentities(e.aws, sesEndpoint).Ensure(ctx, d, *id, *configSet)
	sesMissing := false
	if err != nil {
		if !local || !sesUnavailable(err) {
			return fmt.Errorf("nothing stored for tenant %s: %w", *id, err)
		}
		sesMissing = true
		fmt.Fprintf(out, "SES is not available at AWS_ENDPOINT_URL (%v); the domain is stored and will be verified in AWS\n", err)
		identity = awsmail.Identity{Domain: d}
	}
	if _, err := mail.SetTenantDomain(ctx, e.st, scope, mail.TenantDomain{Domain: d, Verified: identity.Verified}, time.Now()); err != nil {
		return err
	}
	if !sesMissing {
		printIdentity(out, identity, *configSet)
	}
	if identity.Verified {
		fmt.Fprintf(out, "tenant %s: mail is sent from %s@%s (within a minute)\n", *id, mail.FromLocalPart, d)
		return nil
	}
	fmt.Fprintf(out, "tenant %s: mail domain %s stored, not verified by SES yet: its mail is still sent from %s@%s.\n", *id, d, mail.FromLocalPart, deployment)
	fmt.Fprintln(out, "Publish the DNS records, then run the same command again: once SES reports the domain verified, mail is sent from it.")
	return nil
}

// sesEndpoint points the SES client at AWS_ENDPOINT_URL_SESV2 when set (a test's stand-in); the
// SDK's config reads that variable only on the full provider chain, not when awsclient.Load
// builds the emulator's configuration. On the emulator, its answers pass through emulatorSES.
func sesEndpoint(o *sesv2.Options) {
	if v := os.Getenv("AWS_ENDPOINT_URL_SESV2"); v != "" {
		o.BaseEndpoint = aws.String(v)
	}
	if awsclient.Local() {
		next := o.HTTPClient
		if next == nil {
			next = awshttp.NewBuildableClient()
		}
		o.HTTPClient = emulatorSES{next: next}
	}
}

// sesUnavailable reports whether err says that there is no SES at the endpoint at all (nothing
// answers, an answer that is not SES's, or the emulator does not know the operation), rather than
// SES refusing the request (a refusal is never taken for an absent SES).
func sesUnavailable(err error) bool {
	var send *smithyhttp.RequestSendError
	var garbled *smithy.DeserializationError
	if errors.As(err, &send) || errors.As(err, &garbled) {
		return true
	}
	var resp *smithyhttp.ResponseError
	if errors.As(err, &resp) && resp.HTTPStatusCode() == http.StatusNotImplemented {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NotImplemented", "NotImplementedError", "UnknownOperationException":
			return true
		}
	}
	return false
}

// emulatorSES is the SES client's HTTP client on the local emulator: moto writes Easy DKIM's
// LastKeyGenerationTimestamp as an ISO 8601 string where SES (and the SDK) has epoch seconds,
// which the SDK cannot read; this puts it as SES does. Everything else passes as it is.
type emulatorSES struct{ next sesv2.HTTPClient }

var isoTimestamp = regexp.MustCompile(`"(LastKeyGenerationTimestamp)"\s*:\s*"([^"]*)"`)

func (c emulatorSES) Do(r *http.Request) (*http.Response, error) {
	resp, err := c.next.Do(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	body = isoTimestamp.ReplaceAllFunc(body, func(m []byte) []byte {
		sub := isoTimestamp.FindSubmatch(m)
		at, err := time.Parse(time.RFC3339Nano, string(sub[2]))
		if err != nil {
			return m
		}
		return []byte(fmt.Sprintf(`"%s":%d`, sub[1], at.Unix()))
	})
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return resp, nil
}

// printIdentity says what SES holds of the identity and what the institution's DNS needs.
func printIdentity(out io.Writer, id awsmail.Identity, configSet string) {
	switch {
	case id.Created:
		fmt.Fprintf(out, "SES: identity %s created with Easy DKIM\n", id.Domain)
	default:
		fmt.Fprintf(out, "SES: identity %s exists\n", id.Domain)
	}
	switch {
	case id.Associated && id.PreviousConfigurationSet != "":
		fmt.Fprintf(out, "SES: its configuration set is now %s (was %s)\n", id.ConfigurationSet, id.PreviousConfigurationSet)
	case id.Associated:
		fmt.Fprintf(out, "SES: its configuration set is now %s\n", id.ConfigurationSet)
	case configSet == "":
		fmt.Fprintln(out, "SES: no configuration set given (MAIL_CONFIGURATION_SET): its association was not checked")
	}
	verified := "no"
	if id.Verified {
		verified = "yes"
	}
	dkim := id.DKIMStatus
	if dkim == "" {
		dkim = "unknown"
	}
	fmt.Fprintf(out, "status: verified for sending: %s; DKIM: %s\n", verified, dkim)
	if len(id.DKIMRecords) == 0 {
		fmt.Fprintln(out, "SES gave no DKIM records for it (an emulator gives none)")
	} else {
		fmt.Fprintln(out, "DNS records the institution creates at its DNS provider (Easy DKIM):")
		printRecords(out, id.DKIMRecords)
	}
	if records := id.MailFromRecords(); len(records) > 0 {
		fmt.Fprintf(out, "MAIL FROM domain %s (%s): it needs\n", id.MailFromDomain, strings.ToLower(id.MailFromStatus))
		printRecords(out, records)
	} else {
		fmt.Fprintf(out, "MAIL FROM: SES's own (amazonses.com); DKIM aligns the mail with %s for DMARC. Recommended: a DMARC record,\n", id.Domain)
		printRecords(out, []awsmail.DNSRecord{{Name: "_dmarc." + id.Domain, Type: "TXT", Value: `"v=DMARC1; p=none"`}})
		fmt.Fprintln(out, "  (p=quarantine once reports show the mail passes)")
	}
}

func printRecords(out io.Writer, records []awsmail.DNSRecord) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, r := range records {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, r.Type, r.Value)
	}
	_ = tw.Flush()
}
