// Command cmsctl is the ops CLI: create and list tenants, change their plan, attach their website domains, reset a
// user's password, set a passcode. It works against whatever AWS_ENDPOINT_URL points at
// (emulator, LocalStack) or real AWS, on the table named by TABLE_NAME; set-domains also keeps the
// websites' CloudFront distribution tenant in step when WEBSITE_DISTRIBUTION_ID is set.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"

	"github.com/campuscms/panel/shared/awsclient"
	"github.com/campuscms/panel/shared/awsclient/s3client"
	"github.com/campuscms/panel/shared/awsclient/s3rest"
	"github.com/campuscms/panel/shared/config"
	"github.com/campuscms/panel/shared/demo"
	"github.com/campuscms/panel/shared/media"
	"github.com/campuscms/panel/shared/store"
	"github.com/campuscms/panel/shared/tenants"
)

const usage = `usage:
  cmsctl tenant create --id ID --name NAME --admin USER --password PASS [--plan PLAN]
  cmsctl tenant list
  cmsctl tenant set-plan --id ID --plan PLAN   (a downgrade deletes nothing; only new pages, forms, files, domains past it are refused)
  cmsctl tenant set-domains --id ID --domains www.example.org,example.org [--distribution ID] [--connection-group ID]
                                 (empty --domains clears them; with a distribution, also its CloudFront distribution tenant)
  cmsctl tenant seed-demo --id ID   (demo website content, media to MEDIA_BUCKET; running it again changes nothing)
  cmsctl tenant reindex --id ID     (one-off: the word index of records written before it existed; safe to run again)
  cmsctl tenant derive-images --id ID  (the sized copies of images uploaded before they existed or before the current widths; safe to run again)
  cmsctl user reset-password --tenant ID --username USER --password PASS
  cmsctl user set-passcode --tenant ID --username USER --passcode 123456
  cmsctl table create            (local emulator / first deploy without CDK only)
environment: TABLE_NAME (default cms), AWS_ENDPOINT_URL for an emulator, the usual AWS credentials,
  WEBSITE_DISTRIBUTION_ID and WEBSITE_CONNECTION_GROUP_ID (the stack outputs; --distribution, --connection-group)`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cmsctl:", err)
		os.Exit(2)
	}
}

// command is a cmsctl command defined in a file of its own, which registers it in its init.
type command struct {
	usage string // its lines of the usage text
	run   func(ctx context.Context, e env, args []string, out io.Writer) error
}

// env is what every command works with.
type env struct {
	cfg config.Config
	aws aws.Config
	st  *store.Store
}

// commands are the registered commands by name ("tenant export", "smoke").
var commands = map[string]command{}

// fullUsage is the usage text with every registered command's lines.
func fullUsage() string {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(usage)
	for _, name := range names {
		b.WriteString("\n" + commands[name].usage)
	}
	return b.String()
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(fullUsage())
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	awsCfg, err := loadAWS(ctx)
	if err != nil {
		return err
	}
	st := store.New(awsCfg, cfg.TableName)
	for n := min(2, len(args)); n >= 1; n-- {
		if c, ok := commands[strings.Join(args[:n], " ")]; ok {
			return c.run(ctx, env{cfg: cfg, aws: awsCfg, st: st}, args[n:], out)
		}
	}
	if len(args) < 2 {
		return errors.New(fullUsage())
	}
	fs := flag.NewFlagSet(args[0]+" "+args[1], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("id", "", "tenant id")
	tenant := fs.String("tenant", "", "tenant id")
	name := fs.String("name", "", "institution name")
	admin := fs.String("admin", "", "admin username")
	username := fs.String("username", "", "username")
	password := fs.String("password", "", "password")
	passcode := fs.String("passcode", "", "6-digit passcode")
	plan := fs.String("plan", "", "billing plan id (default: the catalogue's default plan)")
	domains := fs.String("domains", "", "comma-separated website hosts")
	distribution := fs.String("distribution", os.Getenv("WEBSITE_DISTRIBUTION_ID"), "the websites' multi-tenant CloudFront distribution (stack output WebsiteDistributionId)")
	connectionGroup := fs.String("connection-group", os.Getenv("WEBSITE_CONNECTION_GROUP_ID"), "its connection group (stack output WebsiteConnectionGroupId)")
	if err := fs.Parse(args[2:]); err != nil {
		return fmt.Errorf("%v\n%s", err, fullUsage())
	}
	switch args[0] + " " + args[1] {
	case "tenant create":
		u, err := tenants.Create(ctx, st, tenants.NewTenant{ID: *id, Name: *name, AdminUsername: *admin, AdminPassword: *password, Plan: *plan})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "created tenant %s (%s) with admin %s (id %s)\n", *id, *name, u.Username, u.ID)
	case "tenant list":
		list, err := tenants.List(ctx, st)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPLAN\tCREATED")
		for _, t := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Name, t.PlanID, t.CreatedAt.Format("2006-01-02 15:04"))
		}
		return tw.Flush()
	case "tenant set-plan":
		if *plan == "" {
			return fmt.Errorf("--plan is required\n%s", usage)
		}
		was, err := tenants.SetPlan(ctx, st, *id, *plan)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tenant %s: plan %s (was %s)\n", *id, *plan, was)
	case "tenant set-domains":
		var websites *tenants.Websites
		if *distribution != "" {
			websites = &tenants.Websites{API: cloudFront(awsCfg), DistributionID: *distribution, ConnectionGroupID: *connectionGroup}
		}
		return setDomains(ctx, out, st, websites, *id, strings.Split(*domains, ","))
	case "tenant seed-demo":
		sum, err := demo.Seed(ctx, st, s3client.New(awsCfg), cfg.MediaBucket, *id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tenant %s: %s\n", *id, sum)
	case "tenant reindex":
		n, err := tenants.Reindex(ctx, st, *id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tenant %s: %d records indexed for search\n", *id, n)
	case "tenant derive-images":
		scope, err := store.NewScope(*id)
		if err != nil {
			return err
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		n, err := media.NewDeriver(st, s3rest.New(awsCfg), cfg.MediaBucket, log).DeriveTenant(ctx, scope)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tenant %s: %d images given their sized copies\n", *id, n)
	case "user reset-password":
		if err := tenants.ResetPassword(ctx, st, *tenant, *username, *password); err != nil {
			return err
		}
		fmt.Fprintf(out, "password of %s in %s reset; their sessions have ended\n", *username, *tenant)
	case "user set-passcode":
		if err := tenants.SetPasscode(ctx, st, *tenant, *username, *passcode); err != nil {
			return err
		}
		fmt.Fprintf(out, "passcode of %s in %s set\n", *username, *tenant)
	case "table create":
		if err := st.EnsureTable(ctx); err != nil {
			return err
		}
		fmt.Fprintf(out, "table %s ready\n", cfg.TableName)
	default:
		return errors.New(fullUsage())
	}
	return nil
}

// setDomains replaces the tenant's website domains, in this order: the hosts are checked, then
// the CloudFront distribution tenant is read (credentials, distribution id), then the table is
// written (host lookups and the tenant's list, one transaction that also refuses a host another
// tenant holds), and only then CloudFront is changed. So a wrong setting or another tenant's host
// changes nothing anywhere; a CloudFront failure after the table write is reported as such (the
// table already holds the new domains) and is retried by running the same command again, which
// changes only what differs. Without websites (no WEBSITE_DISTRIBUTION_ID: local use) only the
// table changes, and the output says CloudFront was not touched.
func setDomains(ctx context.Context, out io.Writer, st *store.Store, websites *tenants.Websites, tenant string, domains []string) error {
	hosts, err := tenants.NormalizeDomains(domains)
	if err != nil {
		return err
	}
	if websites != nil {
		if err := websites.Check(ctx, tenant); err != nil {
			return fmt.Errorf("nothing changed: %w", err)
		}
	}
	if hosts, err = tenants.SetDomains(ctx, st, tenant, hosts); err != nil {
		return err
	}
	if len(hosts) == 0 {
		fmt.Fprintf(out, "tenant %s has no website domains now\n", tenant)
	} else {
		fmt.Fprintf(out, "tenant %s answers for %s (its website and the public API, by host)\n", tenant, strings.Join(hosts, ", "))
	}
	if websites == nil {
		fmt.Fprintln(out, "WEBSITE_DISTRIBUTION_ID is not set: the websites' CloudFront distribution was not touched (set it, or --distribution, to attach the domains there)")
		return nil
	}
	state, err := websites.Sync(ctx, tenant, hosts)
	if err != nil {
		listed := "no domains"
		if len(hosts) > 0 {
			listed = strings.Join(hosts, ", ")
		}
		return fmt.Errorf("the table now lists %s for tenant %s, but CloudFront was not brought in step: %w\nrun the same command again to retry; it changes only what differs", listed, tenant, err)
	}
	printWebsite(out, tenant, state)
	return nil
}

// printWebsite says what happened to the distribution tenant and what the institution's DNS needs.
func printWebsite(out io.Writer, tenant string, s tenants.WebsiteState) {
	name := tenants.DistributionTenantName(tenant)
	switch s.Action {
	case tenants.WebsiteAbsent:
		fmt.Fprintf(out, "CloudFront: no distribution tenant %s, nothing to remove\n", name)
		return
	case tenants.WebsiteDeleted:
		fmt.Fprintf(out, "CloudFront: distribution tenant %s deleted; the institution may remove its DNS records\n", name)
		return
	case tenants.WebsiteDisabled:
		fmt.Fprintf(out, "CloudFront: distribution tenant %s disabled (it serves nothing now); CloudFront deletes it only once that is deployed: run the same command again in a few minutes\n", name)
		return
	}
	fmt.Fprintf(out, "CloudFront: distribution tenant %s %s (%s)\n", name, s.Action, s.ID)
	records := s.DNSRecords()
	if len(records) == 0 {
		fmt.Fprintln(out, "the tenant's connection group has no routing endpoint yet: run the same command again to see the DNS records")
		return
	}
	fmt.Fprintln(out, "DNS records the institution creates at its DNS provider:")
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, r := range records {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, r.Type, r.Value)
	}
	_ = tw.Flush()
	fmt.Fprintln(out, "  (a name at the zone apex cannot be a CNAME: use the provider's ALIAS/ANAME or CNAME flattening, or redirect it to www)")
	c := s.Certificate
	if c == nil {
		fmt.Fprintln(out, "certificate: none yet")
		return
	}
	fmt.Fprintf(out, "certificate: %s\n", c.Status)
	if c.Status == "issued" {
		return
	}
	if c.ValidationTokenHost == "cloudfront" {
		fmt.Fprintln(out, "  validated over HTTP by CloudFront itself once the CNAMEs resolve: no other record is needed;")
		fmt.Fprintln(out, "  if the zone has CAA records, one must allow amazon.com. ACM fetches:")
	} else {
		fmt.Fprintln(out, "  self-hosted validation: the current web server must redirect each of these to its target:")
	}
	for _, t := range c.Tokens {
		fmt.Fprintf(out, "  %s -> %s\n", t.RedirectFrom, t.RedirectTo)
	}
}

// cloudFront is the CloudFront client for the websites' distribution. AWS_ENDPOINT_URL_CLOUDFRONT
// points it elsewhere (a test's stand-in); the SDK's config reads that variable only on the full
// provider chain, not when awsclient.Load builds the emulator's configuration.
func cloudFront(cfg aws.Config) *cloudfront.Client {
	return cloudfront.NewFromConfig(cfg, func(o *cloudfront.Options) {
		if v := os.Getenv("AWS_ENDPOINT_URL_CLOUDFRONT"); v != "" {
			o.BaseEndpoint = aws.String(v)
		}
	})
}

// loadAWS returns the SDK configuration: the emulator's when AWS_ENDPOINT_URL is set, otherwise
// the SDK's full provider chain, so an operator's profile or SSO login works (the Lambdas read
// only their environment; see awsclient.Load).
func loadAWS(ctx context.Context) (aws.Config, error) {
	if awsclient.Local() {
		return awsclient.Load(ctx)
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return aws.Config{}, fmt.Errorf("load AWS configuration: %w", err)
	}
	return cfg, nil
}
